"""Scores: each seat's VP (the only category that adds up), and the ranking by the win checks.

`ranked_first` is the one ranking rule: the full score (`score`, on a frozen state) and the search's outcome
(games.kungfur.rules.outcome, on the working state) both read it.
"""

from __future__ import annotations

from typing import Final

from games.base import Score, SeatScore
from games.kungfur.state import OVER, State

_BOTH: Final[tuple[int, ...]] = (0, 1)
_ONE: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))


def ranked_first(vp0: int, vp1: int, over: bool, winners: tuple[int, ...]) -> tuple[int, ...]:
    """The seats ranked first: once the game is over, the win checks' winners (games.kungfur.regroup.verdict);
    before, the higher VP (equal VP share the place)."""
    if over:
        return winners
    return _BOTH if vp0 == vp1 else _ONE[0] if vp0 > vp1 else _ONE[1]


def score(state: State) -> Score:
    players = state.players
    seats = tuple(SeatScore(s, p.vp, (("VP", p.vp),)) for s, p in enumerate(players))
    over = state.phase == OVER
    first = ranked_first(players[0].vp, players[1].vp, over, state.winners)
    rest = tuple(s for s in _BOTH if s not in first)
    ranking = (first, rest) if rest else (first,)
    if not over:
        return Score(seats, ranking, final=False)
    if (players[0].sp == 0) != (players[1].sp == 0):
        # SP at 0 loses whatever the VP: the rule decides regardless of the totals.
        return Score(seats, ranking, final=True, decided_by=state.end)
    tie_breaks = ("the higher SP",) if "higher SP" in state.end else ()
    return Score(seats, ranking, final=True, tie_breaks=tie_breaks)
