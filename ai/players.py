"""Baseline players for the arena and tests: the Player protocol, a uniform random player and greedy ones.

A player sees only its view and its legal moves. `make_player` knows "random" and the baselines each game's
descriptor names ("greedy"); the arena builds "ismcts:<strength>" players itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from games import registry
from games.base import Game, Move


class Player(Protocol):
    name: str

    def choose(self, game: Game, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        """Pick one of `moves` (never empty) knowing only `view`."""


class RandomPlayer:
    """Uniformly random among the legal moves."""

    name = "random"

    def choose(self, game: Game, view: Any, moves: Sequence[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))]


def make_player(spec: str, game_name: str) -> Player:
    """The player a spec names: "random" or one of the game's baselines; raise ValueError for anything else."""
    if spec == "random":
        return RandomPlayer()
    try:
        baselines = registry.descriptor(game_name).baselines
    except registry.UnknownGame:
        raise ValueError(f"unknown game {game_name!r}") from None
    if spec in baselines:
        return registry.resolve(baselines[spec])()
    raise ValueError(f"unknown player spec {spec!r} for {game_name} (known here: {', '.join(['random', *baselines])})")
