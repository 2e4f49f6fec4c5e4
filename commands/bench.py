"""`tabletop bench KIND`: benchmark scripts that print figures (never timed assertions in tests). They live in the
package of their own, bench/, imported only once the kind is known."""

from __future__ import annotations

import importlib
import sys

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
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in KINDS:
        print("usage: tabletop bench {" + ",".join(KINDS) + "} [ARGS...]", file=sys.stderr)
        for k, (_, h) in KINDS.items():
            print(f"  {k:7} {h}", file=sys.stderr)
        return 2
    module_name, func = KINDS[argv[0]][0].split(":")
    return int(getattr(importlib.import_module(module_name), func)(argv[1:]) or 0)
