"""Naishi's playout kernel (see games.kernel): the turn of games.naishi.rules on a mutable copy of a state.

Only the search uses it, on determinizations it drew with `sample`. The moves are the engine's own values, in the
engine's order; tests/conformance/test_kernels.py checks it against the engine move for move. What a playout never
reads is not kept: the discard pile, who knows what of each Hand, who declared the end.
"""

from __future__ import annotations

from itertools import product

from games.base import chance
from games.naishi.data import (
    ADVISOR,
    BANNER,
    COPIABLE,
    FORT,
    HAND_MOUNTAINS,
    HORSEMAN,
    MONK,
    MOUNTAIN,
    NAISHI,
    NINJA,
    PILES,
    RICE,
    RONIN,
    RONIN_TYPES,
    SENTINEL,
    TORII,
)
from games.naishi.moves import (
    DECREE_SPACE,
    DISCARD_SPACES,
    SWITCH_SPACES,
    DeclareEnd,
    Decree,
    Develop,
    DiscardRiver,
    EndTurn,
    Give,
    Recall,
    Switch,
)
from games.naishi.rules import (
    DECLARE_END,
    DECREES,
    DEVELOPS,
    DISCARDS,
    EMISSARIES,
    END_TURN,
    OWN_SWITCHES,
    PAIRS,
    RIVER_SWITCHES,
)
from games.naishi.scoring import ADVISOR_POINTS, RONIN_POINTS, score_territory
from games.naishi.state import State

_GIVES: dict[int, Give] = {}
_RECALLS: dict[tuple[int, ...], Recall] = {}
_MASKS = range(1 << PILES)  # bit p: River pile p still has cards


def _open(mask: int, p: int) -> bool:
    return bool(mask >> p & 1)


# By the mask of non-empty piles, in the engine's order: the developments, the switches (River pairs, then your
# own), the River discards.
_DEVELOPS = tuple(
    tuple(m for row in ("hand", "line") for p, m in enumerate(DEVELOPS[row]) if _open(mask, p)) for mask in _MASKS
)
_SWITCHES = tuple(
    tuple(RIVER_SWITCHES[(a, b)] for a, b in PAIRS if _open(mask, a) and _open(mask, b)) + OWN_SWITCHES
    for mask in _MASKS
)
_ALL_OPEN = (1 << PILES) - 1
_EMPTY_PILES = tuple(PILES - bin(mask).count("1") for mask in _MASKS)
_DISCARDS = tuple(tuple(DISCARDS[(a, b)] for a, b in PAIRS if _open(mask, a) and _open(mask, b)) for mask in _MASKS)


class Playout:
    """A Naishi state as lists, changed in place (River piles top card first, as in `State`)."""

    __slots__ = (
        "seed", "first", "phase", "turn", "developed", "court_used", "final_turn", "offers", "gifts", "hands",
        "lines", "piles", "court", "open", "river_cards",
    )


def _give_move(card: int) -> Give:
    move = _GIVES.get(card)
    if move is None:
        move = _GIVES[card] = Give(card)
    return move


def _recall_move(spaces: tuple[int, ...]) -> Recall:
    move = _RECALLS.get(spaces)
    if move is None:
        move = _RECALLS[spaces] = Recall(spaces)
    return move


