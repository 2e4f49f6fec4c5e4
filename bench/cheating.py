"""The arena's cheating baseline: the same ISMCTS, given the true state instead of a seat's view.

It measures what not peeking costs: `tabletop arena --players ismcts:normal,cheat:normal` plays our honest search
against the same search at the same budget that knows every hand. What nobody at the table knows stays unknown to
it too: every iteration reshuffles the cards no seat has seen (the River piles below their top cards in Naishi;
the proxies' piles and the removed cards in Hinode), and a new seed draws the chance events still to come.

Arena only. The AI worker never imports this module (tests/bench/test_cheating.py checks it), and nothing here can
be reached from a view: `CheatingPlayer` needs the engine's state, which only the arena holds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ai import ismcts
from games import registry
from games.base import Game, Move


class _Clairvoyant:
    """The engine, except that its "determinizations" are the true state with only the unknown cards reshuffled."""

    def __init__(self, game: Game, state: Any):
        self._game = game
        self._state = state
        self._truth = clairvoyance(game.info.name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def sample(self, view: Any, rng: random.Random) -> Any:
        return self._truth(self._state, rng)

    def sample_work(self, view: Any, rng: random.Random) -> Any:
        # The search plays each iteration on `sample_work`. Left to `__getattr__`, it would be the game's own, bound
        # to the game: an honest draw from the view, and the baseline no baseline at all. `Game`'s default, called
        # on this wrapper, thaws this `sample`: the truth.
        return Game.sample_work(self, view, rng)  # type: ignore[arg-type]  # a Game by delegation


class CheatingPlayer:
    """ISMCTS on the true state (arena only): the baseline that shows what hidden information costs."""

    needs_state = True  # the arena hands it the state, not just the view

    def __init__(self, budget: ismcts.Budget, name: str = "cheat"):
        self.name = name
        self.budget = budget

    def choose_with_state(
        self, game: Game, state: Any, seat: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        if not isinstance(state, game.state_type):
            raise TypeError(f"the cheating baseline needs the {game.state_type.__name__}, not a {type(state).__name__}")
        if len(moves) == 1:
            return moves[0]
        clairvoyant = _Clairvoyant(game, state)
        result = ismcts.search(clairvoyant, game.view(state, seat), seat, self.budget, rng)
        return next(m for m in moves if m.id == result.move.id)


def clairvoyance(game_name: str) -> Callable[[Any, random.Random], Any] | None:
    """The game's (true state, rng) -> the state with only what no seat knows drawn anew, if it declares one."""
    reference = registry.descriptor(game_name).clairvoyance
    return registry.resolve(reference) if reference else None


def make_cheater(game_name: str, strength: str, spec: str) -> CheatingPlayer:
    if clairvoyance(game_name) is None:
        able = [name for name in registry.names() if clairvoyance(name)]
        raise ValueError(f"no cheating baseline for {game_name} (it has one for: {', '.join(able)})")
    return CheatingPlayer(ismcts.parse_budget(strength or "normal"), name=spec)
