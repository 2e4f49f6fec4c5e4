"""Hinode's final scoring, in the rulebook's order, and the ranking with its tie-breaks."""

from __future__ import annotations

from games.base import Score, SeatScore
from games.hinode.data import ADJACENT_MASK, AREAS, NAWABARI_COLOUR, WHITE, YELLOW
from games.hinode.state import OVER, State

CATEGORIES = ("ranking points", "bonus area", "power points", "hero comes last", "treasure")
TIE_BREAK = "most Areas with tribe markers"
HERO_LAST_VP = 3
TREASURE_MAJORITY_VP = 6


def marked_areas(state, position: int) -> int:
    """Bitmask of the Areas holding a marker of `position`: 1st, 2nd or a skill marker."""
    mask = state.skill_markers[position]
    first, second = state.first, state.second
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


def breakdown(state, position: int, marked: int | None = None) -> tuple[tuple[str, int], ...]:
    """One position's points by the rulebook's categories (`marked`: its marked_areas, if already known)."""
    vp, layout, first, second = state.vp, state.layout, state.first, state.second
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
    if marked is None:
        marked = marked_areas(state, position)
    return (
        ("ranking points", ranking_points),
        ("bonus area", bonus),
        ("power points", 2 * largest_group(marked)),
        ("hero comes last", HERO_LAST_VP if state.hero_last == position else 0),
        ("treasure", _treasure(state, position)),
    )


def _treasure(state, position: int) -> int:
    """1 VP per 2 yellow held, plus the 6 VP majority split evenly (rounded down) among those tied for most."""
    yellows = [state.resources[p * 3 + YELLOW] for p in range(state.num_players)]
    mine = yellows[position] if position < state.num_players else 0
    points = mine // 2
    most = max(yellows)
    if most > 0 and mine == most:  # nobody "has the most" when nobody has any
        points += TREASURE_MAJORITY_VP // yellows.count(most)
    return points


def score(state: State) -> Score:
    """Each real seat's points; best first, ties broken by the number of Areas with markers, else a draw."""
    seats = []
    areas = []
    for p in range(state.num_players):
        marked = marked_areas(state, p)
        parts = breakdown(state, p, marked)
        seats.append(SeatScore(p, sum(v for _, v in parts), parts))
        areas.append(bin(marked).count("1"))
    keys = {s.seat: (s.total, areas[s.seat]) for s in seats}
    order = sorted(keys, key=lambda p: keys[p], reverse=True)
    ranking: list[tuple[int, ...]] = []
    for p in order:
        if ranking and keys[ranking[-1][0]] == keys[p]:
            ranking[-1] += (p,)
        else:
            ranking.append((p,))
    totals = [s.total for s in seats]
    tie_breaks = (TIE_BREAK,) if len(set(totals)) < len(totals) else ()
    return Score(tuple(seats), tuple(ranking), final=state.phase == OVER, tie_breaks=tie_breaks)
