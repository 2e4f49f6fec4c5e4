"""Hinode's playout kernel (see games.kernel): the rules of games.hinode.rules on a mutable copy of a state.

Only the search uses it, on determinizations it drew with `sample`. The moves are the engine's own interned
values; the conformance suite (tests/conformance/test_kernels.py) checks this kernel against the engine move for
move. What a playout never reads is not kept: the history of played cards, the removed cards, the seed.
"""

from __future__ import annotations

from games.hinode import rules
from games.hinode.data import (
    AREAS,
    BLUE,
    CHARMONT,
    HERO,
    HERO_POWER,
    KANSAI,
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
from games.hinode.scoring import breakdown, marked_areas
from games.hinode.state import AREA, OVER, PICK, PLAY, TRIBE, State

_TRIBE_MOVES = rules._TRIBE_MOVES
_AREA_MOVES = rules._AREA_MOVES
_PLAIN = rules._PLAIN
_VARIANTS = rules._VARIANTS
_DECLARED_VARIANTS = rules._DECLARED_VARIANTS
_TAKE = rules._TAKE
_skill_moves = rules._skill_moves
_ONE = tuple((p,) for p in range(PLAYERS))
_NOBODY = ()


class Playout:
    """A Hinode state as lists, changed in place. Field names follow `State` where they mean the same thing, so
    the engine's read-only helpers (skill moves, marked areas, the score breakdown) work on it as they are."""

    __slots__ = (
        "num_players", "advanced", "vp", "layout", "cubes", "tribes", "hands", "heroes", "resources", "first",
        "second", "skill_markers", "trick", "phase", "actor", "start", "battlefield", "colour", "plays",
        "hero_in_trick", "hero_last", "ranking", "next_start",
    )


class HinodeKernel:
    def playout_policy(self, ps: Playout, seat: int, moves: list, rng) -> object:
        return playout_policy(ps, seat, moves, rng.random)

    def load(self, state: State) -> Playout:
        ps = Playout()
        ps.num_players = state.num_players
        ps.advanced = state.advanced
        ps.vp = state.vp
        ps.layout = state.layout
        ps.cubes = list(state.cubes)
        ps.tribes = list(state.tribes)
        ps.hands = [list(hand) for hand in state.hands]
        ps.heroes = list(state.heroes)
        ps.resources = list(state.resources)
        ps.first = list(state.first)
        ps.second = list(state.second)
        ps.skill_markers = list(state.skill_markers)
        ps.trick = state.trick
        ps.phase = state.phase
        ps.actor = state.actor
        ps.start = state.start
        ps.battlefield = state.battlefield
        ps.colour = state.colour
        # (seat, move, power, follow) per card of the current trick
        ps.plays = [(p.seat, p.move, p.power, p.follow) for p in state.plays]
        ps.hero_in_trick = any(p.move.card == HERO for p in state.plays)
        ps.hero_last = state.hero_last
        ps.ranking = list(state.ranking)
        ps.next_start = state.next_start
        return ps

    def to_act(self, ps: Playout) -> tuple[int, ...]:
        actor = ps.actor
        return _NOBODY if actor is None else _ONE[actor]

    def legal_moves(self, ps: Playout, seat: int) -> list:
        if ps.actor != seat:
            return []
        phase = ps.phase
        if phase == PLAY:
            resources = ps.resources
            usable = (resources[seat * 3 + RED] > 0) + 2 * (resources[seat * 3 + BLUE] > 0)
            moves: list = []
            hand = ps.hands[seat]
            for card in hand:
                moves += _VARIANTS[card][usable]
            hero = ps.heroes[seat] and (ps.hero_last is None or not ps.hero_in_trick)
            if hero:
                moves += _DECLARED_VARIANTS[usable] if ps.colour is None else _VARIANTS[HERO][usable]
            if ps.advanced:
                moves += _skill_moves(ps, seat, (*hand, HERO) if hero else hand)
            return moves
        if phase == AREA:
            first, second = ps.first, ps.second
            return [_AREA_MOVES[a] for a in range(AREAS) if first[a] is None and second[a] is None]
        if phase == PICK:
            base = ps.battlefield * 3
            receiver = ps.ranking[3]
            cubes = ps.cubes
            return [_TAKE[c][receiver] for c in range(3) if cubes[base + c]]
        if phase == TRIBE:
            tribes = ps.tribes
            return [_TRIBE_MOVES[t] for t in range(4) if t not in tribes]
        return []

    def play(self, ps: Playout, seat: int, move) -> Playout:
        phase = ps.phase
        if phase == PLAY:
            _play(ps, seat, move)
        elif phase == AREA:
            area = move.area
            colour = NAWABARI_COLOUR[ps.layout[area]]
            ps.phase = PLAY
            ps.battlefield = area
            ps.colour = None if colour == WHITE else colour
        elif phase == PICK:
            _finish_trick(ps, move.colour)
        else:
            _choose_tribe(ps, seat, move.tribe)
        return ps

    def outcome(self, ps: Playout) -> tuple[list[int], list[int]]:
        totals, keys = [], []
        for p in range(ps.num_players):
            marked = marked_areas(ps, p)
            total = sum(v for _, v in breakdown(ps, p, marked))
            totals.append(total)
            keys.append((total, bin(marked).count("1")))  # the tie-break: most Areas with markers
        best = max(keys)
        return totals, [p for p, key in enumerate(keys) if key == best]


def _choose_tribe(ps: Playout, seat: int, tribe: int) -> None:
    tribes = ps.tribes
    tribes[seat] = tribe
    n = ps.num_players
    for step in range(1, n):
        nxt = (seat + step) % n
        if tribes[nxt] is None:
            ps.actor = nxt
            return
    left = [t for t in range(4) if t not in tribes]
    for proxy in range(n, PLAYERS):
        tribes[proxy] = left.pop(0)
    ps.phase = AREA
    ps.actor = ps.start


def _power(card: int, resource, colour: int) -> tuple[int, bool]:
    if card == HERO:
        power, follow = HERO_POWER, True
    else:
        power, follow = card % SUIT_SIZE + 1, card // SUIT_SIZE == colour
    if resource == RED:
        power = HERO_POWER - power
    elif resource == BLUE:
        follow = not follow
    return power, follow


def _play(ps: Playout, seat: int, move) -> None:
    card = move.card
    colour = ps.colour
    if card == HERO:
        ps.heroes[seat] = False
        ps.hero_last = seat
        ps.hero_in_trick = True
        if colour is None:
            colour = ps.colour = move.declare
    else:
        ps.hands[seat].remove(card)
        if colour is None:
            colour = ps.colour = card // SUIT_SIZE
    resource = move.resource
    if resource is not None:
        ps.resources[seat * 3 + resource] -= 1
    elif move.skill is not None:
        skill = move.skill
        resources = ps.resources
        resources[seat * 3 + move.pay] -= SKILL_COST[skill]
        if skill == SAMURAI:
            ps.skill_markers[seat] |= 1 << move.target_area
        elif skill == CHARMONT and move.target_seat is not None:
            resources[move.target_seat * 3 + move.target_colour] -= 1
            resources[seat * 3 + move.target_colour] += 1
    plays = ps.plays
    plays.append((seat, move, *_power(card, resource, colour)))
    nxt = (seat + 1) % PLAYERS
    n = ps.num_players
    hands = ps.hands
    while len(plays) < PLAYERS and nxt >= n:  # a proxy turns over the top card of its pile
        top = hands[nxt].pop(0)
        plays.append((nxt, _PLAIN[top], *_power(top, None, colour)))
        nxt = (nxt + 1) % PLAYERS
    ps.actor = nxt
    if len(plays) == PLAYERS:
        _judge(ps)


def _judge(ps: Playout) -> None:
    plays = ps.plays
    order = sorted(range(PLAYERS), key=lambda i: (not plays[i][3], -plays[i][2], i))
    ranking = [plays[i][0] for i in order]
    skills = {}
    for seat, move, _, _ in plays:
        if move.skill is not None:
            skills[move.skill] = seat
    if skills:
        if KANSAI in skills:
            ranking.remove(skills[KANSAI])
            ranking.insert(0, skills[KANSAI])
        if YOZAKURA in skills and ranking[0] == skills[YOZAKURA]:
            ranking.insert(1, ranking[0])
            del ranking[4:]
    n = ps.num_players
    best_real = next(p for p in ranking if p < n)
    if CHARMONT in skills:
        next_start = skills[CHARMONT]
    else:
        next_start = ranking[0] if ranking[0] < n else best_real
    area = ps.battlefield
    ps.first[area] = ranking[0]
    ps.second[area] = ranking[1]
    ps.ranking = ranking
    ps.next_start = next_start
    fourth = ranking[3]
    base = area * 3
    cubes = ps.cubes
    if fourth >= n and cubes[base + ps.colour]:
        _finish_trick(ps, ps.colour)
        return
    present = [c for c in range(3) if cubes[base + c]]
    if len(present) <= 1:
        _finish_trick(ps, present[0] if present else None)
        return
    ps.phase = PICK
    ps.actor = fourth if fourth < n else best_real


def _finish_trick(ps: Playout, picked) -> None:
    n = ps.num_players
    area = ps.battlefield
    cubes = ps.cubes
    resources = ps.resources
    third, fourth = ps.ranking[2], ps.ranking[3]
    base = area * 3
    if picked is not None:
        cubes[base + picked] -= 1
        if fourth < n:
            resources[fourth * 3 + picked] += 1
    for c in range(3):
        if third < n:
            resources[third * 3 + c] += cubes[base + c]
        cubes[base + c] = 0
    trick = ps.trick = ps.trick + 1
    ps.start = ps.next_start
    if trick == TRICKS:
        ps.phase = OVER
        ps.actor = None
    else:
        ps.phase = AREA
        ps.actor = ps.start
    ps.battlefield = None
    ps.colour = None
    ps.plays = []
    ps.hero_in_trick = False
    ps.next_start = None


EXPLORE = 0.25  # share of the policy's picks made uniformly at random (skills and resources come from these)


_SUIT = tuple(c // SUIT_SIZE for c in range(HERO)) + (None,)
_POWER = tuple(c % SUIT_SIZE + 1 for c in range(HERO)) + (HERO_POWER,)
_FOLLOW = 20  # a strength: 20 for following the colour, plus the power (judgment order, ties aside)


def playout_policy(ps: Playout, seat: int, moves: list, random_) -> object:
    """A cheap rule of thumb for the playouts, after the greedy player's first ideas: fight on the Area worth most;
    where 1st place is worth something take the lead as cheaply as possible (lead high), else dump the lowest
    card; a quarter of the picks, and every tribe and resource choice, stay uniformly random."""
    phase = ps.phase
    if phase == PLAY and random_() >= EXPLORE:
        wanted = ps.vp[2 * ps.layout[ps.battlefield]] > 0
        colour = ps.colour
        best = -1  # the strength to beat
        for played in ps.plays:
            strength = _FOLLOW * played[3] + played[2]
            if strength > best:
                best = strength
        pick = None
        pick_key = 1000
        for move in moves:
            if move.resource is not None or move.skill is not None:
                continue
            card = move.card
            if card == HERO:
                strength = _FOLLOW + HERO_POWER + 1  # a Hero is the last resort of a winner
            else:
                strength = (_FOLLOW if colour is None or _SUIT[card] == colour else 0) + _POWER[card]
            if not wanted:
                key = strength  # dump: the weakest card
            elif best < 0:
                key = -strength  # lead: the strongest card
            else:
                key = strength if strength > best else 100 + strength  # the cheapest winner, else the lowest
            if key < pick_key:
                pick, pick_key = move, key
        if pick is not None:
            return pick
    elif phase == AREA and random_() >= EXPLORE:
        vp, layout = ps.vp, ps.layout
        return max(moves, key=lambda m: vp[2 * layout[m.area]])
    return moves[int(random_() * len(moves))]


KERNEL = HinodeKernel()
