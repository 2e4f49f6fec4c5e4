"""What the command entry points share: where the service is (a target, or a local stack started for the
occasion), parsing seat lists, and printing that reaches a pipe or a pty at once."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

from tabletop.client import Seat

STRENGTHS = ("easy", "normal", "hard")
CONNECT_SECONDS = 4.0  # a command that connects gives up this soon, naming the target, when no service answers


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

