"""The `tabletop` command: the composition root. It parses only the subcommand, then imports its entry point
lazily, so `tabletop bench engine` never loads gRPC and `tabletop serve` never loads the AI."""

from __future__ import annotations

import importlib
import os
import sys

# subcommand -> ("module:function", one-line help). Each function takes the remaining argv and returns an exit code.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("commands.run:main", "start the whole stack locally: Redis and PostgreSQL (embedded unless URLs are "
                                      "given), the game service, the archive writer and the AI worker"),
    "token": ("commands.token:main", "mint a player's signed identity for the local stack, with a sign-in link to "
                                      "the web table"),
    "serve": ("service.server:main", "run the gRPC game service"),
    "archive-writer": ("service.archive.writer:main", "store finished games in PostgreSQL (TABLETOP_DATABASE_URL), "
                                                       "each exactly once"),
    "forget-player": ("service.archive.forget:main", "delete a player's data on request: anonymise their archived "
                                                      "games, remove their ratings, unbind their live games"),
    "gateway": ("gateway.server:main", "run the gRPC-Web gateway for browsers (and the web table)"),
    "ai-worker": ("ai.worker:main", "run the AI worker (job consumer and AIService for suggestions)"),
    "arena": ("bench.arena:main", "play many games between players on the engines and print win rates"),
    "seed-ratings": ("bench.seed_ratings:main", "seed the AI strengths' ratings from arena game records "
                                                 "(tabletop arena --record)"),
    "play": ("commands.local:play", "play a game in the terminal against AI seats"),
    "watch": ("clients.terminal:watch_main", "follow a game as a spectator"),
    "demo": ("commands.local:demo", "play an all-AI game from start to end"),
    "history": ("clients.history:history_main", "list a player's finished games (yours, or another's public ones)"),
    "replay": ("clients.history:replay_main", "step through a finished game, every hidden card revealed"),
    "ratings": ("clients.ratings:ratings_main", "print a player's ratings, one per game type (yours, or another's)"),
    "leaderboard": ("clients.ratings:leaderboard_main", "print a game type's leaderboard, best rating first"),
    "bench": ("commands.bench:main", "benchmarks: engine, ai, load, watch, flood, chaos, wait, gateway, archive, "
                                             "openspiel"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: tabletop COMMAND [ARGS...]", "       tabletop --version", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "Run `tabletop COMMAND --help` for the arguments of a command."]
    return "\n".join(lines)


def version() -> str:
    """The installed package's version (importlib.metadata), or "unknown" from a tree that is not installed."""
    from importlib import metadata

    try:
        return metadata.version("tabletop")
    except metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"tabletop {version()}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"tabletop: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    from tabletop import settings

    try:
        settings.load_game_modules(os.environ)
    except settings.ConfigError as exc:
        print(f"tabletop {name}: {exc}", file=sys.stderr)
        return 2
    target = COMMANDS[name][0]
    module_name, func_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            print(f"tabletop {name}: not built yet ({module_name} does not exist)", file=sys.stderr)
            return 3
        raise
    return int(getattr(module, func_name)(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
