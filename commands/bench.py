"""`tabletop bench KIND`: benchmark scripts that print figures (never timed assertions in tests). They live in the
package of their own, bench/, imported only once the kind is known."""

from __future__ import annotations

import argparse
import importlib

KINDS = {
    "engine": ("bench.engine:main", "random playouts and moves per second of a rules engine on one core"),
    "ai": ("bench.ai:main", "ISMCTS iterations per second from the opening and from a mid-game position"),
    "load": ("bench.load:main", "concurrent games through the service: moves/s, p50/p99, vs an echo floor"),
    "watch": ("bench.watch:main", "players' latency alone and with thousands of WatchGame streams open"),
    "flood": ("bench.flood:main", "an honest player's AI replies alone and while another caller floods "
                                            "all-AI hard games and SuggestMove calls"),
    "chaos": ("bench.chaos:main", "games under load while AI workers and Redis are killed; then every game "
                                     "checked against the replay of its log"),
    "wait": ("bench.wait:main", "how long a person waits for the AI seats after a move, and for a hint"),
    "gateway": ("bench.gateway:main", "the browser path: moves/s through the gRPC-Web gateway vs native"),
    "archive": ("bench.archive:main", "the archive writer: games/s per writer CPU-second, the rating update's CPU "
                                      "cost, a stalled PostgreSQL's backlog and drain"),
    "openspiel": ("bench.openspiel:main", "OpenSpiel's C++ ISMCTS on hearts, the yardstick for `bench ai` (needs "
                                          "pip install open_spiel)"),
}


def parser() -> argparse.ArgumentParser:
    kinds = "\n".join(f"  {kind:8} {help_}" for kind, (_, help_) in KINDS.items())
    parser = argparse.ArgumentParser(
        prog="tabletop bench", description="Run a benchmark: it prints figures (bench/).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"benchmarks:\n{kinds}\n\nRun `tabletop bench KIND --help` for the arguments of one.")
    parser.add_argument("kind", choices=KINDS, metavar="KIND", help="the benchmark to run: " + ", ".join(KINDS))
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="the benchmark's own arguments")
    return parser


def main(argv: list[str]) -> int:
    # parse_known_args: what follows the kind is the benchmark's own to parse (and to check, in the docs' tests)
    args, unknown = (command := parser()).parse_known_args(argv)
    if unknown:
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    module_name, func = KINDS[args.kind][0].split(":")
    return int(getattr(importlib.import_module(module_name), func)(args.args) or 0)
