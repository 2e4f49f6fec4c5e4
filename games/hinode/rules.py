"""Hinode's rules: setup, the legal moves and applying a move (proxies play themselves inside `apply`)."""

from __future__ import annotations

from games.base import chance, evolve
from games.hinode.data import (
    ADJACENT,
    ADJACENT_MASK,
    AREAS,
    BATTLE_CARDS,
    BLUE,
    CHARMONT,
    HAND_SIZE,
    HERO,
    HERO_POWER,
    KANSAI,
    NAWABARI_CARDS,
    NAWABARI_COLOUR,
    PLAYERS,
    RED,
    SAMURAI,
    SKILL_COST,
    SUIT_SIZE,
    TRICKS,
    WHITE,
    YOZAKURA,
)
from games.hinode.scoring import marked_areas
from games.hinode.state import (
    AREA,
    OVER,
    PICK,
    PLAY,
    TRIBE,
    ChooseArea,
    ChooseTribe,
    PlayCard,
    Played,
    State,
    TakeResource,
)

# Moves are interned: the same move is the same object, so legality is an identity check in the common case.
_TRIBE_MOVES = tuple(ChooseTribe(t) for t in range(4))
_AREA_MOVES = tuple(ChooseArea(a) for a in range(AREAS))
_PLAIN = tuple(PlayCard(c) for c in range(HERO + 1))
_RESOURCE_SETS = ((None,), (None, RED), (None, BLUE), (None, RED, BLUE))  # by usable = has_red + 2 * has_blue
# card -> usable -> the plays of that card; and the start player's declaring Hero plays on the white Area
_VARIANTS = tuple(
    tuple(tuple(_PLAIN[c] if r is None else PlayCard(c, resource=r) for r in rs) for rs in _RESOURCE_SETS)
    for c in range(HERO + 1)
)
_DECLARED_VARIANTS = tuple(
    tuple(PlayCard(HERO, resource=r, declare=d) for d in range(3) for r in rs) for rs in _RESOURCE_SETS
)
_NO_TARGET = (None, None, None)
_SKILL_MOVES: dict[tuple, PlayCard] = {}  # interned on first use; at most a few thousand
_TAKE = tuple(tuple(TakeResource(c, p) for p in range(PLAYERS)) for c in range(3))


