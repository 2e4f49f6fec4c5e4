"""Naishi's playout policy: the search's cheap model of a player (strategy, not rules: it reads the working state
and the scoring's constants, and picks among the legal moves it is given)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from games.base import Move, PlayoutPolicy
from games.naishi.data import ADVISOR, BANNER, HORSEMAN, MONK, MOUNTAIN, NAMES, NINJA, RICE, RONIN, TORII
from games.naishi.moves import Develop
from games.naishi.rules import DEVELOPMENTS, Work
from games.naishi.scoring import CELLS, HORSEMAN_BANNER_BONUS, NEIGHBOURS, TORII_POINTS, WIDTH, grid_points

# share of the policy's picks made uniformly at random (court actions, decrees, the end come from these)
EXPLORE: Final = 0.2
RICE_NEIGHBOUR: Final = 5.0  # half a pair's points, for each Rice field next to where one lands

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
            alone: list[int | None] = [None] * CELLS
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
    Horseman), then end the turn; a fifth of the picks, and the gifts, stay uniformly random."""
    if work.phase != "turn" or random_() < EXPLORE:
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
            if torii < 0:
                torii = line.count(TORII) + hand.count(TORII)
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


# The search draws the opponent's moves in its tree with this policy on each determinization, so that the opponent
# plays the Hand it is dealt there (ai.ismcts._iterate); docs/ai.md has the arena runs.
POLICY = PlayoutPolicy(choose=choose, tree_opponents=True)
