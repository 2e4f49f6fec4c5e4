"""TEMPORARY, deleted once every game writes its rules once (issue 25): the search's view of a game that has not
moved to `games.base.Rules` yet, from its old playout kernel or its engine."""

from __future__ import annotations

import importlib
from typing import Any

from games import registry
from games.base import Game, PlayoutPolicy


class _Box:
    __slots__ = ("state",)

    def __init__(self, state: Any):
        self.state = state


class EngineRules:
    def __init__(self, game: Game):
        self.game = game

    def thaw(self, state: Any) -> _Box:
        return _Box(state)

    def freeze(self, box: _Box) -> Any:
        return box.state

    def to_act(self, box: _Box) -> tuple[int, ...]:
        return tuple(sorted(self.game.to_act(box.state)))

    def legal_moves(self, box: _Box, seat: int):
        return self.game.legal_moves(box.state, seat)

    def play(self, box: _Box, seat: int, move) -> None:
        box.state = self.game.transition(box.state, seat, move)

    def outcome(self, box: _Box):
        score = self.game.score(box.state)
        totals = [0] * len(score.seats)
        for seat_score in score.seats:
            totals[seat_score.seat] = seat_score.total
        return totals, score.ranking[0] if score.ranking else ()


class KernelRules:
    def __init__(self, kernel: Any):
        self.thaw = kernel.load
        self.to_act = kernel.to_act
        self.legal_moves = kernel.legal_moves
        self.play = kernel.play  # the old kernels change their playout state in place
        self.outcome = kernel.outcome


def rules_and_policy(game: Game) -> tuple[Any, PlayoutPolicy | None]:
    rules = getattr(game, "rules", None)
    try:
        descriptor = registry.descriptor(game.info.name)
    except registry.UnknownGame:
        descriptor = None
    if rules is not None:
        reference = descriptor.playout if descriptor else None
        return rules, registry.resolve(reference) if reference else None
    kernel = registry.resolve(descriptor.kernel) if descriptor and descriptor.kernel else None
    if kernel is None:
        return EngineRules(game), None
    # The kernel's module-level policy takes `random_` as PlayoutPolicy.choose does: no wrapper on the hot path.
    own = getattr(importlib.import_module(type(kernel).__module__), "playout_policy", None)
    policy = None
    if own is not None:
        policy = PlayoutPolicy(own, bool(getattr(kernel, "policy_opponents", False)))
    return KernelRules(kernel), policy
