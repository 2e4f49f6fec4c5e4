"""What the command entry points share: where the service is (a target, or a local stack started for the
occasion), parsing seat lists, and printing that reaches a pipe or a pty at once."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator

from clients.sdk import Seat

STRENGTHS = ("easy", "normal", "hard")


def say(*lines: str) -> None:
    """Print and flush (a pty or a pipe sees each line as it happens)."""
    for line in lines:
        print(line, flush=True)


@contextlib.contextmanager
def service_target(target: str | None, quiet: bool = False) -> Iterator[str]:
    """Yield the game service address: `target`, else TABLETOP_SERVICE_TARGET, else a local stack (Redis, game
    service and AI worker as child processes) started here and stopped on the way out."""
    target = target or os.environ.get("TABLETOP_SERVICE_TARGET")
    if target:
        yield target
        return
    from tabletop.launcher import LocalStack  # the composition root's launcher, only for the self-contained mode

    if not quiet:
        say("Starting a local Tabletop (Redis, game service, AI worker)...")
    with tempfile.TemporaryDirectory(prefix="tabletop-play-") as data_dir:  # Redis's files go with the stack
        stack = LocalStack(data_dir=data_dir)
        try:
            stack.start()
        except Exception as exc:  # noqa: BLE001 - reported as a message, not a traceback
            stack.stop()
            raise SystemExit(f"could not start the local stack: {exc}") from None
        try:
            yield stack.target
        finally:
            stack.stop()


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

