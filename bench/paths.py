"""Both paths in one run: a benchmark run again in child processes, compiled and pure alternated.

A benchmark given `--path both` (its default) runs itself once per path and round as a child process, the compiled
path with the environment as it is and the pure one with TABLETOP_PURE_PYTHON=1 (games.compiled), in the order
compiled, pure, pure, compiled, ... so that a load that drifts during the run weighs on both alike. Each child
prints its own lines (shown prefixed with its path) and one `FIGURES {json}` line of per-CPU-second rates; the
parent prints every figure's median per path and the ratio compiled / pure, and the same of each path's best run
(a load from outside only ever slows a run down). A child may also print a `CHECKS {json}`
line of values that every run of both paths must share (a search of a fixed budget: its move and root statistics);
the parent says whether they did, and fails the run if not."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys

from games import compiled

PATHS = ("compiled", "pure")
FIGURES = "FIGURES "
CHECKS = "CHECKS "


def add_arguments(parser) -> None:
    parser.add_argument("--path", choices=("both", "current"), default="both",
                        help="both: the compiled and the pure path alternated, each in a child process (default); "
                             "current: this process's path only (TABLETOP_PURE_PYTHON=1 for the pure one)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --path both: how many runs of each path, alternated (default 3: the median of "
                             "three passes over one run a load slowed down)")


def print_figures(figures: dict[str, float]) -> None:
    """The child's figures, for the parent to read (per CPU-second rates, by name)."""
    print(FIGURES + json.dumps(figures), flush=True)


def print_checks(checks: dict[str, str]) -> None:
    """Values every run of both paths must share, for the parent to compare (by name)."""
    print(CHECKS + json.dumps(checks), flush=True)


def run_both(module: str, argv: list[str], rounds: int) -> int | None:
    """Run `module`'s `main(argv + --path current)` once per path and round in child processes; print the
    medians. Returns None when there is only one path here (nothing compiled, or a stale build): the caller then
    runs its current path alone."""
    print(f"path here: {compiled.PATH}")
    if not compiled.COMPILED:
        print("only one path to run here; running it")
        return None
    results: dict[str, list[dict[str, float]]] = {path: [] for path in PATHS}
    checks: list[tuple[str, dict[str, str]]] = []
    order = [path for r in range(rounds) for path in (PATHS if r % 2 == 0 else PATHS[::-1])]
    code = f"import sys; from {module} import main; sys.exit(main(sys.argv[1:]))"
    for i, path in enumerate(order):
        env = dict(os.environ)
        env.pop(compiled.ENV, None)
        if path == "pure":
            env[compiled.ENV] = "1"
        load = os.getloadavg()[0]
        print(f"--- run {i + 1}/{len(order)}: {path} (load average {load:.2f})", flush=True)
        child = subprocess.run([sys.executable, "-c", code, *argv, "--path", "current"], env=env,
                               capture_output=True, text=True, check=False)
        for line in child.stdout.splitlines():
            if line.startswith(FIGURES):
                results[path].append(json.loads(line[len(FIGURES):]))
            elif line.startswith(CHECKS):
                checks.append((path, json.loads(line[len(CHECKS):])))
            else:
                print(f"  {path}: {line}")
        if child.returncode:
            print(child.stderr, file=sys.stderr)
            return child.returncode
    names = list(results["compiled"][0]) if results["compiled"] else []
    print(f"medians per CPU-second over {rounds} runs of each path (load average now {os.getloadavg()[0]:.2f}):")
    for name in names:
        medians = {path: statistics.median(run[name] for run in results[path]) for path in PATHS}
        best = {path: max(run[name] for run in results[path]) for path in PATHS}
        ratio = medians["compiled"] / medians["pure"] if medians["pure"] else float("nan")
        best_ratio = best["compiled"] / best["pure"] if best["pure"] else float("nan")
        print(f"  {name:24} compiled {medians['compiled']:>12,.0f}   pure {medians['pure']:>12,.0f}   "
              f"compiled/pure {ratio:.2f}x   (the best runs: {best['compiled']:,.0f} / {best['pure']:,.0f} = "
              f"{best_ratio:.2f}x)")
    return _compare_checks(checks)


def _compare_checks(checks: list[tuple[str, dict[str, str]]]) -> int:
    """0 when every run printed the same checks (or none did); else say where they differ, and 1."""
    if not checks:
        return 0
    first = checks[0][1]
    differ = [(i, path, found) for i, (path, found) in enumerate(checks) if found != first]
    if not differ:
        print(f"the same on both paths in all {len(checks)} runs: " + "; ".join(f"{k} {v}" for k, v in first.items()))
        return 0
    print(f"NOT the same on both paths: run 1 ({checks[0][0]}) {first}", file=sys.stderr)
    for i, path, found in differ:
        print(f"  run {i + 1} ({path}) {found}", file=sys.stderr)
    return 1