def new_game(num_players: int, advanced: bool, vp: tuple[int, ...], start: int, seed: int) -> State:
    """Lay out the Areas and cubes, deal as if four played; the start player then picks a tribe first."""
    rng = chance(seed, "setup")
    layout = list(range(NAWABARI_CARDS))
    rng.shuffle(layout)
    cube_bag = [c for c in range(3) for _ in range(12)]
    rng.shuffle(cube_bag)
    cubes = [0] * (AREAS * 3)
    for i, colour in enumerate(cube_bag):
        cubes[(i // 3) * 3 + colour] += 1
    deck = list(range(BATTLE_CARDS))
    rng.shuffle(deck)
    hands = tuple(
        tuple(sorted(deck[p * HAND_SIZE : (p + 1) * HAND_SIZE]))
        if p < num_players
        else tuple(deck[p * HAND_SIZE : (p + 1) * HAND_SIZE])  # a proxy's face-down pile, top first
        for p in range(PLAYERS)
    )
    return State(
        seed=seed,
        num_players=num_players,
        advanced=advanced,
        vp=vp,
        layout=tuple(layout),
        cubes=tuple(cubes),
        tribes=(None,) * PLAYERS,
        hands=hands,
        removed=tuple(sorted(deck[PLAYERS * HAND_SIZE :])),
        heroes=(True,) * PLAYERS,
        resources=(0,) * (PLAYERS * 3),
        first=(None,) * AREAS,
        second=(None,) * AREAS,
        skill_markers=(0,) * PLAYERS,
        trick=0,
        phase=TRIBE,
        actor=start,
        start=start,
        battlefield=None,
        colour=None,
        plays=(),
        history=(),
        hero_last=None,
        ranking=(),
        next_start=None,
    )


# --- legal moves ---------------------------------------------------------------------------------------------

def legal_moves(state: State, seat: int) -> tuple:
    """Every legal move of `seat` (empty if it is not to act)."""
    if state.actor != seat or seat is None:
        return ()
    phase = state.phase
    if phase == PLAY:
        moves = _play_moves(state, seat)
    elif phase == AREA:
        first, second = state.first, state.second
        moves = tuple(_AREA_MOVES[a] for a in range(AREAS) if first[a] is None and second[a] is None)
    elif phase == PICK:
        base = state.battlefield * 3
        receiver = state.ranking[3]
        moves = tuple(_TAKE[c][receiver] for c in range(3) if state.cubes[base + c])
    elif phase == TRIBE:
        moves = tuple(_TRIBE_MOVES[t] for t in range(4) if t not in state.tribes)
    else:
        moves = ()
    return moves


def _play_moves(state: State, seat: int) -> tuple:
    resources = state.resources
    usable = (resources[seat * 3 + RED] > 0) + 2 * (resources[seat * 3 + BLUE] > 0)
    moves: list = []
    for card in state.hands[seat]:
        moves += _VARIANTS[card][usable]
    # the Hero, unless spent or another one was played this trick (hero_last is None: no Hero played yet at all)
    hero = state.heroes[seat] and (state.hero_last is None or all(p.move.card != HERO for p in state.plays))
    if hero:
        # the start player's Hero on the white Area declares its colour
        moves += _DECLARED_VARIANTS[usable] if state.colour is None else _VARIANTS[HERO][usable]
    if state.advanced:
        moves += _skill_moves(state, seat, state.hands[seat] + (HERO,) if hero else state.hands[seat])
    return tuple(moves)


def _skill_moves(state: State, seat: int, hand: tuple[int, ...]) -> list[PlayCard]:
    tribe = state.tribes[seat]
    cost = SKILL_COST[tribe]
    resources = state.resources
    pays = [c for c in range(3) if resources[seat * 3 + c] >= cost]
    if not pays:
        return []
    battlefield = state.battlefield
    targets: list[tuple] = []  # (target_area, target_seat, target_colour)
    if tribe == KANSAI:
        if bin(marked_areas(state, seat) & ADJACENT_MASK[battlefield]).count("1") >= 2:
            targets.append(_NO_TARGET)
    elif tribe == SAMURAI:
        mine = marked_areas(state, seat)
        targets += [(a, None, None) for a in ADJACENT[battlefield] if not mine >> a & 1]
    elif tribe == YOZAKURA:
        targets.append(_NO_TARGET)
    elif tribe == CHARMONT:
        for victim in range(state.num_players):
            if victim != seat:
                targets += [(None, victim, c) for c in range(3) if resources[victim * 3 + c]]
        if not targets:  # nothing to take: the skill still makes you the next start player
            targets.append(_NO_TARGET)
    moves = []
    for card in hand:
        declares = (0, 1, 2) if card == HERO and state.colour is None else (None,)
        for declare in declares:
            for pay in pays:
                for target in targets:
                    key = (card, tribe, pay, declare, target)
                    move = _SKILL_MOVES.get(key)
                    if move is None:
                        move = _SKILL_MOVES[key] = PlayCard(card, None, tribe, pay, *target, declare)
                    moves.append(move)
    return moves


# --- apply -----------------------------------------------------------------------------------------------------


def transition(state: State, seat: int, move) -> State:
    """The state after `seat` makes its legal `move` and every proxy after it has played."""
    phase = state.phase
    if phase == PLAY:
        return _play(state, seat, move)
    if phase == AREA:
        area = move.area
        colour = NAWABARI_COLOUR[state.layout[area]]
        return evolve(state, phase=PLAY, battlefield=area, colour=None if colour == WHITE else colour)
    if phase == PICK:
        return _finish_trick(state, move.colour)
    return _choose_tribe(state, seat, move.tribe)


def why_illegal(state: State, move) -> str:
    expected = {TRIBE: ChooseTribe, AREA: ChooseArea, PLAY: PlayCard, PICK: TakeResource}.get(state.phase)
    if expected is None or not isinstance(move, expected):
        return f"now is the {state.phase} phase; {getattr(move, 'label', move)!r} is not a move of it"
    if isinstance(move, PlayCard):
        if move.card != HERO and move.card not in state.hands[state.actor]:
            return "that card is not in your hand"
        if move.card == HERO:
            return "your Hero is spent, or a Hero was already played this trick"
        return "you lack the resources, or the skill's condition or target does not hold"
    if isinstance(move, ChooseArea):
        return "that Area is already selected (it has a 1st or 2nd marker)"
    if isinstance(move, ChooseTribe):
        return "that tribe is taken"
    return "there is no such resource on the Battlefield"


def _choose_tribe(state: State, seat: int, tribe: int) -> State:
    tribes = list(state.tribes)
    tribes[seat] = tribe
    n = state.num_players
    for step in range(1, n):
        nxt = (seat + step) % n
        if tribes[nxt] is None:
            return evolve(state, tribes=tuple(tribes), actor=nxt)
    left = [t for t in range(4) if t not in tribes]
    for proxy in range(n, PLAYERS):  # "proxies get the remaining tribes"
        tribes[proxy] = left.pop(0)
    return evolve(state, tribes=tuple(tribes), phase=AREA, actor=state.start)


def _play(state: State, seat: int, move: PlayCard) -> State:
    hands = list(state.hands)
    resources = list(state.resources)
    heroes = state.heroes
    skill_markers = state.skill_markers
    colour = state.colour
    hero_last = state.hero_last
    card = move.card
    if card == HERO:
        heroes = heroes[:seat] + (False,) + heroes[seat + 1 :]
        hero_last = seat
        if colour is None:
            colour = move.declare
    else:
        hand = hands[seat]
        i = hand.index(card)
        hands[seat] = hand[:i] + hand[i + 1 :]
        if colour is None:  # "treated as the same color as the suit played by the start player"
            colour = card // SUIT_SIZE
    if move.resource is not None:
        resources[seat * 3 + move.resource] -= 1
    elif move.skill is not None:
        resources[seat * 3 + move.pay] -= SKILL_COST[move.skill]
        if move.skill == SAMURAI:
            skill_markers = tuple(m | (1 << move.target_area) if p == seat else m for p, m in enumerate(skill_markers))
        elif move.skill == CHARMONT and move.target_seat is not None:
            resources[move.target_seat * 3 + move.target_colour] -= 1
            resources[seat * 3 + move.target_colour] += 1
    plays = state.plays + (_played(state.trick, seat, move, colour),)
    history = state.history + plays[-1:]
    nxt = (seat + 1) % PLAYERS
    n = state.num_players
    while len(plays) < PLAYERS and nxt >= n:  # a proxy turns over the top card of its pile
        pile = hands[nxt]
        played = _played(state.trick, nxt, _PLAIN[pile[0]], colour)
        hands[nxt] = pile[1:]
        plays += (played,)
        history += (played,)
        nxt = (nxt + 1) % PLAYERS
    state = evolve(
        state,
        hands=tuple(hands),
        heroes=heroes,
        resources=tuple(resources),
        skill_markers=skill_markers,
        actor=nxt,
        colour=colour,
        plays=plays,
        history=history,
        hero_last=hero_last,
    )
    if len(plays) < PLAYERS:
        return state
    return _judge(state)


def _played(trick: int, seat: int, move: PlayCard, colour: int) -> Played:
    card = move.card
    if card == HERO:
        power, follow = HERO_POWER, True  # "Hero cards are multi-suit and always count as Follow"
    else:
        power, follow = card % SUIT_SIZE + 1, card // SUIT_SIZE == colour
    if move.resource == RED:
        power = HERO_POWER - power  # "14 minus the current value"; the Hero becomes 0
    elif move.resource == BLUE:
        follow = not follow
    return Played(trick, seat, move, power, follow)


def judgment_order(plays: tuple[Played, ...]) -> list[int]:
    """Positions best first: Follow before Not Follow, then by power, ties to who acted earlier."""
    order = sorted(range(len(plays)), key=lambda i: (not plays[i].follow, -plays[i].power, i))
    return [plays[i].seat for i in order]


def _judge(state: State) -> State:
    plays = state.plays
    ranking = judgment_order(plays)
    skills = {p.move.skill: p.seat for p in plays if p.move.skill is not None}
    if KANSAI in skills:  # "you take 1st place whatever the judgment; everyone else moves down"
        ranking.remove(skills[KANSAI])
        ranking.insert(0, skills[KANSAI])
    if YOZAKURA in skills and ranking[0] == skills[YOZAKURA]:  # 1st and 2nd; the one pushed to 5th gets nothing
        ranking.insert(1, ranking[0])
        ranking = ranking[:4]
    n = state.num_players
    best_real = next(p for p in ranking if p < n)
    if CHARMONT in skills:
        next_start = skills[CHARMONT]
    else:
        next_start = ranking[0] if ranking[0] < n else best_real
    area = state.battlefield
    first = list(state.first)
    second = list(state.second)
    first[area], second[area] = ranking[0], ranking[1]
    state = evolve(state, first=tuple(first), second=tuple(second), ranking=tuple(ranking), next_start=next_start)
    fourth = ranking[3]
    base = area * 3
    present = [c for c in range(3) if state.cubes[base + c]]
    if fourth >= n and state.cubes[base + state.colour]:  # a proxy takes the Battlefield's colour first
        return _finish_trick(state, state.colour)
    if len(present) <= 1:  # one kind of resource (or none, in a built position): nothing to choose
        return _finish_trick(state, present[0] if present else None)
    chooser = fourth if fourth < n else best_real
    return evolve(state, phase=PICK, actor=chooser)


def _finish_trick(state: State, picked: int | None) -> State:
    """Hand out the Battlefield's resources (4th: `picked`, 3rd: the rest) and set up the next trick."""
    n = state.num_players
    area = state.battlefield
    cubes = list(state.cubes)
    resources = list(state.resources)
    third, fourth = state.ranking[2], state.ranking[3]
    if picked is not None:
        cubes[area * 3 + picked] -= 1
        if fourth < n:
            resources[fourth * 3 + picked] += 1
    for c in range(3):
        if third < n:  # a proxy's resources are removed from the game
            resources[third * 3 + c] += cubes[area * 3 + c]
        cubes[area * 3 + c] = 0
    trick = state.trick + 1
    start = state.next_start
    return evolve(
        state,
        cubes=tuple(cubes),
        resources=tuple(resources),
        trick=trick,
        phase=OVER if trick == TRICKS else AREA,
        actor=None if trick == TRICKS else start,
        start=start,
        battlefield=None,
        colour=None,
        plays=(),
        next_start=None,
    )
