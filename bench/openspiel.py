"""`tabletop bench openspiel`: OpenSpiel's C++ ISMCTS on hearts with random rollouts, its simulations per CPU-second
at the opening (the pass), the first trick and mid-game: the yardstick beside which docs/benchmarks.md puts our
search's iterations (issue 29). It needs OpenSpiel's Python package, which is no dependency of ours: install it
where you run this (`pip install open_spiel`, in the project's venv or one of its own: it has no other use here)."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

PHASES = (("opening (the pass)", 0), ("first trick", 1), ("mid-game", 24))  # card plays made before the position


def position(game: Any, rng: random.Random, plays: int) -> Any:
    """A hearts state at a decision with more than one legal move, after `plays` card plays (chance and the moves
    drawn by `rng`); 0 plays: the first pass."""
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        legal = state.legal_actions()
        passing = "Pass" in state.action_to_string(legal[0])
        if played >= plays and len(legal) > 1 and (plays == 0 or not passing):
            return state
        state.apply_action(rng.choice(legal))
        played += not passing
    raise RuntimeError("the game ended before the position")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench openspiel", description=__doc__)
    parser.add_argument("--simulations", type=int, default=5000, help="ISMCTS simulations per search (default 5000)")
    parser.add_argument("--positions", type=int, default=5, help="positions per phase (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the positions and of the bots (default 1)")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        parser.error("OpenSpiel is not installed here: pip install open_spiel (no dependency of ours; see --help)")
    game = pyspiel.load_game("hearts")
    rng = random.Random(args.seed)
    print(f"OpenSpiel {getattr(pyspiel, '__version__', '')} ISMCTSBot on hearts: random rollouts (1 per leaf), "
          f"uct_c 2.0, {args.simulations} simulations per search, CPU time of the search alone")
    for name, plays in PHASES:
        rates = []
        for i in range(args.positions):
            state = position(game, rng, plays)
            bot = pyspiel.ISMCTSBot(args.seed + i, pyspiel.RandomRolloutEvaluator(1, args.seed + i), 2.0,
                                    args.simulations, -1, pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                                    False, False)
            began = time.process_time()
            bot.step(state)
            rates.append(args.simulations / (time.process_time() - began))
        print(f"  {name:20} {statistics.median(rates):>9,.0f} simulations per CPU-second "
              f"(median of {args.positions}; {min(rates):,.0f}-{max(rates):,.0f})")
    return 0
