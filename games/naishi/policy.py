"""Naishi's playout policy: the search's cheap model of a player (strategy, not rules: it reads the working state
and the scoring's constants, and picks among the legal moves it is given)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from games import search_rules
from games.base import Move, PlayoutPolicy
from games.naishi import rules
from games.naishi.data import ADVISOR, BANNER, HORSEMAN, MONK, MOUNTAIN, NAMES, NINJA, RICE, RONIN, TORII
from games.naishi.moves import Develop, Switch
from games.naishi.rules import DECLARE_END, DEVELOPMENTS, Work, may_declare_end
from games.naishi.scoring import (
    CELLS,
    EMPTY,
    HORSEMAN_BANNER_BONUS,
    NEIGHBOURS,
    TORII_POINTS,
    WIDTH,
    grid_points,
    territory_total,
)
from games.naishi.state import State

# share of the policy's picks made uniformly at random (court actions, decrees, the end come from these)
EXPLORE: Final = 0.2
RICE_NEIGHBOUR: Final = 5.0  # half a pair's points, for each Rice field next to where one lands
# Declare the end (where the rules allow it) with this lead or more, by the exact scores of the territories as they
# lie in the playout: the greedy player declares with the same lead over its estimate of the opponent's
# (greedy.DECLARE_MARGIN), and a model that never declares let the search end games it then lost (docs/ai.md).
DECLARE_LEAD: Final = 5
RIVER_SWITCH_COST: Final = 1  # on the last turn, switch River cards only to develop something better by more

# The cards that score by their count or their company, worth a rough guess anywhere (the Torii by the count, in
# `choose`); the others are worth what the scoring gives them alone on a cell, plus a rough average of what their
# neighbours add (in the Line, in the Hand).
_GUESSED: Final = {
    MOUNTAIN: -3.0,  # two or more cost 5 points: covering them pays
    RICE: 2.0,
    TORII: 0.0,
    RONIN: 3.0,
    NINJA: 3.0,
}
_NEARBY: Final = {ADVISOR: (1.0, 1.0), MONK: (0.5, 0.0)}


def _cell_values() -> tuple[tuple[float, ...], ...]:
    """What each card is worth on each of the 10 cells (Line 0..4, Hand 5..9) by itself: its points alone there,
    with a rough average for what depends on the rest of the territory."""
    table = []
    for card in range(len(NAMES)):
        row = []
        for cell in range(CELLS):
            if card in _GUESSED:
                row.append(_GUESSED[card])
                continue
            alone = [EMPTY] * CELLS
            alone[cell] = card
            row.append(float(sum(grid_points(alone, 0))) + _NEARBY.get(card, (0.0, 0.0))[cell >= WIDTH])
        table.append(tuple(row))
    return tuple(table)


_VALUE: Final = _cell_values()

# (position, cell) of each development the rules list first, by the mask of open River piles (rules.DEVELOPMENTS):
# reading `move.pos` and `move.row` instead (attributes of an interpreted dataclass) cost a compiled playout more
# than the rest of the loop's body.
def _spot(move: Develop) -> tuple[int, int]:
    """Where a development lands: the River position its card comes from, and its cell (Line 0..4, Hand 5..9)."""
    return move.pos, move.pos + WIDTH if move.row == "hand" else move.pos


_SPOTS: Final = tuple(tuple(_spot(move) for move in developments) for developments in DEVELOPMENTS)


def choose(work: Work, seat: int, moves: Sequence[Move], random_: Callable[[], float]) -> Move:
    """A cheap rule of thumb for the playouts: on a turn, develop where the card adds most to its cell (a fixed
    table of what each card is worth where, plus the Torii count, the Rice next door and the Banner above a
    Horseman), then end the turn; a fifth of the picks, and the gifts, stay uniformly random. With a lead of
    DECLARE_LEAD points it declares the end; its last turn is planned by the exact scores (`_last_turn`)."""
    if work.phase != "turn":
        return moves[int(random_() * len(moves))]
    final = work.final_turn  # an int | None: compared as an int once it is one (None == int is a slow compare)
    if final is not None and final == seat:
        return _last_turn(work, seat, moves)
    if not work.developed and final is None and _leads(work, seat, moves):
        return DECLARE_END
    if random_() < EXPLORE:
        return moves[int(random_() * len(moves))]
    if work.developed:
        return moves[-1]  # ending the turn: random switches after developing mostly undo good placements
    line, hand = work.lines[seat], work.hands[seat]
    piles = work.piles
    value = _VALUE
    listed, spots = DEVELOPMENTS[work.open], _SPOTS[work.open]  # the moves are the rules' (else: by their fields)
    known = len(listed)
    best = None
    best_value = -1000.0
    torii = -1
    for i, move in enumerate(moves):
        if i < known and move is listed[i]:
            pos, cell = spots[i]
        elif type(move) is Develop:
            pos, cell = _spot(move)
        else:
            break  # the developments come first
        card = piles[pos][0]
        old = hand[pos] if cell >= WIDTH else line[pos]
        gain = value[card][cell] - value[old][cell] + random_()
        if card == TORII or old == TORII:
            if torii < 0:  # counted by a loop: compiled, `list.count` compares each card as a Python object
                torii = 0
                for c in line:
                    if c == TORII:
                        torii += 1
                for c in hand:
                    if c == TORII:
                        torii += 1
            after = torii + (card == TORII) - (old == TORII)
            gain += TORII_POINTS[after] - TORII_POINTS[torii]
        if card == RICE:
            for j in NEIGHBOURS[cell]:
                if (line[j] if j < WIDTH else hand[j - WIDTH]) == RICE:
                    gain += RICE_NEIGHBOUR
        if card == HORSEMAN and cell >= WIDTH and line[pos] == BANNER:
            gain += HORSEMAN_BANNER_BONUS
        elif card == BANNER and cell < WIDTH and hand[pos] == HORSEMAN:
            gain += HORSEMAN_BANNER_BONUS
        if gain > best_value:
            best, best_value = move, gain
    if best is None:
        return moves[int(random_() * len(moves))]
    return best


def _leads(work: Work, seat: int, moves: Sequence[Move]) -> bool:
    """Whether the end may be declared now and `seat` leads by DECLARE_LEAD points or more."""
    if not may_declare_end(work):
        return False  # the moves need not be looked through
    for move in moves:
        if move is DECLARE_END:
            lines, hands = work.lines, work.hands
            mine = territory_total(lines[seat], hands[seat])
            return mine >= territory_total(lines[1 - seat], hands[1 - seat]) + DECLARE_LEAD
    return False


def _last_turn(work: Work, seat: int, moves: Sequence[Move]) -> Move:
    """The game's last turn, played as the greedy player plays it: no move after it to explore for, so the move
    that starts the best plan by the exact score. Before developing: the best development, or a River switch
    that opens a better one; after developing: the switch of its own cards that scores most, if any gains, else
    the end of the turn. A Decree, a Recall or a River discard is not weighed: the model keeps to developing, as
    the greedy player mostly does."""
    line, hand = list(work.lines[seat]), list(work.hands[seat])
    best: Move = moves[-1]  # after developing: the end of the turn
    if work.developed:
        best_value = territory_total(line, hand)
        for move in moves:
            if type(move) is not Switch or move.kind == "river":
                continue
            value = _switched(line, hand, move.kind, move.a, move.b)
            if value > best_value:
                best, best_value = move, value
        return best
    piles = work.piles
    listed, spots = DEVELOPMENTS[work.open], _SPOTS[work.open]  # as in `choose`
    known = len(listed)
    best_value = -1000
    for i, move in enumerate(moves):
        if type(move) is Develop:
            pos, cell = spots[i] if i < known and move is listed[i] else _spot(move)
            value = _developed(line, hand, cell >= WIDTH, pos, piles[pos][0])
        elif type(move) is Switch and move.kind == "river":
            a, b = move.a, move.b
            value = max(
                _developed(line, hand, False, a, piles[b][0]),
                _developed(line, hand, True, a, piles[b][0]),
                _developed(line, hand, False, b, piles[a][0]),
                _developed(line, hand, True, b, piles[a][0]),
            ) - RIVER_SWITCH_COST
        else:
            continue
        if value > best_value:
            best, best_value = move, value
    return best


def _developed(line: list[int], hand: list[int], in_hand: bool, pos: int, card: int) -> int:
    """The total with `card` developed at `pos` of the Hand (or the Line); the lists are left as they were."""
    cards = hand if in_hand else line
    old = cards[pos]
    cards[pos] = card
    value = territory_total(line, hand)
    cards[pos] = old
    return value


def _switched(line: list[int], hand: list[int], kind: str, a: int, b: int) -> int:
    """The total after switching two of the seat's own cards ("line", "hand" or "column" a); the lists are left
    as they were."""
    if kind == "column":
        line[a], hand[a] = hand[a], line[a]
        value = territory_total(line, hand)
        line[a], hand[a] = hand[a], line[a]
        return value
    cards = line if kind == "line" else hand
    cards[a], cards[b] = cards[b], cards[a]
    value = territory_total(line, hand)
    cards[a], cards[b] = cards[b], cards[a]
    return value


# The search draws the opponent's moves in its tree with this policy on each determinization, so that the opponent
# plays the Hand it is dealt there (ai.ismcts._iterate); docs/ai.md has the arena runs.
class Search(search_rules.SearchRules):
    """Naishi's rules and this playout policy, for the compiled search's loop and the
    checked engine (games/search_rules.py)."""

    def thaw(self, state: Any) -> Any:
        return rules.thaw(state)

    def freeze(self, work: Any) -> Any:
        return rules.freeze(work)

    def freeze_after(self, work: Any, before: Any, seat: int, move: Move) -> Any:
        return rules.freeze_after(work, before, rules.written(seat, move))

    def to_act(self, work: Any) -> tuple[int, ...]:
        return rules.to_act(work)

    def acting(self, state: Any) -> tuple[int, ...]:
        frozen: State = state
        return frozen.acting

    def legal_moves(self, work: Any, seat: int) -> Sequence[Move]:
        return rules.legal_moves(work, seat)

    def play(self, work: Any, seat: int, move: Move) -> None:
        rules.play(work, seat, move)

    def outcome(self, work: Any) -> tuple[list[int], tuple[int, ...]]:
        return rules.outcome(work)

    def pick(self, work: Any, seat: int) -> Move:
        moves = rules.legal_moves(work, seat)
        if self.by_policy:
            return choose(work, seat, moves, self.random_)
        return search_rules.uniform(moves, self.random_)


POLICY = PlayoutPolicy(choose=choose, tree_opponents=True, search=Search)
