"""The search's fast path: a game's optional playout kernel, beside its pure engine.

The engine (`games.base.Game`) stays pure: frozen states, every move a new state, the full score breakdown. A
search applies tens of thousands of moves a second to throwaway copies, so a game may also offer a kernel that
works on a mutable copy of a full state:

- `load(state)` copies a full state (the search passes only determinizations it drew with `Game.sample`) into
  a mutable playout state; nothing is shared with `state`, which stays unchanged;
- `to_act(ps)` is the seats to act, sorted (empty when the game is over);
- `legal_moves(ps, seat)` lists exactly the engine's legal moves, in the engine's order (the same move values);
- `play(ps, seat, move)` applies a move that `legal_moves` listed, unchecked, and returns the playout state
  (the same object, changed in place, for a mutable kernel);
- `outcome(ps)` is `(totals, winners)`: every seat's score total and the seats ranked first (after the rulebook's
  tie-breaks), from a cheap terminal evaluation (no breakdown), or from the live score when the game is not
  over. The search turns it into rewards with `outcome_rewards`.

`tests/conformance/test_kernels.py` plays thousands of random games through a game's kernel and its engine side
by side and checks they agree move for move: seats to act, legal moves, and the outcome (totals and winners).

`EngineKernel` adapts any engine to this interface (the pure path, for games without a kernel of their own).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from games.base import Game, Move

MARGIN_WEIGHT = 0.1  # share of the reward that is the normalised score margin; the rest is winning


class PlayoutKernel(Protocol):
    def load(self, state: Any) -> Any: ...

    def to_act(self, ps: Any) -> Sequence[int]: ...

    def legal_moves(self, ps: Any, seat: int) -> Sequence[Move]: ...

    def play(self, ps: Any, seat: int, move: Move) -> Any: ...

    def outcome(self, ps: Any) -> tuple[list[int], Sequence[int]]: ...


def outcome_rewards(totals: Sequence[int], winners: Sequence[int]) -> list[float]:
    """Every seat's reward in [0, 1]: winning (split among tied winners) is worth 0.9, the score margin 0.1.

    The margin term is `MARGIN_WEIGHT x (1 + (own total - best other total) / spread) / 2`, with the spread the
    highest total minus the lowest: 0 for the worst possible margin, 0.1 for the best. So 1 is a sure win by the
    widest margin and 0 a sure loss by it; a mean reward is mostly the chance of winning."""
    n = len(totals)
    spread = (max(totals) - min(totals)) or 1
    win = 1.0 - MARGIN_WEIGHT
    half = MARGIN_WEIGHT / 2
    result = [0.0] * n
    if n > 1:
        # the best other total is the best total, unless this seat holds it alone: then the second best
        ordered = sorted(totals, reverse=True)
        top, second = ordered[0], ordered[1]
        for seat in range(n):
            own = totals[seat]
            best_other = second if own == top else top
            result[seat] = half * (1 + (own - best_other) / spread)
    share = win / len(winners) if winners else 0.0
    for seat in winners:
        result[seat] += share
    return result


def engine_outcome(game: Game, state: Any) -> tuple[list[int], tuple[int, ...]]:
    """Totals and winners from the engine's own score (its ranking with every tie-break)."""
    score = game.score(state)
    totals = [0] * len(score.seats)
    for seat_score in score.seats:
        totals[seat_score.seat] = seat_score.total
    return totals, score.ranking[0] if score.ranking else ()


def engine_rewards(game: Game, state: Any) -> list[float]:
    """The rewards from the engine's own score."""
    return outcome_rewards(*engine_outcome(game, state))


class EngineKernel:
    """The pure engine behind the kernel interface: `play` returns a new frozen state (the unchecked
    `transition`), rewards come from the full score."""

    def __init__(self, game: Game):
        self.game = game
        self.legal_moves = game.legal_moves
        self.play = game.transition

    def load(self, state: Any) -> Any:
        return state

    def to_act(self, state: Any) -> Sequence[int]:
        acting = self.game.to_act(state)
        return sorted(acting) if len(acting) > 1 else tuple(acting)

    def outcome(self, state: Any) -> tuple[list[int], tuple[int, ...]]:
        return engine_outcome(self.game, state)
