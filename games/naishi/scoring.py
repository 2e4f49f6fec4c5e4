"""Final (and live) scoring of a territory: the Line above the Hand, a 2 x 5 grid, one colour at a time.

Written once for both readers: `Game.score` labels each category's points (`TerritoryScore.breakdown`), the
search's `rules.outcome` and playout policy only want the total (`territory_key`, `territory_total`: the same
rules, each card's stated once in `_card_points` or `_set_points`, without the breakdown). The grid is 10 cells,
the Line's 5 (0..4) above the Hand's 5 (5..9); EMPTY is an empty cell (a Hand not dealt yet, a Ninja with nothing
to copy).
"""

from __future__ import annotations

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
# Final[tuple[int, ...]]: a Python tuple, which the compiled code indexes (mypyc copies a fixed-size one to index it)
CORNERS: Final[tuple[int, ...]] = (0, WIDTH - 1)


def _by_count(*points: int) -> tuple[int, ...]:
    """Points by how many there are, 0 to all 10 cells; the last value given holds for every count above."""
    return points + (points[-1],) * (CELLS + 1 - len(points))


MOUNTAIN_POINTS: Final = _by_count(0, 5, -5)  # "If you have 1, score 5 points. If you have 2 or more, lose 5 points."
TORII_POINTS: Final = _by_count(0, -5, 0, 30)  # "1, you lose 5 points. 2, score 0 points. 3 or more, score 30 points."
BANNER_POINTS: Final = _by_count(0, 3, 8)  # banners in the Line: "1, score 3 points. If you have 2, score 8 points."
RICE_POINTS: Final = _by_count(0, 0, 10, 20, 30)  # by the size of a group of adjacent Rice fields
RONIN_POINTS: Final = _by_count(0, 0, 0, 0, 0, 0, 0, 0, 8, 15, 45)  # each Ronin, by the number of different types
NAISHI_POINTS: Final[tuple[int, ...]] = (12, 8)  # in the central column: in the Line, in the Hand
# "2 points in positions 1 and 5; 4 points in positions 2 and 4; 3 ... 3rd"
ADVISOR_POINTS: Final[tuple[int, ...]] = (2, 4, 3, 4, 2)
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
_COPIES: Final[tuple[int, ...]] = tuple(sorted(COPIABLE))  # what a Ninja may copy, in card order
_RONIN_KINDS: Final[tuple[int, ...]] = tuple(sorted(RONIN_TYPES))
_ALL_KINDS: Final[tuple[int, ...]] = tuple(range(len(NAMES)))
EMPTY: Final = -1  # an empty cell: a Hand not dealt yet, a Ninja with nothing to copy

Cells = list[int]


def grid_points(cells: Cells, real_types: int) -> tuple[int, ...]:
    """Points per category (in `CATEGORIES` order) of 10 cells whose Ninjas are already replaced by what they copy;
    `real_types` is the number of card types the Ronin count (the Ninja is not one)."""
    by_card = [0] * len(NAMES)  # the cards scored one by one (`_card_points`), by card
    for i, card in enumerate(cells):
        if card != EMPTY:
            by_card[card] += _card_points(cells, i, card, real_types)
    mountains, rice, banners, torii = _set_points(cells)
    return (
        mountains,
        by_card[NAISHI],
        by_card[ADVISOR],
        by_card[MONK],
        rice,
        banners,
        by_card[HORSEMAN],
        by_card[FORT],
        by_card[SENTINEL],
        torii,
        by_card[RONIN],
    )


