"""`tabletop bench ai`: ISMCTS iterations per second on one core, from the opening and from a mid-game position.

By default each search runs for `--seconds`; with `--iterations N` each runs N iterations instead, so that the
compiled and the pure path make the same search (the same seed: the same tree, the same move) and their
CPU-seconds compare the same work. In a timed search the faster path grows a bigger tree, whose iterations cost
more (docs/benchmarks.md, *Tenth step*)."""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import sys
import time

from ai import ismcts
from bench import paths as both_paths
from bench.arena import load_game
from games import compiled


def _positions(game, seats: int, seed: int):
    """The opening and a position halfway through a random game, each with a seat to act."""
    rng = random.Random(seed)
    opening = game.new_game(seats, {}, seed)
    trail = [opening]
    state = opening
    while game.to_act(state):
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        state = game.apply(state, seat, rng.choice(moves))
        trail.append(state)
    middle = trail[len(trail) // 2]
    # Prefer a mid-game position where the seat to act has a real choice.
    for candidate in trail[len(trail) // 2 :]:
        acting = game.to_act(candidate)
        if acting and len(game.legal_moves(candidate, min(acting))) > 1:
            middle = candidate
            break
    return [("opening", opening), ("mid-game", middle)], len(trail) - 1


def _bare_playouts(game, rules, state, seed: int, seconds: float) -> tuple[float, float]:
    """Random playouts per second from `state`'s determinizations, on the game's working state as the search plays
    them: what one iteration cannot beat."""
    rng = random.Random(seed)
    seat = min(game.to_act(state))
    view = game.view(state, seat)
    count = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        work = game.sample_work(view, rng)
        while acting := rules.to_act(work):
            seat = acting[0]
            legal = rules.legal_moves(work, seat)
            rules.play(work, seat, legal[int(rng.random() * len(legal))])
            moves += 1
        ismcts.outcome_rewards(*rules.outcome(work))
        count += 1
    return count / (time.perf_counter() - started), moves / max(count, 1)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench ai", description=__doc__)
    parser.add_argument("--game", default="hinode", help="the game to search (default hinode)")
    parser.add_argument("--seats", type=int, default=None, help="default: the game's most seats")
    parser.add_argument("--seconds", type=float, default=3.0, help="search time per position")
    parser.add_argument("--iterations", type=int, default=None,
                        help="instead of --seconds: N iterations per position, the same search on both paths "
                             "(their moves and root statistics are compared)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the random game the positions come from and of the search (default 1)")
    parser.add_argument("--playout-depth", type=int, default=None,
                        help="moves a playout makes before it is scored (default: the search's own)")
    parser.add_argument("--profile", action="store_true", help="print the hottest functions of the opening search")
    parser.add_argument("--throughput", type=int, default=0, metavar="JOBS",
                        help="instead: time JOBS searches at --strength from positions of random games, as the "
                             "worker makes them, once per --processes count, and print jobs/s")
    parser.add_argument("--processes", default="1,2", help="process counts for --throughput, e.g. 1,2,4")
    parser.add_argument("--strength", default="normal", help="the budget of each --throughput search")
    parser.add_argument("--random-playouts", action="store_true",
                        help="uniformly random playouts, not the game's playout policy (to compare the two)")
    both_paths.add_arguments(parser)
    args = parser.parse_args(argv)
    if args.path == "both" and not args.throughput and not args.profile:
        code = both_paths.run_both("bench.ai", argv, args.rounds)
        if code is not None:
            return code
    try:
        game = load_game(args.game)
    except KeyError:
        print(f"unknown game {args.game!r}", file=sys.stderr)
        return 2
    seats = args.seats or game.info.max_seats
    if args.throughput:
        return _throughput(game, seats, args)
    positions, length = _positions(game, seats, args.seed)
    print(f"{game.info.title}, {seats} seats; a random game from seed {args.seed} lasts {length} moves; "
          f"path: {compiled.PATH}")
    config = ismcts.SearchConfig(playout_depth=args.playout_depth, game_policy=not args.random_playouts)
    rules, policy = ismcts.rules_and_policy(game)
    rate, length_ = _bare_playouts(game, rules, positions[0][1], args.seed, min(args.seconds, 2.0))
    playouts = "random" if args.random_playouts or policy is None else "the game's policy"
    print(f"playouts: {playouts}; ceiling: {rate:,.0f} bare random playouts/s from the opening "
          f"(sample, play out, reward; no tree); {length_:.0f} moves each")
    figures: dict[str, float] = {}
    checks: dict[str, str] = {}
    for name, state in positions:
        seat = min(game.to_act(state))
        view = game.view(state, seat)
        budget = ismcts.Budget(iterations=args.iterations) if args.iterations else ismcts.Budget(seconds=args.seconds)
        # Warmed first (untimed): a process's first search fills the caches that every later one finds full
        # (tables built on first use, the interpreter's specialised instructions), which a worker pays once.
        ismcts.search(game, view, seat, ismcts.Budget(iterations=100), random.Random(args.seed + 1), config)
        if args.profile and name == "opening":
            profiler = cProfile.Profile()
            profiler.enable()
        cpu = time.process_time()
        result = ismcts.search(game, view, seat, budget, random.Random(args.seed), config)
        cpu = time.process_time() - cpu
        if args.profile and name == "opening":
            profiler.disable()
            pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
        rate = result.iterations / result.seconds if result.seconds else 0.0
        print(
            f"{name:9} seat {seat}: {result.iterations} iterations in {result.seconds:.2f} s = {rate:,.0f} "
            f"iterations/s ({result.iterations / cpu if cpu else 0.0:,.0f} per cpu-second); "
            f"{len(result.candidates)} candidates; best {result.move.label!r}"
        )
        figures[f"{name} iterations"] = result.iterations / cpu if cpu else 0.0
        if args.iterations:
            checks[f"{name} search"] = search_digest(result)
    both_paths.print_figures(figures)
    if checks:
        both_paths.print_checks(checks)
    return 0


def search_digest(result: ismcts.SearchResult) -> str:
    """The move and every candidate's visits and mean reward (exactly, as repr), as a short digest: two searches
    with the same digest made the same tree's root."""
    stats = ";".join(f"{c.move_id}={c.visits}/{c.mean_reward!r}" for c in result.candidates)
    return f"{result.move.id} {hashlib.sha256(stats.encode()).hexdigest()[:16]}"


def _throughput(game, seats: int, args: argparse.Namespace) -> int:
    """Searches per second with 1, 2, ... processes per search (the worker's TABLETOP_AI_PROCESSES)."""
    budget = ismcts.parse_budget(args.strength)
    rng = random.Random(args.seed)
    jobs = []  # (view, seat) of positions where the seat has a real choice, from a few random games
    game_seed = args.seed
    while len(jobs) < args.throughput:
        state = game.new_game(seats, {}, game_seed)
        game_seed += 1
        while (acting := game.to_act(state)) and len(jobs) < args.throughput:
            seat = min(acting)
            moves = game.legal_moves(state, seat)
            if len(moves) > 1 and rng.random() < 0.3:
                jobs.append((game.view(state, seat), seat))
            state = game.apply(state, seat, rng.choice(moves))
    print(f"{game.info.title}, {seats} seats: {len(jobs)} searches at {args.strength} ({budget}) from random games; "
          f"path: {compiled.PATH}")
    for count in (int(p) for p in args.processes.split(",")):
        config = ismcts.SearchConfig(processes=count)
        began, began_cpu = time.perf_counter(), time.process_time()
        iterations = 0
        for i, (view, seat) in enumerate(jobs):
            iterations += ismcts.search(game, view, seat, budget, random.Random(i), config).iterations
        elapsed, cpu = time.perf_counter() - began, time.process_time() - began_cpu
        # CPU time is this process's: with one process it is what a search costs a core however busy the machine
        print(f"processes={count}: {len(jobs) / elapsed:.2f} jobs/s, {iterations / elapsed:,.0f} iterations/s "
              f"({elapsed:.1f} s); this process: {cpu / len(jobs):.3f} CPU-s a search")
    return 0
