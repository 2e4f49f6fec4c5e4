"""Root parallelism: independent ISMCTS trees in forked processes, their root statistics summed."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from ai.search.forked import run_forked
from games.base import Game


def root_parallel_search(
    game: Game, view: Any, seat: int, budget: Any, rng: random.Random, config: Any
) -> tuple[dict[str, tuple[int, float, float]], int]:
    """Split the iteration budget over `config.processes` trees; return summed root stats (visits, total reward,
    wins) and iterations."""
    from ai.ismcts import Budget, root_statistics

    workers = config.processes
    seeds = [rng.getrandbits(64) for _ in range(workers)]
    share = None if budget.iterations is None else -(-budget.iterations // workers)
    part = Budget(iterations=share, seconds=budget.seconds)
    single = dataclasses.replace(config, processes=1, nice=0)

    def task(seed: int):
        return lambda: list(root_statistics(game, view, seat, part, random.Random(seed), single))

    merged: dict[str, tuple[int, float, float]] = {}
    iterations = 0
    for stats, count in run_forked([task(s) for s in seeds], nice=config.nice):
        iterations += count
        for move_id, (visits, total, wins) in stats.items():
            v, t, w = merged.get(move_id, (0, 0.0, 0.0))
            merged[move_id] = (v + visits, t + total, w + wins)
    return merged, iterations