class NaishiKernel:
    # The search draws the opponent's moves in its tree with the playout policy on each determinization, so that
    # the opponent plays the Hand it is dealt there (ai.ismcts._iterate); docs/ai.md has the arena runs.
    policy_opponents = True

    def playout_policy(self, ps: Playout, seat: int, moves: list, rng) -> object:
        return playout_policy(ps, seat, moves, rng.random)

    def load(self, state: State) -> Playout:
        ps = Playout()
        ps.seed = state.seed
        ps.first = state.first
        ps.phase = state.phase
        ps.turn = state.turn
        ps.developed = state.developed
        ps.court_used = state.court_used
        ps.final_turn = state.final_turn
        ps.offers = state.offers
        ps.gifts = list(state.gifts)
        ps.hands = [list(hand) for hand in state.hands]
        ps.lines = [list(line) for line in state.lines]
        ps.piles = [list(pile) for pile in state.piles]
        ps.court = list(state.court)
        ps.open = sum(1 << p for p, pile in enumerate(state.piles) if pile)
        ps.river_cards = sum(map(len, state.piles))
        return ps

    def to_act(self, ps: Playout) -> tuple[int, ...]:
        phase = ps.phase
        if phase == "turn":
            return (ps.turn,)
        if phase == "gift":
            return tuple(s for s in (0, 1) if ps.gifts[s] is None)
        return ()

    def legal_moves(self, ps: Playout, seat: int) -> list:
        phase = ps.phase
        if phase == "gift":
            if ps.gifts[seat] is not None:
                return []
            return [_give_move(card) for card in sorted(set(ps.offers[seat]))]
        if phase != "turn" or seat != ps.turn:
            return []
        if ps.developed:
            moves = _additional(ps, seat, False)
            moves.append(END_TURN)
            return moves
        if ps.court_used:
            return list(_DEVELOPS[ps.open])
        court = ps.court
        main = list(_DEVELOPS[ps.open])
        mine = court.count(seat)
        if court[DECREE_SPACE] is None and mine < EMISSARIES:
            main += DECREES
        if mine:
            spaces = tuple(s for s in range(DECREE_SPACE) if court[s] == seat)
            main += [_recall_move((s,)) for s in spaces]
            if len(spaces) == 2:
                main.append(_recall_move(spaces))
        if ps.final_turn is None and ps.open != _ALL_OPEN:
            main.append(DECLARE_END)
        if not main:
            return [END_TURN]
        return main + _additional(ps, seat, True)

    def play(self, ps: Playout, seat: int, move) -> Playout:
        kind = type(move)
        if kind is Develop:
            pos = move.pos
            pile = ps.piles[pos]
            row = ps.hands[seat] if move.row == "hand" else ps.lines[seat]
            row[pos] = pile.pop(0)
            ps.river_cards -= 1
            if not pile:
                ps.open &= ~(1 << pos)
            ps.developed = True
            if ps.court_used or not _additional(ps, seat, False):
                _end_turn(ps)
        elif kind is Switch or kind is DiscardRiver:
            court = ps.court
            spaces = SWITCH_SPACES if kind is Switch else DISCARD_SPACES
            court[next(s for s in spaces if court[s] is None)] = seat
            ps.court_used = True
            a, b = move.a, move.b
            if kind is DiscardRiver:
                piles = ps.piles
                del piles[a][0]
                del piles[b][0]
                ps.river_cards -= 2
                if not piles[a]:
                    ps.open &= ~(1 << a)
                if not piles[b]:
                    ps.open &= ~(1 << b)
            elif move.kind == "river":
                pa, pb = ps.piles[a], ps.piles[b]
                pa[0], pb[0] = pb[0], pa[0]
            elif move.kind == "line":
                line = ps.lines[seat]
                line[a], line[b] = line[b], line[a]
            elif move.kind == "hand":
                hand = ps.hands[seat]
                hand[a], hand[b] = hand[b], hand[a]
            else:  # column
                hand, line = ps.hands[seat], ps.lines[seat]
                hand[a], line[a] = line[a], hand[a]
            if ps.developed:
                _end_turn(ps)
        elif kind is Decree:
            ps.court[DECREE_SPACE] = seat
            ps.court_used = True
            rows = ps.hands if move.row == "hand" else ps.lines
            p = move.pos
            rows[0][p], rows[1][p] = rows[1][p], rows[0][p]
            _end_turn(ps)
        elif kind is Recall:
            for s in move.spaces:
                ps.court[s] = None
            _end_turn(ps)
        elif kind is DeclareEnd:
            ps.final_turn = 1 - seat
            _end_turn(ps)
        elif kind is EndTurn:
            _end_turn(ps)
        else:
            _give(ps, seat, move.card)
        return ps

    def outcome(self, ps: Playout) -> tuple[list[int], tuple[int, ...]]:
        keys = [territory_key(ps.lines[s], ps.hands[s]) for s in (0, 1)]
        winners = (0, 1) if keys[0] == keys[1] else ((0,) if keys[0] > keys[1] else (1,))
        return [keys[0][0], keys[1][0]], winners


# The territory as 10 cells: the Line's 5 (0..4) above the Hand's 5 (5..9).
_NEIGHBOURS = tuple(
    tuple([(i + 5) % 10] + ([i - 1] if i % 5 else []) + ([i + 1] if i % 5 != 4 else [])) for i in range(10)
)
_RONIN_TYPES = RONIN_TYPES
_COPIABLE = frozenset(COPIABLE)


