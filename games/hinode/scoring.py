"""Hinode's final scoring, in the rulebook's order, and the ranking with its tie-breaks.

Written once over the working state: `outcome` (the search's reading) and `score` (which labels the points with the
rulebook's categories) both read and rank by `rank_keys`.
"""

from __future__ import annotations

from typing import Final

from games.base import Score, SeatScore
from games.hinode.data import ADJACENT_MASK, AREAS, NAWABARI_COLOUR, PLAYERS, WHITE, YELLOW
from games.hinode.state import OVER, State
from games.hinode.work import Work, thaw

CATEGORIES: Final[tuple[str, ...]] = ("ranking points", "bonus area", "power points", "hero comes last", "treasure")
TIE_BREAK = "most Areas with tribe markers"
HERO_LAST_VP: Final = 3
TREASURE_MAJORITY_VP: Final = 6


def marked_by_position(
    skill_markers: tuple[int, ...], first: list[int | None], second: list[int | None]
) -> list[int]:
    """Every position's bitmask of the Areas holding a marker of it: 1st, 2nd or a skill marker (of a working state,
    or of a state or a view with its markers as lists)."""
    marks = list(skill_markers)
    for a in range(AREAS):  # `marks[p] = marks[p] | ...`, not `|=`: compiled, an item's `|=` is a Python operation
        p = first[a]
        if p is not None:
            marks[p] = marks[p] | 1 << a
        p = second[a]
        if p is not None:
            marks[p] = marks[p] | 1 << a
    return marks


def marked_areas(
    skill_markers: tuple[int, ...], first: list[int | None], second: list[int | None], position: int
) -> int:
    """Bitmask of the Areas holding a marker of `position` (see `marked_by_position`)."""
    return marked_by_position(skill_markers, first, second)[position]


def largest_group(mask: int) -> int:
    """Size of the largest group of orthogonally connected Areas in `mask` (from a table of every mask: every
    playout of a search asks for it)."""
    return _GROUP_SIZES[mask]


def _largest_group(mask: int) -> int:
    best = 0
    left = mask
    while left:
        seed = left & -left
        group = seed
        frontier = seed
        while frontier:
            bit = frontier & -frontier
            frontier ^= bit
            near = ADJACENT_MASK[bit.bit_length() - 1] & mask & ~group
            group |= near
            frontier |= near
        left &= ~group
        best = max(best, group.bit_count())
    return best


# Every mask of Areas (2 ** 12 of them): its largest group, and its Areas counted (compiled, a table's item is a C
# read, where a dict's lookup boxed the mask and `int.bit_count()` is a Python method call).
_GROUP_SIZES: Final[tuple[int, ...]] = tuple([_largest_group(mask) for mask in range(1 << AREAS)])
_AREA_COUNTS: Final[tuple[int, ...]] = tuple([mask.bit_count() for mask in range(1 << AREAS)])


def rank_keys(
    work: Work, parts: list[tuple[int, int, int, int, int]] | None = None
) -> tuple[list[int], list[int]]:
    """Every real seat's ranking key as two lists: its total, and the tie-break (the number of Areas with its
    markers); the higher key ranks better, equal keys share a place. With `parts`, each seat's points by the
    rulebook's categories (CATEGORIES, in order) are appended to it. Each Area is read once, for every seat (the
    search reads a score at the end of every playout, and needs no parts: compiled, a seat's parts are a C struct
    until they are kept in a list, and then a tuple of five, and a key a tuple of two, made and freed a playout)."""
    vp, layout, first, second = work.vp, work.layout, work.first, work.second
    ranking_points = [0] * PLAYERS
    bonus = [0] * PLAYERS
    bonus_colour = NAWABARI_COLOUR[layout[12]]
    for a in range(AREAS):
        on_first, on_second = first[a], second[a]
        if on_first is None and on_second is None:
            continue
        card = layout[a]
        # "gain 1 VP for each tribe marker"; never for the white Area nor with a white Bonus Area
        in_bonus = bonus_colour != WHITE and NAWABARI_COLOUR[card] == bonus_colour
        if on_first is not None:  # `x[p] = x[p] + ...`, not `+=`: compiled, an item's `+=` is a Python operation
            ranking_points[on_first] = ranking_points[on_first] + vp[2 * card]
            if in_bonus:
                bonus[on_first] = bonus[on_first] + 1
        if on_second is not None:
            ranking_points[on_second] = ranking_points[on_second] + vp[2 * card + 1]
            if in_bonus:
                bonus[on_second] = bonus[on_second] + 1
    marks = marked_by_position(work.skill_markers, first, second)
    # Treasure: 1 VP per 2 yellow held, plus the 6 VP majority split evenly (rounded down) among those tied for most
    resources = work.resources
    yellows = [resources[p * 3 + YELLOW] for p in range(work.num_players)]
    # the most held and by how many seats, by loops on ints (compiled, max() and list.count compare objects)
    most = holders = 0
    for held in yellows:
        if held > most:
            most, holders = held, 1
        elif held == most:
            holders += 1
    majority = TREASURE_MAJORITY_VP // holders if most > 0 else 0  # nobody "has the most" of none
    hero_last = work.hero_last
    totals = []
    ties = []
    for p, mine in enumerate(yellows):
        marked = marks[p]
        seat = (
            ranking_points[p],
            bonus[p],
            2 * largest_group(marked),
            HERO_LAST_VP if hero_last is not None and hero_last == p else 0,
            mine // 2 + (majority if mine == most else 0),
        )
        if parts is not None:
            parts.append(seat)
        totals.append(seat[0] + seat[1] + seat[2] + seat[3] + seat[4])
        ties.append(_AREA_COUNTS[marked])
    return totals, ties


def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
    """Every seat's total and the seats ranked first (the search's cheap reading of `score`)."""
    totals, ties = rank_keys(work)
    best, best_tie = totals[0], ties[0]  # the best key, compared as ints (compiled, max() of tuples compares objects)
    for p in range(1, len(totals)):
        total, tie = totals[p], ties[p]
        if total > best or (total == best and tie > best_tie):
            best, best_tie = total, tie
    winners = tuple([p for p in range(len(totals)) if totals[p] == best and ties[p] == best_tie])
    return totals, winners


def score(state: State) -> Score:
    """Each real seat's points; best first, ties broken by the number of Areas with markers, else a draw."""
    parts: list[tuple[int, int, int, int, int]] = []
    totals, ties = rank_keys(thaw(state), parts)
    keys = list(zip(totals, ties, strict=True))
    seats = tuple(
        SeatScore(p, total, tuple(zip(CATEGORIES, mine, strict=True)))
        for p, (mine, total) in enumerate(zip(parts, totals, strict=True))
    )
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    ranking: list[tuple[int, ...]] = []
    for p in order:
        if ranking and keys[ranking[-1][0]] == keys[p]:
            ranking[-1] += (p,)
        else:
            ranking.append((p,))
    tie_breaks = (TIE_BREAK,) if len(set(totals)) < len(totals) else ()
    return Score(seats, tuple(ranking), final=state.phase == OVER, tie_breaks=tie_breaks)
