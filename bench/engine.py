"""`tabletop bench engine`: random playouts and moves per second of one registered engine on one core: through the
public engine on frozen states (`legal_moves`, then the unchecked `transition`) and through the search's fast path
(the same rules on one working state, played on in place: games.base.Rules, as the search plays them: with the
cyclic garbage collector paused). The deals (`new_game`) are made off the clock, a batch at a time: a deal is not a
move, and its cost is the same on both paths (the public engine's, interpreted); its rate is printed apart."""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import time

from ai.ismcts import SearchConfig, _playout, collector_paused, outcome_rewards, rules_and_policy, search_rules
from bench import paths as both_paths
from games import compiled, registry

_UNIFORM = SearchConfig(game_policy=False)  # the search's playouts without a policy: uniform, to the end


_BATCH = 100  # deals made off the clock, then played on it


def working_playout(rules, searched, draw_chance, deal, rng: random.Random) -> int:
    """One random game from `deal` (a new game's frozen state) on a working state, played out as the search plays
    a determinization: its chance to come drawn from `rng` (`draw_chance`: the rules', or None where the game has
    none), then the search's own playout (compiled with it, through the rules as it calls them, `searched`: a
    uniform pick by `random()`), ending with the rewards from its outcome; return how many moves it took."""
    work = rules.thaw(deal)
    if draw_chance is not None:
        draw_chance(work, rng)
    moves = _playout(searched, work, _UNIFORM)
    outcome_rewards(*searched.outcome(work))
    return moves


def playout(game, state, rng: random.Random) -> int:
    """Play one game from `state` (a new game's) through the public engine on frozen states, with uniformly random
    moves picked as the search picks them (`random()`; `Random.choice` is interpreted, and would be timed as the
    engine's): the legal moves, then the unchecked `transition`; return how many moves it took."""
    to_act, legal_moves, apply = game.to_act, game.legal_moves, game.transition
    random_ = rng.random
    moves = 0
    while True:
        acting = to_act(state)
        if not acting:
            return moves
        seat = min(acting) if len(acting) > 1 else next(iter(acting))
        legal = legal_moves(state, seat)
        state = apply(state, seat, legal[int(random_() * len(legal))])
        moves += 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench engine", description=__doc__)
    parser.add_argument("--game", default="hinode", choices=registry.names(),
                        help="the rules engine to run (default hinode)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random playouts (default 1)")
    parser.add_argument("--seats", type=int, default=None, help="seat count (default: the maximum)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a game option, e.g. advanced=true (repeatable)")
    both_paths.add_arguments(parser)
    args = parser.parse_args(argv)
    if args.path == "both":
        code = both_paths.run_both("bench.engine", argv, args.rounds)
        if code is not None:
            return code
    game = registry.get(args.game)
    seats = args.seats or game.info.max_seats
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = json.loads(value)
    rng = random.Random(args.seed)
    print(f"game={args.game} seats={seats} options={json.dumps(options)}; path: {compiled.PATH}")
    rules, policy = rules_and_policy(game)
    searched = search_rules(rules, policy, _UNIFORM, rng)  # the game's policy off: uniform picks
    draw_chance = getattr(rules, "draw_chance", None)  # as ai.ismcts._grow finds it
    paths = [("engine", lambda deal: playout(game, deal, rng), contextlib.nullcontext),
             ("fast path", lambda deal: working_playout(rules, searched, draw_chance, deal, rng), collector_paused)]
    figures = {}
    deal_cpu = 0.0
    deals = 0
    for name, run, context in paths:
        games = moves = 0
        elapsed = cpu = 0.0
        while elapsed < args.seconds:
            began_cpu = time.process_time()
            batch = [game.new_game(seats, options, args.seed + games + i) for i in range(_BATCH)]
            deal_cpu += time.process_time() - began_cpu
            deals += _BATCH
            began, began_cpu = time.perf_counter(), time.process_time()
            with context():
                for deal in batch:
                    moves += run(deal)
            elapsed += time.perf_counter() - began
            cpu += time.process_time() - began_cpu
            games += _BATCH
            del batch
        print(f"{name}: seconds={elapsed:.2f} cpu={cpu:.2f} playouts/s={games / elapsed:.1f} "
              f"moves/s={moves / elapsed:.0f} (games={games} moves={moves})")
        # On a busy machine wall-clock rates understate the engine; per CPU-second rates do not.
        print(f"{name} per cpu-second: playouts/s={games / cpu:.1f} moves/s={moves / cpu:.0f}")
        figures[f"{name} moves"] = moves / cpu
    print(f"deals (new_game, off the clock above) per cpu-second: {deals / deal_cpu:.0f}")
    views, samples = _view_and_sample_rates(game, seats, options, args.seed, rng)
    print(f"views/s={views:.0f} samples/s={samples:.0f} (from random mid-game positions)")
    both_paths.print_figures(figures)
    return 0


def _view_and_sample_rates(game, seats: int, options: dict, seed: int, rng: random.Random) -> tuple[float, float]:
    """How many views and determinizations (the AI's per-iteration cost) the engine makes per second."""
    positions = []
    for g in range(20):
        state = game.new_game(seats, options, seed + g)
        for _ in range(rng.randrange(5, 30)):
            acting = game.to_act(state)
            if not acting:
                break
            seat = min(acting)
            state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        positions.append((state, min(game.to_act(state) or {0})))
    rounds = 200
    began = time.perf_counter()
    views = [game.view(state, seat) for _ in range(rounds) for state, seat in positions]
    view_rate = len(views) / (time.perf_counter() - began)
    began = time.perf_counter()
    for view in views[: len(positions) * rounds // 2]:
        game.sample(view, rng)
    sample_rate = len(positions) * rounds // 2 / (time.perf_counter() - began)
    return view_rate, sample_rate
