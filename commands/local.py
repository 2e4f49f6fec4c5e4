"""The commands that may start a whole local stack when no service is named: `tabletop play` and `tabletop demo`
(and `tabletop bench wait`, bench/wait.py). The clients never start servers themselves; the composition root hands
them a starter (clients.session.LocalStarter)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from clients.session import say
from tabletop.stack.launcher import local_stack as _local_stack


@contextlib.contextmanager
def local_stack(quiet: bool = False) -> Iterator[str]:
    """The local stack (tabletop.stack), announced as the terminal client says things."""
    with _local_stack(quiet, say) as target:
        yield target


def play(argv: list[str]) -> int:
    from clients.terminal import play_main

    return play_main(argv, local=local_stack)


def demo(argv: list[str]) -> int:
    from clients.demo import main

    return main(argv, local=local_stack)
