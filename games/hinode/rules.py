"""Hinode's rules, written once (games.base.Rules): setup, the legal moves and playing a move on the working state
(games.hinode.work) in place; proxies play themselves inside `play`. Scoring is games.hinode.scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from games.deal import shuffle
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
from games.hinode.moves import ChooseArea, ChooseTribe, PlayCard, TakeResource
from games.hinode.scoring import marked_areas, outcome
from games.hinode.state import AREA, OVER, PICK, PLAY, TRIBE, State
from games.hinode.work import Card, Work, acting, freeze, thaw, to_act
from games.tuples import with_item
from games.values import chance

__all__ = ["freeze", "legal_moves", "new_game", "outcome", "play", "thaw", "to_act", "why_illegal"]

# Moves are interned: the same move is the same object, so legality is an identity check in the common case.
_TRIBE_MOVES: Final = tuple(ChooseTribe(t) for t in range(4))
_AREA_MOVES: Final = tuple(ChooseArea(a) for a in range(AREAS))
_PLAIN: Final = tuple(PlayCard(c) for c in range(HERO + 1))
# by usable = has_red + 2 * has_blue
_RESOURCE_SETS: Final[tuple[tuple[int | None, ...], ...]] = ((None,), (None, RED), (None, BLUE), (None, RED, BLUE))
# card -> usable -> the plays of that card; and the start player's declaring Hero plays on the white Area
_VARIANTS: Final = tuple(
    tuple(tuple(_PLAIN[c] if r is None else PlayCard(c, resource=r) for r in rs) for rs in _RESOURCE_SETS)
    for c in range(HERO + 1)
)
_DECLARED_VARIANTS: Final = tuple(
    tuple(PlayCard(HERO, resource=r, declare=d) for d in range(3) for r in rs) for rs in _RESOURCE_SETS
)
_NO_TARGET: Final[tuple[int | None, int | None, int | None]] = (None, None, None)
_SKILL_MOVES: Final[dict[tuple, PlayCard]] = {}  # interned on first use; at most a few thousand
_TAKE: Final = tuple(tuple(TakeResource(c, p) for p in range(PLAYERS)) for c in range(3))


def new_game(num_players: int, advanced: bool, vp: tuple[int, ...], start: int, seed: int) -> State:
    """Lay out the Areas and cubes, deal as if four played; the start player then picks a tribe first."""
    rng = chance(seed, "setup")
    layout = list(range(NAWABARI_CARDS))
    shuffle(rng, layout)
    cube_bag = [c for c in range(3) for _ in range(12)]
    shuffle(rng, cube_bag)
    cubes = [0] * (AREAS * 3)
    for i, colour in enumerate(cube_bag):
        cubes[(i // 3) * 3 + colour] += 1
    deck = list(range(BATTLE_CARDS))
    shuffle(rng, deck)
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
        acting=acting(start),
    )


# --- legal moves ---------------------------------------------------------------------------------------------

def legal_moves(work: Work, seat: int) -> list[Any]:
    """Every legal move of `seat`, in a stable order (empty if it is not to act)."""
    actor = work.actor  # an int | None, compared as an int (see _card)
    if actor is None or actor != seat:
        return []
    phase = work.phase
    if phase == PLAY:
        resources = work.resources
        usable = (resources[seat * 3 + RED] > 0) + 2 * (resources[seat * 3 + BLUE] > 0)
        hand = work.hands[seat]
        moves: list[Any]
        if usable:
            moves = []
            for card in hand:
                moves += _VARIANTS[card][usable]
        else:  # a play per card (two in five of the calls): a list made at its size
            moves = [_PLAIN[card] for card in hand]
        hero = hero_playable(work, seat)
        if hero:
            # the start player's Hero on the white Area declares its colour
            moves += _DECLARED_VARIANTS[usable] if work.colour is None else _VARIANTS[HERO][usable]
        if work.advanced:
            moves += _skill_moves(work, seat, [*hand, HERO] if hero else hand)
        return moves
    if phase == AREA:
        first, second = work.first, work.second
        return [_AREA_MOVES[a] for a in range(AREAS) if first[a] is None and second[a] is None]
    if phase == PICK:
        receiver = work.ranking[3]
        return [_TAKE[c][receiver] for c in pickable(work)]
    if phase == TRIBE:
        tribes = work.tribes
        return [_TRIBE_MOVES[t] for t in range(4) if t not in tribes]
    return []


def pickable(work: Work) -> list[int]:
    """The resources the 4th place may take: the colours left on the Battlefield, in colour order (one move each,
    in that order)."""
    base = work.battlefield * 3  # type: ignore[operator]  # the pick follows a judged battle
    cubes = work.cubes
    return [c for c in range(3) if cubes[base + c]]


def hero_playable(work: Work, seat: int) -> bool:
    """Whether `seat` may play its Hero now: not spent, and no other Hero played this trick."""
    return work.heroes[seat] and not work.hero_in_trick


def plain_play(work: Work, card: int) -> PlayCard:
    """The play of `card` (a card of the hand, or the Hero where `hero_playable`) with no resource and no skill: the
    first of its plays in `legal_moves` (the start player's Hero on the white Area declares the first colour)."""
    if card == HERO and work.colour is None:
        return _DECLARED_VARIANTS[0][0]
    return _PLAIN[card]


def _skill_moves(work: Work, seat: int, hand: Sequence[int]) -> list[PlayCard]:
    tribe = work.tribes[seat]
    cost = SKILL_COST[tribe]  # type: ignore[index]  # a tribe is chosen before any card is played
    resources = work.resources
    pays = [c for c in range(3) if resources[seat * 3 + c] >= cost]
    if not pays:
        return []
    battlefield = work.battlefield
    targets: list[tuple[int | None, int | None, int | None]] = []  # (target_area, target_seat, target_colour)
    if tribe == KANSAI:
        mine = marked_areas(work.skill_markers, work.first, work.second, seat)
        if bin(mine & ADJACENT_MASK[battlefield]).count("1") >= 2:  # type: ignore[index]
            targets.append(_NO_TARGET)
    elif tribe == SAMURAI:
        mine = marked_areas(work.skill_markers, work.first, work.second, seat)
        targets += [(a, None, None) for a in ADJACENT[battlefield] if not mine >> a & 1]  # type: ignore[index]
    elif tribe == YOZAKURA:
        targets.append(_NO_TARGET)
    elif tribe == CHARMONT:
        for victim in range(work.num_players):
            if victim != seat:
                targets += [(None, victim, c) for c in range(3) if resources[victim * 3 + c]]
        if not targets:  # nothing to take: the skill still makes you the next start player
            targets.append(_NO_TARGET)
    moves = []
    for card in hand:
        declares = (0, 1, 2) if card == HERO and work.colour is None else (None,)
        for declare in declares:
            for pay in pays:
                for target in targets:
                    key = (card, tribe, pay, declare, target)
                    move = _SKILL_MOVES.get(key)
                    if move is None:
                        move = _SKILL_MOVES[key] = PlayCard(card, None, tribe, pay, *target, declare)
                    moves.append(move)
    return moves


def why_illegal(state: State, move: Any) -> str:
    expected = {TRIBE: ChooseTribe, AREA: ChooseArea, PLAY: PlayCard, PICK: TakeResource}.get(state.phase)
    if expected is None or not isinstance(move, expected):
        return f"now is the {state.phase} phase; {getattr(move, 'label', move)!r} is not a move of it"
    if isinstance(move, PlayCard):
        if move.card != HERO and move.card not in state.hands[state.actor]:  # type: ignore[index]
            return "that card is not in your hand"
        if move.card == HERO:
            return "your Hero is spent, or a Hero was already played this trick"
        return "you lack the resources, or the skill's condition or target does not hold"
    if isinstance(move, ChooseArea):
        return "that Area is already selected (it has a 1st or 2nd marker)"
    if isinstance(move, ChooseTribe):
        return "that tribe is taken"
    return "there is no such resource on the Battlefield"


# --- play ------------------------------------------------------------------------------------------------------

def play(work: Work, seat: int, move: Any) -> None:
    """Make `seat`'s legal `move`, and let every proxy after it play."""
    # Each move named as its phase's class: compiled, its field is then a native read, not a Python attribute lookup.
    phase = work.phase
    if phase == PLAY:
        _play_card(work, seat, move)
    elif phase == AREA:
        chosen: ChooseArea = move
        area = chosen.area
        colour = NAWABARI_COLOUR[work.layout[area]]
        work.phase = PLAY
        work.battlefield = area
        work.colour = None if colour == WHITE else colour
    elif phase == PICK:
        taken: TakeResource = move
        _finish_trick(work, taken.colour)
    else:
        tribe: ChooseTribe = move
        _choose_tribe(work, seat, tribe.tribe)


def _choose_tribe(work: Work, seat: int, tribe: int) -> None:
    tribes = work.tribes = with_item(work.tribes, seat, tribe)
    n = work.num_players
    for step in range(1, n):
        nxt = (seat + step) % n
        if tribes[nxt] is None:
            work.actor = nxt
            return
    left = [t for t in range(4) if t not in tribes]
    # "proxies get the remaining tribes"
    work.tribes = tribes[:n] + tuple(left[: PLAYERS - n])
    work.phase = AREA
    work.actor = work.start


def _card(seat: int, move: PlayCard, colour: int | None) -> Card:
    """The card `move` plays on the table: its battle power and whether it follows the Battlefield's `colour`."""
    card = move.card
    if card == HERO:
        power, follow = HERO_POWER, True  # "Hero cards are multi-suit and always count as Follow"
    else:
        power, follow = card % SUIT_SIZE + 1, colour is not None and card // SUIT_SIZE == colour
    resource = move.resource  # an int | None, compared as an int (None == int is the slowest compare compiled)
    if resource is not None:
        if resource == RED:
            power = HERO_POWER - power  # "14 minus the current value"; the Hero becomes 0
        elif resource == BLUE:
            follow = not follow
    return (seat, move, power, follow)


def _play_card(work: Work, seat: int, move: PlayCard) -> None:
    card = move.card
    colour = work.colour
    if card == HERO:
        work.heroes = with_item(work.heroes, seat, False)
        work.hero_last = seat
        work.hero_in_trick = True
        if colour is None:
            colour = work.colour = move.declare
    else:
        hand = list(work.hands[seat])  # cheaper than joining two slices around the card
        hand.remove(card)
        work.hands[seat] = tuple(hand)
        if colour is None:  # "treated as the same color as the suit played by the start player"
            colour = work.colour = card // SUIT_SIZE
    resource = move.resource
    if resource is not None:  # `x[i] = x[i] - ...`, not `-=`: compiled, an item's `-=` is a Python operation
        resources = work.resources
        resources[seat * 3 + resource] = resources[seat * 3 + resource] - 1
    elif move.skill is not None:
        skill = move.skill
        resources = work.resources
        pay = seat * 3 + move.pay  # type: ignore[operator]  # a skill names what it pays
        resources[pay] = resources[pay] - SKILL_COST[skill]
        if skill == SAMURAI:
            work.skill_markers = with_item(work.skill_markers, seat,
                                           work.skill_markers[seat] | 1 << move.target_area)  # type: ignore[operator]
        elif skill == CHARMONT and move.target_seat is not None:
            taken = move.target_seat * 3 + move.target_colour  # type: ignore[operator]
            given = seat * 3 + move.target_colour  # type: ignore[operator]
            resources[taken] = resources[taken] - 1
            resources[given] = resources[given] + 1
    plays = work.plays
    fresh = work.fresh
    # `Any`: compiled, a `Card` is a C struct, boxed into a new tuple at each list it joins; boxed once, the two
    # lists share it
    played: Any = _card(seat, move, colour)
    plays.append(played)
    fresh.append(played)
    nxt = (seat + 1) % PLAYERS
    n = work.num_players
    hands = work.hands
    while len(plays) < PLAYERS and nxt >= n:  # a proxy turns over the top card of its pile
        pile = hands[nxt]
        hands[nxt] = pile[1:]
        played = _card(nxt, _PLAIN[pile[0]], colour)  # boxed once, as above
        plays.append(played)
        fresh.append(played)
        nxt = (nxt + 1) % PLAYERS
    work.actor = nxt
    if len(plays) == PLAYERS:
        _judge(work)


def judgment_order(plays: list[Card]) -> list[int]:
    """Positions best first: Follow before Not Follow, then by power, ties to who acted earlier (the sort is
    stable)."""
    order: list[int] = []
    keys: list[int] = []  # beside `order`: Follow and power, highest first
    for seat, _, power, follow in plays:  # an insertion sort of four, past the strictly weaker only (stable)
        key = power + 100 * follow
        at = len(order)
        while at > 0 and keys[at - 1] < key:
            at -= 1
        order.insert(at, seat)
        keys.insert(at, key)
    return order


def _judge(work: Work) -> None:
    plays = work.plays
    ranking = judgment_order(plays)
    skills: dict[int, int] = {}
    for seat, move, _, _ in plays:
        if move.skill is not None:
            skills[move.skill] = seat
    if skills:
        if KANSAI in skills:  # "you take 1st place whatever the judgment; everyone else moves down"
            ranking.remove(skills[KANSAI])
            ranking.insert(0, skills[KANSAI])
        if YOZAKURA in skills and ranking[0] == skills[YOZAKURA]:  # 1st and 2nd; the one pushed to 5th gets nothing
            ranking.insert(1, ranking[0])
            del ranking[4:]
    n = work.num_players
    best_real = ranking[0]  # the best placed real seat (proxies are seats n..3)
    for p in ranking:
        if p < n:
            best_real = p
            break
    if CHARMONT in skills:
        next_start = skills[CHARMONT]
    else:
        next_start = ranking[0] if ranking[0] < n else best_real
    area = work.battlefield
    assert area is not None, "judged on its battlefield"  # and an int index compiled, not a Python object
    work.first[area] = ranking[0]
    work.second[area] = ranking[1]
    work.ranking = tuple(ranking)
    work.next_start = next_start
    fourth = ranking[3]
    base = area * 3
    cubes = work.cubes
    if fourth >= n and cubes[base + work.colour]:  # type: ignore[operator]  # a proxy takes the Battlefield's colour first
        _finish_trick(work, work.colour)
        return
    present = [c for c in range(3) if cubes[base + c]]
    if len(present) <= 1:  # one kind of resource (or none, in a built position): nothing to choose
        _finish_trick(work, present[0] if present else None)
        return
    work.phase = PICK
    work.actor = fourth if fourth < n else best_real


def _finish_trick(work: Work, picked: int | None) -> None:
    """Hand out the Battlefield's resources (4th: `picked`, 3rd: the rest) and set up the next trick."""
    n = work.num_players
    cubes = list(work.cubes)
    resources = work.resources
    third, fourth = work.ranking[2], work.ranking[3]
    base = work.battlefield * 3  # type: ignore[operator]
    if picked is not None:  # `x[i] = x[i] + ...`, not `+=`: compiled, an item's `+=` is a Python operation
        cubes[base + picked] = cubes[base + picked] - 1
        if fourth < n:
            resources[fourth * 3 + picked] = resources[fourth * 3 + picked] + 1
    for c in range(3):
        if third < n:  # a proxy's resources are removed from the game
            resources[third * 3 + c] = resources[third * 3 + c] + cubes[base + c]
        cubes[base + c] = 0
    work.cubes = tuple(cubes)
    trick = work.trick = work.trick + 1
    work.start = work.next_start  # type: ignore[assignment]  # set by the judgment
    if trick == TRICKS:
        work.phase = OVER
        work.actor = None
    else:
        work.phase = AREA
        work.actor = work.start
    work.battlefield = None
    work.colour = None
    work.plays = []
    work.hero_in_trick = False
    work.next_start = None