def _card_points(cells: Cells, i: int, card: int, real_types: int) -> int:
    """The points of the card at cell i if it is one scored by itself: where it lies (Naishi, Advisor, Monk,
    Horseman, Fort, Sentinel) or by the types the Ronin count (Ronin); 0 for the others (`_set_points`)."""
    column, in_hand = i % WIDTH, i >= WIDTH
    if card == NAISHI:
        return NAISHI_POINTS[in_hand] if column == CENTRE else 0
    if card == ADVISOR:
        return ADVISOR_POINTS[column] + ADVISOR_NAISHI_BONUS * _next_to(cells, i, NAISHI)
    if card == MONK:
        return (MONK_HAND_POINTS if in_hand else 0) + MONK_TORII_BONUS * _next_to(cells, i, TORII)
    if card == HORSEMAN:
        if not in_hand:
            return 0
        return HORSEMAN_HAND_POINTS + (HORSEMAN_BANNER_BONUS if cells[i - WIDTH] == BANNER else 0)
    if card == FORT:
        return FORT_CORNER_POINTS if column in CORNERS else 0
    if card == SENTINEL:
        alone = SENTINEL_ALONE_POINTS if not _next_to(cells, i, SENTINEL) else 0
        return alone + SENTINEL_FORT_BONUS * _next_to(cells, i, FORT)
    if card == RONIN:
        return RONIN_POINTS[real_types]
    return 0


def _next_to(cells: Cells, i: int, card: int) -> int:
    """How many of cell i's orthogonal neighbours hold `card`."""
    count = 0
    for j in NEIGHBOURS[i]:
        if cells[j] == card:
            count += 1
    return count


def _cards_total(cells: Cells, real_types: int) -> int:
    """The points of the cards scored by themselves (`_card_points`), all together."""
    total = 0
    for i, card in enumerate(cells):
        total += _card_points(cells, i, card, real_types)
    return total


