"""Final (and live) scoring of a territory: the Line above the Hand, a 2 x 5 grid, one colour at a time.

Written once for both readers: `Game.score` labels each category's points (`TerritoryScore.breakdown`), the
search's `rules.outcome` only sums them (`territory_key`). The grid is 10 cells, the Line's 5 (0..4) above the
Hand's 5 (5..9); None is an empty cell (a Hand not dealt yet, a Ninja with nothing to copy).
"""

from __future__ import annotations

from itertools import product
from typing import Final

from games.naishi.data import (
    ADVISOR,
    BANNER,
    COPIABLE,
    FORT,
    HORSEMAN,
    MONK,
    MOUNTAIN,
    NAISHI,
    NAMES,
    NINJA,
    PILES,
    RICE,
    RONIN,
    RONIN_TYPES,
    SENTINEL,
    TORII,
)

# Final: the compiled rules (mypyc) read these as constants (or C statics), not as globals looked up by name
WIDTH: Final = PILES  # cards in a Line and in a Hand
CELLS: Final = 2 * WIDTH
CENTRE: Final = 2
CORNERS: Final = (0, WIDTH - 1)


def _by_count(*points: int) -> tuple[int, ...]:
    """Points by how many there are, 0 to all 10 cells; the last value given holds for every count above."""
    return points + (points[-1],) * (CELLS + 1 - len(points))


MOUNTAIN_POINTS: Final = _by_count(0, 5, -5)  # "If you have 1, score 5 points. If you have 2 or more, lose 5 points."
TORII_POINTS: Final = _by_count(0, -5, 0, 30)  # "1, you lose 5 points. 2, score 0 points. 3 or more, score 30 points."
BANNER_POINTS: Final = _by_count(0, 3, 8)  # banners in the Line: "1, score 3 points. If you have 2, score 8 points."
RICE_POINTS: Final = _by_count(0, 0, 10, 20, 30)  # by the size of a group of adjacent Rice fields
RONIN_POINTS: Final = _by_count(0, 0, 0, 0, 0, 0, 0, 0, 8, 15, 45)  # each Ronin, by the number of different types
NAISHI_POINTS: Final = (12, 8)  # in the central column: in the Line, in the Hand
ADVISOR_POINTS: Final = (2, 4, 3, 4, 2)  # "2 points in positions 1 and 5; 4 points in positions 2 and 4; 3 ... 3rd"
ADVISOR_NAISHI_BONUS: Final = 4  # per adjacent Naishi
MONK_HAND_POINTS: Final = 5
MONK_TORII_BONUS: Final = 2  # per adjacent Torii
HORSEMAN_HAND_POINTS: Final = 3
HORSEMAN_BANNER_BONUS: Final = 10  # a Banner in the same position in the Line
FORT_CORNER_POINTS: Final = 6
SENTINEL_ALONE_POINTS: Final = 3  # not adjacent to another Sentinel
SENTINEL_FORT_BONUS: Final = 4  # per adjacent Fort

# The scorepad's rows, in the order of the rulebook's "Card Types"; a Ninja scores in the row of what it copies.
CATEGORIES: Final[tuple[int, ...]] = (
    MOUNTAIN, NAISHI, ADVISOR, MONK, RICE, BANNER, HORSEMAN, FORT, SENTINEL, TORII, RONIN
)
CATEGORY_NAMES: Final[tuple[str, ...]] = tuple(NAMES[c] for c in CATEGORIES)

# Orthogonal neighbours of each cell: the other row's card in the same position, then left, then right.
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    ((i + WIDTH) % CELLS,) + ((i - 1,) if i % WIDTH else ()) + ((i + 1,) if i % WIDTH != WIDTH - 1 else ())
    for i in range(CELLS)
)
# The cards whose points depend on where each one lies (the others score by their count).
_PLACED: Final = frozenset((NAISHI, ADVISOR, MONK, HORSEMAN, FORT, SENTINEL))
_COPIABLE: Final = frozenset(COPIABLE)
_RONIN_TYPES: Final = RONIN_TYPES  # a C static here (the data module is interpreted)

Cells = list[int | None]


