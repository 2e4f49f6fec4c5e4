"""Zipang's score: the Mangoku coins each seat holds (always public), and the ranking by coins."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Score, SeatScore
from games.zipang.state import OVER, State

NOT_UNIFIED = (
    "the realm is not unified: the seats tied for the most coins share first place "
    "(the rulebook has them start a new game)"
)
TIE = "seats with equal coins share a place"


def ranking(coins: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The seats best first, equal coins sharing a place. A tie for first is not broken: the rulebook says the
    realm is not unified and a new game starts, so the tied seats share first place."""
    return tuple(
        tuple(p for p, c in enumerate(coins) if c == level) for level in sorted(set(coins), reverse=True)
    )


def score(state: State) -> Score:
    """Coins per seat (the one category), ranked by `ranking`, with a note on ties."""
    coins = state.coins
    seats = tuple(SeatScore(p, c, (("coins", c),)) for p, c in enumerate(coins))
    ranks = ranking(coins)
    tie_breaks: tuple[str, ...] = ()
    if len(ranks[0]) > 1:
        tie_breaks = (NOT_UNIFIED,)
    elif any(len(group) > 1 for group in ranks):
        tie_breaks = (TIE,)
    return Score(seats, ranks, final=state.phase == OVER, tie_breaks=tie_breaks)