def _set_points(cells: Cells) -> tuple[int, int, int, int]:
    """(Mountains, Rice fields, Banners, Torii): the points of the cards scored by their count or their groups,
    none of which a Ninja copies."""
    mountains = rice = banners = torii = 0
    for i, card in enumerate(cells):
        if card == MOUNTAIN:
            mountains += 1
        elif card == RICE:
            rice += 1
        elif card == TORII:
            torii += 1
        elif card == BANNER and i < WIDTH:  # in the Line only
            banners += 1
    return (
        MOUNTAIN_POINTS[mountains],
        _rice(cells) if rice >= 2 else 0,
        BANNER_POINTS[banners],
        TORII_POINTS[torii],
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


def _cells(line: list[int], hand: list[int]) -> Cells:
    """The 10 cells of a territory, the Line's then the Hand's; a Hand not dealt yet is empty."""
    cells = line + hand
    if len(cells) < CELLS:
        cells += [EMPTY] * (CELLS - len(cells))
    return cells


def best_territory(line: list[int] | tuple[int, ...], hand: list[int] | tuple[int, ...]) -> tuple[
    int, int, tuple[int, ...], tuple[int | None, ...]
]:
    """(total, colours, points per category, what each Ninja copies) of a territory whose Ninjas copy what scores
    most (the first such choice, Ninjas left to right, in card order; the colours are the same whatever they copy,
    `territory_key`).

    "At the end of the game, each ninja must copy a character card present in your territory. He then becomes
    that character card and copies its color and its scoring conditions." A Ninja with no character to copy
    scores nothing and shows no colour (as in Game Park's adaptation)."""
    cells = _cells(list(line), list(hand))
    kinds = _kinds(cells)
    ninjas = [i for i, card in enumerate(cells) if card == NINJA]
    options = _copiable(kinds)
    copies: list[int | None] = []
    if ninjas and not options:  # nothing to copy: the Ninjas score nothing and show no colour
        copies = [None] * len(ninjas)
    elif ninjas:
        best = _best_total(cells, kinds)
        for i in ninjas:  # each Ninja the first copy that still reaches the best total
            for copy in options:
                cells[i] = copy
                if _best_total(cells, _kinds(cells)) == best:
                    break
            copies.append(cells[i])
    points = grid_points(cells, _ronin_types(kinds))
    return sum(points), _colour_count(kinds), points, tuple(copies)


def territory_total(line: list[int], hand: list[int]) -> int:
    """The total of a territory, its Ninjas copying what scores most: `best_territory(line, hand)[0]` without the
    tie-break and the breakdown, for the playout policy, which weighs many territories a turn."""
    cells = _cells(line, hand)
    return _best_total(cells, _kinds(cells))


def territory_key(line: list[int], hand: list[int]) -> tuple[int, int]:
    """(total, colours) of a territory: what ranks it (`best_territory`'s first two). A Ninja copies a card type
    that lies there already (or shows no colour), so its copies change no colour: the colours are the card types
    but the Ninja's, whatever they copy."""
    cells = _cells(line, hand)
    kinds = _kinds(cells)
    return _best_total(cells, kinds), _colour_count(kinds)


def _best_total(cells: Cells, kinds: int) -> int:
    """`territory_total` of the cells, whose card types are the bits `kinds` (`_kinds`)."""
    mountains, rice, banners, torii = _set_points(cells)  # the same whatever the Ninjas copy
    total = mountains + rice + banners + torii
    real_types = _ronin_types(kinds)
    if not kinds >> NINJA & 1:
        return total + _cards_total(cells, real_types)
    options = _copiable(kinds)
    if not options:  # nothing to copy: the Ninjas score nothing (as Ninjas, `_card_points` gives them 0)
        return total + _cards_total(cells, real_types)
    ninjas = [i for i, card in enumerate(cells) if card == NINJA]
    # A card's points depend on its cell and its neighbours' cards alone (the Ronin's on the types, which the
    # Ninjas do not change): only the cells near the Ninjas score differently as the Ninjas copy one or another.
    near = 0  # bit i: cell i is a Ninja's or next to one
    for cell in ninjas:
        near |= 1 << cell
        for j in NEIGHBOURS[cell]:
            near |= 1 << j
    nearby = []
    for i, card in enumerate(cells):
        if near >> i & 1:
            nearby.append(i)
        else:
            total += _card_points(cells, i, card, real_types)
    return total + _best_copies(cells, ninjas, 0, options, nearby, real_types)


def _best_copies(
    cells: Cells, ninjas: list[int], first: int, options: list[int], nearby: list[int], real_types: int
) -> int:
    """The most the cards on the `nearby` cells score, the Ninjas from `ninjas[first]` on copying each of the
    `options` in turn; the cells are left as they were."""
    if first == len(ninjas):
        total = 0
        for i in nearby:
            total += _card_points(cells, i, cells[i], real_types)
        return total
    cell = ninjas[first]
    best = -1000
    for copy in options:
        cells[cell] = copy
        best = max(best, _best_copies(cells, ninjas, first + 1, options, nearby, real_types))
    cells[cell] = NINJA
    return best


def _kinds(cells: Cells) -> int:
    """The card types in the cells, as bits (bit c: a card c lies there)."""
    kinds = 0
    for card in cells:
        if card != EMPTY:
            kinds |= 1 << card
    return kinds


def _copiable(kinds: int) -> list[int]:
    """What a Ninja may copy among the card types `kinds`, in card order."""
    return [card for card in _COPIES if kinds >> card & 1]


def _ronin_types(kinds: int) -> int:
    """The different types the Ronin count among `kinds` (the Ninja's copies add none); 0 where no Ronin lies, whose
    points alone depend on it."""
    return _count_kinds(kinds, _RONIN_KINDS) if kinds >> RONIN & 1 else 0


def _colour_count(kinds: int) -> int:
    """The different colours of the card types `kinds` (the tie-break): a Ninja copies a type already there, or
    shows no colour, so it adds none."""
    return _count_kinds(kinds & ~(1 << NINJA), _ALL_KINDS)


def _count_kinds(kinds: int, among: tuple[int, ...]) -> int:
    """How many of the card types `among` the bits `kinds` hold."""
    count = 0
    for card in among:
        if kinds >> card & 1:
            count += 1
    return count


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
