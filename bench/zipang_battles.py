"""What a coin of lead is worth at the end of a Zipang battle (two seats): `games.zipang.rules.BATTLE_VALUE`.

The playout policy plays itself from fresh games; at the end of every battle (the next one dealt, its coins paid
in) the lead in coins is noted, and at the game's end whether the first seat won. The table gives the first seat's
share of wins from each lead, and the fit the `k` of `1 / (1 + e^(-k x lead))` that the search's `episode_outcome`
uses (least squares, weighted by how often each lead was met). Seeded: the same games each run.

    python -m bench.zipang_battles [--games 4000] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict

from games import registry
from games.zipang import rules
from games.zipang.policy import POLICY


def leads(games: int, seed: int) -> dict[int, tuple[int, float]]:
    """{lead of the first seat at a battle's end: (battles ended so, games the first seat then won)}."""
    game = registry.get("zipang")
    seen: dict[int, list[float]] = defaultdict(lambda: [0, 0.0])
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        work = rules.thaw(game.new_game(2, {}, rng.randrange(2**31)))
        rules.draw_chance(work, rng)
        battle, marks = work.battle, []
        while acting := rules.to_act(work):
            seat = acting[0]
            rules.play(work, seat, POLICY.choose(work, seat, rules.legal_moves(work, seat), rng.random))
            if work.battle != battle:
                marks.append(work.coins[0] - work.coins[1])
                battle = work.battle
        _, winners = rules.outcome(work)
        won = 1.0 / len(winners) if 0 in winners else 0.0
        for lead in marks:
            seen[lead][0] += 1
            seen[lead][1] += won
    return {lead: (int(n), w) for lead, (n, w) in seen.items()}


def fit(table: dict[int, tuple[int, float]]) -> float:
    """The k of the logistic that fits the table best (weighted least squares, to 0.01)."""
    def error(k: float) -> float:
        return sum(n * (w / n - 1 / (1 + math.exp(-k * lead))) ** 2 for lead, (n, w) in table.items())

    return min((k / 100 for k in range(1, 200)), key=error)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.zipang_battles", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    table = leads(args.games, args.seed)
    k = fit(table)
    print(f"{args.games} games of the playout policy against itself, seed {args.seed}")
    print("lead  battles  first seat won  fit")
    for lead in sorted(table):
        n, w = table[lead]
        print(f"{lead:+4d}  {n:7d}  {w / n:14.3f}  {1 / (1 + math.exp(-k * lead)):.3f}")
    print(f"k = {k:.2f} (games.zipang.rules.BATTLE_VALUE = {rules.BATTLE_VALUE})")


if __name__ == "__main__":
    main()
