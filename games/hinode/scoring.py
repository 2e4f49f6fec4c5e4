"""Hinode's final scoring, in the rulebook's order, and the ranking with its tie-breaks.

Written once over the working state: `outcome` (the search's reading) sums the same `points` that `score`
labels with the rulebook's categories, and both rank by the same `rank_keys`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Score, SeatScore
from games.hinode.data import ADJACENT_MASK, AREAS, NAWABARI_COLOUR, WHITE, YELLOW
from games.hinode.state import OVER, State
from games.hinode.work import Work, thaw

CATEGORIES = ("ranking points", "bonus area", "power points", "hero comes last", "treasure")
TIE_BREAK = "most Areas with tribe markers"
HERO_LAST_VP = 3
TREASURE_MAJORITY_VP = 6


def marked_areas(
    skill_markers: Sequence[int], first: Sequence[int | None], second: Sequence[int | None], position: int
) -> int:
    """Bitmask of the Areas holding a marker of `position`: 1st, 2nd or a skill marker (of a state, a working
    state or a view)."""
    mask = skill_markers[position]
    for a in range(AREAS):
        if first[a] == position or second[a] == position:
            mask |= 1 << a
    return mask


def largest_group(mask: int) -> int:
    """Size of the largest group of orthogonally connected Areas in `mask`."""
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
        best = max(best, bin(group).count("1"))
    return best


def points(work: Work, position: int, marked: int) -> tuple[int, int, int, int, int]:
    """One position's points by the rulebook's categories (CATEGORIES, in order); `marked`: its marked_areas."""
    vp, layout, first, second = work.vp, work.layout, work.first, work.second
    ranking_points = bonus = 0
    bonus_colour = NAWABARI_COLOUR[layout[12]]
    for a in range(AREAS):
        on_first, on_second = first[a] == position, second[a] == position
        if not (on_first or on_second):
            continue
        card = layout[a]
        if on_first:
            ranking_points += vp[2 * card]
        if on_second:
            ranking_points += vp[2 * card + 1]
        # "gain 1 VP for each tribe marker"; never for the white Area nor with a white Bonus Area
        if bonus_colour != WHITE and NAWABARI_COLOUR[card] == bonus_colour:
            bonus += on_first + on_second
    return (
        ranking_points,
        bonus,
        2 * largest_group(marked),
        HERO_LAST_VP if work.hero_last == position else 0,
        _treasure(work, position),
    )


def _treasure(work: Work, position: int) -> int:
    """1 VP per 2 yellow held, plus the 6 VP majority split evenly (rounded down) among those tied for most."""
    resources = work.resources
    yellows = [resources[p * 3 + YELLOW] for p in range(work.num_players)]
    mine = yellows[position]
    result = mine // 2
    most = max(yellows)
    if most > 0 and mine == most:  # nobody "has the most" when nobody has any
        result += TREASURE_MAJORITY_VP // yellows.count(most)
    return result


def rank_keys(work: Work) -> tuple[list[tuple[int, int, int, int, int]], list[tuple[int, int]]]:
    """Every real seat's points by category, and its ranking key: its total, then the tie-break (the number of
    Areas with its markers); the higher key ranks better, equal keys share a place."""
    parts = []
    keys = []
    skill_markers, first, second = work.skill_markers, work.first, work.second
    for p in range(work.num_players):
        marked = marked_areas(skill_markers, first, second, p)
        mine = points(work, p, marked)
        parts.append(mine)
        keys.append((sum(mine), bin(marked).count("1")))
    return parts, keys


def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
    """Every seat's total and the seats ranked first (the search's cheap reading of `score`)."""
    _, keys = rank_keys(work)
    best = max(keys)
    return [total for total, _ in keys], tuple([p for p, key in enumerate(keys) if key == best])


def score(state: State) -> Score:
    """Each real seat's points; best first, ties broken by the number of Areas with markers, else a draw."""
    parts, keys = rank_keys(thaw(state))
    seats = tuple(
        SeatScore(p, total, tuple(zip(CATEGORIES, mine, strict=True)))
        for p, (mine, (total, _)) in enumerate(zip(parts, keys, strict=True))
    )
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    ranking: list[tuple[int, ...]] = []
    for p in order:
        if ranking and keys[ranking[-1][0]] == keys[p]:
            ranking[-1] += (p,)
        else:
            ranking.append((p,))
    totals = [total for total, _ in keys]
    tie_breaks = (TIE_BREAK,) if len(set(totals)) < len(totals) else ()
    return Score(seats, tuple(ranking), final=state.phase == OVER, tie_breaks=tie_breaks)