def grid_points(cells: Cells, real_types: int) -> tuple[int, ...]:
    """Points per category (in `CATEGORIES` order) of 10 cells whose Ninjas are already replaced by what they copy;
    `real_types` is the number of card types the Ronin count (the Ninja is not one)."""
    naishi = advisor = monk = horseman = fort = sentinel = 0
    for i, card in enumerate(cells):
        if card not in _PLACED:
            continue
        column, in_hand = i % WIDTH, i >= WIDTH
        if card == NAISHI:
            if column == CENTRE:
                naishi += NAISHI_POINTS[in_hand]
        elif card == ADVISOR:
            near = sum(1 for j in NEIGHBOURS[i] if cells[j] == NAISHI)
            advisor += ADVISOR_POINTS[column] + ADVISOR_NAISHI_BONUS * near
        elif card == MONK:
            near = sum(1 for j in NEIGHBOURS[i] if cells[j] == TORII)
            monk += (MONK_HAND_POINTS if in_hand else 0) + MONK_TORII_BONUS * near
        elif card == HORSEMAN:
            if in_hand:
                horseman += HORSEMAN_HAND_POINTS + (HORSEMAN_BANNER_BONUS if cells[i - WIDTH] == BANNER else 0)
        elif card == FORT:
            if column in CORNERS:
                fort += FORT_CORNER_POINTS
        else:  # Sentinel
            near_cards = [cells[j] for j in NEIGHBOURS[i]]
            alone = SENTINEL_ALONE_POINTS if SENTINEL not in near_cards else 0
            sentinel += alone + SENTINEL_FORT_BONUS * near_cards.count(FORT)
    rice = _rice(cells) if cells.count(RICE) >= 2 else 0
    return (
        MOUNTAIN_POINTS[cells.count(MOUNTAIN)],
        naishi,
        advisor,
        monk,
        rice,
        BANNER_POINTS[cells[:WIDTH].count(BANNER)],
        horseman,
        fort,
        sentinel,
        TORII_POINTS[cells.count(TORII)],
        cells.count(RONIN) * RONIN_POINTS[real_types],
    )


def _rice(cells: Cells) -> int:
    """Rice fields: the points of each group of orthogonally adjacent ones, by its size."""
    points = 0
    seen = 0  # bit i: cell i is in a group already counted
    for start, card in enumerate(cells):
        if card != RICE or seen >> start & 1:
            continue
        seen |= 1 << start
        pending, size = [start], 0
        while pending:
            i = pending.pop()
            size += 1
            for j in NEIGHBOURS[i]:
                if cells[j] == RICE and not seen >> j & 1:
                    seen |= 1 << j
                    pending.append(j)
        points += RICE_POINTS[size]
    return points


def _colours(cells: Cells) -> int:
    """Different colours in the cells (one per card type; the tie-break)."""
    kinds = set(cells)
    kinds.discard(None)
    return len(kinds)


def best_territory(line: list[int] | tuple[int, ...], hand: list[int] | tuple[int, ...]) -> tuple[
    int, int, tuple[int, ...], tuple[int | None, ...]
]:
    """(total, colours, points per category, what each Ninja copies) of a territory whose Ninjas copy what scores
    most, then what shows most colours (the first such choice, Ninjas left to right, in card order).

    "At the end of the game, each ninja must copy a character card present in your territory. He then becomes
    that character card and copies its color and its scoring conditions." A Ninja with no character to copy
    scores nothing and shows no colour (as in Game Park's adaptation)."""
    cells: Cells = [*line, *hand]
    if len(cells) < CELLS:
        cells += [None] * (CELLS - len(cells))
    real_types = len(_RONIN_TYPES.intersection(cells))
    if NINJA not in cells:
        points = grid_points(cells, real_types)
        return sum(points), _colours(cells), points, ()
    ninjas = [i for i, card in enumerate(cells) if card == NINJA]
    options = sorted(_COPIABLE.intersection(cells))
    if not options:  # nothing to copy: the Ninjas score nothing and show no colour
        for i in ninjas:
            cells[i] = None
        points = grid_points(cells, real_types)
        return sum(points), _colours(cells), points, (None,) * len(ninjas)
    best: tuple[int, int, tuple[int, ...], tuple[int | None, ...]] | None = None
    for choice in product(options, repeat=len(ninjas)):
        for i, copy in zip(ninjas, choice, strict=True):
            cells[i] = copy
        points = grid_points(cells, real_types)
        total, colours = sum(points), _colours(cells)
        if best is None or (total, colours) > (best[0], best[1]):
            best = (total, colours, points, choice)
    assert best is not None
    return best


def territory_key(line: list[int] | tuple[int, ...], hand: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(total, colours) of a territory: what ranks it."""
    total, colours, _, _ = best_territory(line, hand)
    return total, colours


def winners(keys: list[tuple[int, int]]) -> tuple[int, ...]:
    """The seats ranked first by their territories' (total, colours): "In case of a tie, the player with the most
    different colors in their territory wins. If there is still a tie... play again!" (both stay first)."""
    if keys[0] == keys[1]:
        return (0, 1)
    return (0,) if keys[0] > keys[1] else (1,)


class TerritoryScore:
    """A territory's points per category, total, distinct colours (the tie-break) and the Ninjas' copies."""

    __slots__ = ("points", "total", "colours", "ninja_copies")

    def __init__(self, total: int, colours: int, points: tuple[int, ...], ninja_copies: tuple[int | None, ...]):
        self.total = total
        self.colours = colours
        self.points = points  # in `CATEGORIES` order
        self.ninja_copies = ninja_copies

    def breakdown(self) -> tuple[tuple[str, int], ...]:
        return tuple(zip(CATEGORY_NAMES, self.points, strict=True))


def score_territory(line: tuple[int, ...], hand: tuple[int, ...]) -> TerritoryScore:
    """Score a territory, each Ninja copying what scores best (`best_territory`)."""
    return TerritoryScore(*best_territory(line, hand))
