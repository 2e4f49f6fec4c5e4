"""Scores: each seat's VP (the only category that adds up), and the ranking by the win checks."""

from __future__ import annotations

from games.base import Score, SeatScore
from games.kungfur.state import OVER, State


def score(state: State) -> Score:
    seats = tuple(SeatScore(s, p.vp, (("VP", p.vp),)) for s, p in enumerate(state.players))
    if state.phase == OVER:
        winners = state.winners
        losers = tuple(s for s in (0, 1) if s not in winners)
        ranking = (winners, losers) if losers else (winners,)
        sp = (state.players[0].sp, state.players[1].sp)
        if (sp[0] == 0) != (sp[1] == 0):
            # SP at 0 loses whatever the VP: the rule decides regardless of the totals.
            return Score(seats, ranking, final=True, decided_by=state.end)
        tie_breaks = ("the higher SP",) if "higher SP" in state.end else ()
        return Score(seats, ranking, final=True, tie_breaks=tie_breaks)
    vp = (state.players[0].vp, state.players[1].vp)
    if vp[0] == vp[1]:
        ranking: tuple[tuple[int, ...], ...] = ((0, 1),)
    else:
        best = 0 if vp[0] > vp[1] else 1
        ranking = ((best,), (1 - best,))
    return Score(seats, ranking, final=False)