def territory_key(line: list[int], hand: list[int]) -> tuple[int, int]:
    """(total, colours) of a territory, as `scoring.score_territory` finds them (its Ninjas copying what scores
    best), without the breakdown; a territory without a full Hand (before the gifts) goes to the engine's."""
    if len(hand) != 5 or len(line) != 5:
        best = score_territory(line, hand)
        return best.total, best.colours
    cells = line + hand
    if NINJA not in cells:
        return _grid_total(cells, sum(1 for card in set(cells) if card in _RONIN_TYPES)), len(set(cells))
    real_types = sum(1 for card in set(cells) if card in _RONIN_TYPES)
    ninjas = [i for i, card in enumerate(cells) if card == NINJA]
    options = sorted({card for card in cells if card in _COPIABLE})
    if not options:  # nothing to copy: the Ninjas score nothing and show no colour
        rest = [card if card != NINJA else None for card in cells]
        return _grid_total(rest, real_types), len({card for card in rest if card is not None})
    best = None
    for choice in product(options, repeat=len(ninjas)):
        for i, copy in zip(ninjas, choice, strict=True):
            cells[i] = copy
        key = (_grid_total(cells, real_types), len(set(cells)))
        if best is None or key > best:
            best = key
    return best


def _grid_total(cells: list, real_types: int) -> int:
    """The total of `_score_grid` on 10 cells (Ninjas already replaced; None: an empty cell)."""
    counts = [0] * 12
    for card in cells:
        if card is not None:
            counts[card] += 1
    total = 0
    mountains = counts[MOUNTAIN]
    if mountains:
        total += 5 if mountains == 1 else -5
    torii = counts[TORII]
    if torii == 1:
        total -= 5
    elif torii >= 3:
        total += 30
    banners = cells[:5].count(BANNER)
    if banners:
        total += 3 if banners == 1 else 8
    if counts[RICE] >= 2:
        total += _rice(cells)
    if counts[RONIN]:
        total += counts[RONIN] * RONIN_POINTS.get(real_types, 0)
    for i, card in enumerate(cells):
        if card is None or card == MOUNTAIN or card == TORII or card == BANNER or card == RICE or card == RONIN:
            continue
        if card == NAISHI:
            if i == 2:
                total += 12
            elif i == 7:
                total += 8
        elif card == ADVISOR:
            total += ADVISOR_POINTS[i % 5] + 4 * sum(1 for j in _NEIGHBOURS[i] if cells[j] == NAISHI)
        elif card == MONK:
            total += (5 if i >= 5 else 0) + 2 * sum(1 for j in _NEIGHBOURS[i] if cells[j] == TORII)
        elif card == HORSEMAN:
            if i >= 5:
                total += 13 if cells[i - 5] == BANNER else 3
        elif card == FORT:
            if i % 5 in (0, 4):
                total += 6
        elif card == SENTINEL:
            near = [cells[j] for j in _NEIGHBOURS[i]]
            total += (0 if SENTINEL in near else 3) + 4 * near.count(FORT)
    return total


def _rice(cells: list) -> int:
    """Rice fields: 10, 20 or 30 points per group of 2, 3 or 4 and more."""
    points = 0
    seen = 0
    for start, card in enumerate(cells):
        if card != RICE or seen >> start & 1:
            continue
        seen |= 1 << start
        pending, size = [start], 0
        while pending:
            i = pending.pop()
            size += 1
            for j in _NEIGHBOURS[i]:
                if cells[j] == RICE and not seen >> j & 1:
                    seen |= 1 << j
                    pending.append(j)
        points += 10 if size == 2 else 20 if size == 3 else 30 if size >= 4 else 0
    return points


def _additional(ps: Playout, seat: int, before_develop: bool) -> list:
    """As rules.additional_moves: an Emissary on a free space; before developing, a development stays possible."""
    court = ps.court
    if ps.court_used or court.count(seat) >= EMISSARIES:
        return []
    mask = ps.open
    if before_develop and not mask:
        return []
    moves: list = list(_SWITCHES[mask]) if court[0] is None or court[1] is None or court[2] is None else []
    if (court[3] is None or court[4] is None) and (not before_develop or ps.river_cards > 2):
        moves += _DISCARDS[mask]
    return moves


