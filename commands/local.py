"""The commands that may start a whole local stack when no service is named: `tabletop play` and `tabletop demo`
(and `tabletop bench wait`, bench/wait.py). The clients never start servers themselves; the composition root hands
them a starter (clients.session.LocalStarter)."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator

from clients.session import say


@contextlib.contextmanager
def local_stack(quiet: bool = False) -> Iterator[str]:
    """Redis, game service and AI worker as child processes, stopped on the way out; yields the service target."""
    from commands.launcher import LocalStack

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


def play(argv: list[str]) -> int:
    from clients.terminal import play_main

    return play_main(argv, local=local_stack)


def demo(argv: list[str]) -> int:
    from clients.demo import main

    return main(argv, local=local_stack)
