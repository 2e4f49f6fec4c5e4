"""What the command entry points share: where the service is (a target, or a local stack started for the
occasion), the arguments and the connecting of the commands that read the service's archive, parsing seat lists,
and printing that reaches a pipe or a pty at once."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

from clients import connection
from tabletop.client import Client, Seat, TabletopError

STRENGTHS = ("easy", "normal", "hard")
CONNECT_SECONDS = 4.0  # a command that connects gives up this soon, naming the target, when no service answers
DEFAULT_TARGET = "127.0.0.1:50051"  # where a command that starts no local stack looks when given no target
DEFAULT_LIMIT = 20


def say(*lines: str) -> None:
    """Print and flush (a pty or a pipe sees each line as it happens)."""
    for line in lines:
        print(line, flush=True)


# Starts a whole local stack and yields its target; given by the composition root (`tabletop play` without a
# target), since a client never starts servers itself. Its argument: quiet (say nothing while starting).
LocalStarter = Callable[[bool], AbstractContextManager[str]]


def given_target(target: str | None) -> str | None:
    """The game service address given: `target`, else TABLETOP_SERVICE_TARGET, else None (none was)."""
    return target or os.environ.get("TABLETOP_SERVICE_TARGET") or None


@contextlib.contextmanager
def service_target(target: str | None, quiet: bool = False, local: LocalStarter | None = None) -> Iterator[str]:
    """Yield the game service address: `target`, else TABLETOP_SERVICE_TARGET, else the target of a local stack
    that `local` starts for the occasion (and stops on the way out)."""
    target = given_target(target)
    if target:
        yield target
        return
    if local is None:
        raise SystemExit("no game service to talk to: give --target HOST:PORT or set TABLETOP_SERVICE_TARGET")
    with local(quiet) as started:
        yield started


def add_service_arguments(parser: argparse.ArgumentParser, identity: bool = True, limit: str = "") -> None:
    """--target and the connection flags of a command that reads the service's archive; with `limit` (what the
    command does with at most that many, e.g. "list at most this many games"), --limit before them."""
    if limit:
        parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help=f"{limit} (default: {DEFAULT_LIMIT})")
    parser.add_argument("--target", help=f"HOST:PORT of the game service (default: TABLETOP_SERVICE_TARGET, else "
                                         f"{DEFAULT_TARGET})")
    connection.add_arguments(parser, identity=identity)


def open_client(args: argparse.Namespace, command: str) -> Client | None:
    """A client of the service the arguments name, or None once it has said why there is none."""
    target = given_target(args.target) or DEFAULT_TARGET
    try:
        return connection.Connection.from_args(args).connect(target, wait=CONNECT_SECONDS)
    except TabletopError as error:
        fail(f"tabletop {command}: {error.message}")
    except ValueError as error:
        fail(f"tabletop {command}: {error}")
    return None


def connect_by_args(parser: argparse.ArgumentParser, argv: list[str],
                    command: str) -> tuple[argparse.Namespace, Client | None]:
    """The arguments of a command made by add_service_arguments (a --limit below 1 is an error of usage), and a
    client of the service they name (None once it has said why there is none)."""
    args = parser.parse_args(argv)
    if getattr(args, "limit", DEFAULT_LIMIT) < 1:
        parser.error("--limit must be at least 1")
    return args, open_client(args, command)


def parse_seats(text: str, name: str = "") -> list[Seat]:
    """`human,ai:normal,ai:hard` -> seats; "ai" alone is normal strength; the human seat gets `name`."""
    seats = []
    for raw in text.split(","):
        word = raw.strip().lower()
        if word == "human":
            seats.append(Seat.human(name))
        elif word == "ai" or word.startswith("ai:"):
            strength = word[3:] or "normal"
            if strength not in STRENGTHS:
                raise ValueError(f"unknown AI strength {strength!r} (choose from {', '.join(STRENGTHS)})")
            seats.append(Seat.ai(strength))
        else:
            raise ValueError(f"unknown seat {raw!r}: use human, ai, ai:easy, ai:normal or ai:hard")
    return seats


def fail(message: str) -> int:
    print(message, file=sys.stderr, flush=True)
    return 1

