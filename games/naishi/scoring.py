"""Final (and live) scoring of a territory: the Line above the Hand, a 2 x 5 grid, one colour at a time."""

from __future__ import annotations

from itertools import product

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
    RICE,
    RONIN,
    RONIN_TYPES,
    SENTINEL,
    TORII,
)

LINE, HAND = 0, 1
CENTRE = 2
ADVISOR_POINTS = (2, 4, 3, 4, 2)  # "2 points in positions 1 and 5; 4 points in positions 2 and 4; 3 ... 3rd"
RONIN_POINTS = {8: 8, 9: 15, 10: 45}
# The scorepad's rows, in the order of the rulebook's "Card Types"; a Ninja scores in the row of what it copies.
CATEGORIES: tuple[int, ...] = (MOUNTAIN, NAISHI, ADVISOR, MONK, RICE, BANNER, HORSEMAN, FORT, SENTINEL, TORII, RONIN)
CATEGORY_NAMES: tuple[str, ...] = tuple(NAMES[c] for c in CATEGORIES)

Grid = tuple[tuple[int | None, ...], tuple[int | None, ...]]


def _neighbours(r: int, c: int, width: int) -> list[tuple[int, int]]:
    cells = [(1 - r, c)]
    if c > 0:
        cells.append((r, c - 1))
    if c < width - 1:
        cells.append((r, c + 1))
    return cells


def _score_grid(grid: Grid, real_types: int) -> dict[int, int]:
    """Points per category of a grid whose Ninjas are already replaced by what they copy."""
    width = len(grid[LINE])
    points = dict.fromkeys(CATEGORIES, 0)

    def at(r: int, c: int) -> int | None:
        row = grid[r]
        return row[c] if c < len(row) else None

    def adjacent(r: int, c: int, card: int) -> int:
        return sum(1 for rr, cc in _neighbours(r, c, width) if at(rr, cc) == card)

    cells = [(r, c, card) for r in (LINE, HAND) for c, card in enumerate(grid[r]) if card is not None]
    counts = [0] * 12
    for _, _, card in cells:
        counts[card] += 1

    mountains = counts[MOUNTAIN]
    points[MOUNTAIN] = 5 if mountains == 1 else (-5 if mountains >= 2 else 0)
    torii = counts[TORII]
    points[TORII] = -5 if torii == 1 else (30 if torii >= 3 else 0)
    banners = sum(1 for card in grid[LINE] if card == BANNER)
    points[BANNER] = 3 if banners == 1 else (8 if banners >= 2 else 0)
    points[RICE] = sum(10 if size == 2 else 20 if size == 3 else 30 if size >= 4 else 0 for size in _groups(grid, RICE))

    for r, c, card in cells:
        if card == NAISHI:
            if c == CENTRE:
                points[NAISHI] += 12 if r == LINE else 8
        elif card == ADVISOR:
            points[ADVISOR] += ADVISOR_POINTS[c] + 4 * adjacent(r, c, NAISHI)
        elif card == MONK:
            points[MONK] += (5 if r == HAND else 0) + 2 * adjacent(r, c, TORII)
        elif card == HORSEMAN:
            if r == HAND:
                points[HORSEMAN] += 3 + (10 if at(LINE, c) == BANNER else 0)
        elif card == FORT:
            if c in (0, width - 1):
                points[FORT] += 6
        elif card == SENTINEL:
            points[SENTINEL] += (3 if adjacent(r, c, SENTINEL) == 0 else 0) + 4 * adjacent(r, c, FORT)
        elif card == RONIN:
            points[RONIN] += RONIN_POINTS.get(real_types, 0)
    return points


def _groups(grid: Grid, card: int) -> list[int]:
    """Sizes of the groups of orthogonally adjacent cards of one type."""
    width = len(grid[LINE])
    seen: set[tuple[int, int]] = set()
    sizes = []
    for r in (LINE, HAND):
        for c, here in enumerate(grid[r]):
            if here != card or (r, c) in seen:
                continue
            seen.add((r, c))
            pending, size = [(r, c)], 0
            while pending:
                pr, pc = pending.pop()
                size += 1
                for nr, nc in _neighbours(pr, pc, width):
                    if nc < len(grid[nr]) and grid[nr][nc] == card and (nr, nc) not in seen:
                        seen.add((nr, nc))
                        pending.append((nr, nc))
            sizes.append(size)
    return sizes


class TerritoryScore:
    """A territory's points per category, total, distinct colours (the tie-break) and the Ninjas' copies."""

    __slots__ = ("points", "total", "colours", "ninja_copies")

    def __init__(self, points: dict[int, int], colours: int, ninja_copies: tuple[int | None, ...]):
        self.points = points
        self.total = sum(points.values())
        self.colours = colours
        self.ninja_copies = ninja_copies

    def breakdown(self) -> tuple[tuple[str, int], ...]:
        return tuple((NAMES[c], self.points[c]) for c in CATEGORIES)


def score_territory(line: tuple[int, ...], hand: tuple[int, ...]) -> TerritoryScore:
    """Score a territory; each Ninja copies the character that maximises the score, then the colours.

    "At the end of the game, each ninja must copy a character card present in your territory. He then becomes
    that character card and copies its color and its scoring conditions." A Ninja with no character to copy
    scores nothing and shows no colour (as in Game Park's adaptation).
    """
    real = (*line, *hand)
    real_types = len({card for card in real if card in RONIN_TYPES})
    ninjas = [(LINE, c) for c, card in enumerate(line) if card == NINJA] + [
        (HAND, c) for c, card in enumerate(hand) if card == NINJA
    ]
    options = sorted({card for card in real if card in COPIABLE})
    best: TerritoryScore | None = None
    choices: list[tuple[int | None, ...]] = [(None,) * len(ninjas)]
    if ninjas and options:
        choices = [tuple(choice) for choice in product(options, repeat=len(ninjas))]
    for choice in choices:
        rows = [list(line), list(hand)]
        for (r, c), copy in zip(ninjas, choice, strict=True):
            rows[r][c] = copy
        grid: Grid = (tuple(rows[0]), tuple(rows[1]))
        points = _score_grid(grid, real_types)
        colours = len({card for row in grid for card in row if card is not None})
        candidate = TerritoryScore(points, colours, choice)
        if best is None or (candidate.total, candidate.colours) > (best.total, best.colours):
            best = candidate
    assert best is not None
    return best