def _end_turn(ps: Playout) -> None:
    player = ps.turn
    if ps.final_turn == player:
        _game_over(ps)
        return
    if ps.final_turn is None and _EMPTY_PILES[ps.open] >= 2:
        if player != ps.first:
            _game_over(ps)
            return
        ps.final_turn = 1 - player
    ps.turn = 1 - player
    ps.developed = False
    ps.court_used = False


def _game_over(ps: Playout) -> None:
    ps.phase = "over"
    ps.developed = False
    ps.court_used = False


def _give(ps: Playout, seat: int, card: int) -> None:
    gifts = ps.gifts
    gifts[seat] = card
    if gifts[0] is None or gifts[1] is None:
        return
    for s in (0, 1):
        kept = list(ps.offers[s])
        kept.remove(gifts[s])
        hand = [MOUNTAIN] * HAND_MOUNTAINS + kept + [gifts[1 - s]]
        chance(ps.seed, "shuffle", s).shuffle(hand)
        ps.hands[s] = hand
    ps.phase = "turn"
    ps.turn = ps.first
    ps.offers = ((), ())


EXPLORE = 0.2  # share of the policy's picks made uniformly at random (court actions, decrees, the end come from these)


def _cell_values() -> tuple[tuple[float, ...], ...]:
    """What a card is worth on each of the 10 cells by itself (Line 0..4, Hand 5..9): the scoring's fixed parts,
    with rough averages for what depends on the neighbours."""
    table = []
    for card in range(12):
        row = []
        for i in range(10):
            col, in_hand = i % 5, i >= 5
            if card == MOUNTAIN:
                value = -3.0  # two or more cost 5 points: covering them pays
            elif card == NAISHI:
                value = 12.0 if i == 2 else 8.0 if i == 7 else 0.0
            elif card == ADVISOR:
                value = ADVISOR_POINTS[col] + 1.0
            elif card == MONK:
                value = 5.0 if in_hand else 0.5
            elif card == HORSEMAN:
                value = 3.0 if in_hand else 0.0
            elif card == FORT:
                value = 6.0 if col in (0, 4) else 0.0
            elif card == SENTINEL:
                value = 3.0
            elif card == BANNER:
                value = 0.0 if in_hand else 3.0
            elif card == RICE:
                value = 2.0
            elif card == TORII:
                value = 0.0  # by the count: _torii_delta
            else:  # Ronin, Ninja
                value = 3.0
            row.append(value)
        table.append(tuple(row))
    return tuple(table)


_VALUE = _cell_values()
_TORII_TOTAL = (0, -5, 0, 30, 30, 30, 30, 30, 30, 30, 30)


def playout_policy(ps: Playout, seat: int, moves: list, random_) -> object:
    """A cheap rule of thumb for the playouts: on a turn, develop where the card adds most to its cell (a fixed
    table of what each card is worth where, plus the Torii count, the Rice next door and the Banner above a
    Horseman), then end the turn; a fifth of the picks, and the gifts, stay uniformly random."""
    if ps.phase != "turn" or random_() < EXPLORE:
        return moves[int(random_() * len(moves))]
    if ps.developed:
        return moves[-1]  # ending the turn: random switches after developing mostly undo good placements
    line, hand = ps.lines[seat], ps.hands[seat]
    piles = ps.piles
    value = _VALUE
    best = None
    best_value = -1000.0
    torii = -1
    for move in moves:
        if type(move) is not Develop:
            break  # the developments come first
        pos = move.pos
        card = piles[pos][0]
        if move.row == "hand":
            row, cell = hand, pos + 5
        else:
            row, cell = line, pos
        old = row[pos]
        gain = value[card][cell] - value[old][cell] + random_()
        if card == TORII or old == TORII:
            if torii < 0:
                torii = line.count(TORII) + hand.count(TORII)
            after = torii + (card == TORII) - (old == TORII)
            gain += _TORII_TOTAL[after] - _TORII_TOTAL[torii]
        if card == RICE:
            for j in _NEIGHBOURS[cell]:
                if (line[j] if j < 5 else hand[j - 5]) == RICE:
                    gain += 5.0
        if card == HORSEMAN and cell >= 5 and line[pos] == BANNER:
            gain += 10.0
        elif card == BANNER and cell < 5 and hand[pos] == HORSEMAN:
            gain += 10.0
        if gain > best_value:
            best, best_value = move, gain
    if best is None:
        return moves[int(random_() * len(moves))]
    return best


KERNEL = NaishiKernel()
