"""Baseline players for the arena and tests: the Player protocol, a uniform random player and greedy ones.

A player sees only its view and its legal moves. `make_player` knows "random" and "greedy" (per game, from
ai.greedy.GREEDY); the arena builds "ismcts:<strength>" players itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

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
    """The player a spec names: "random" or "greedy"; raise ValueError for anything else."""
    if spec == "random":
        return RandomPlayer()
    if spec == "greedy":
        from ai.greedy import GREEDY

        if game_name not in GREEDY:
            raise ValueError(f"no greedy player for {game_name!r} (known: {', '.join(sorted(GREEDY))})")
        return GREEDY[game_name]()
    raise ValueError(f"unknown player spec {spec!r} (known here: random, greedy)")
