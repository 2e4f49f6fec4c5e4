"""Clocks for tests whose subject is time (deadlines, holds, leases, windows), so that they neither wait real
seconds nor depend on how loaded the machine is.

- `run_in_virtual_time(coro)`: asyncio code on an event loop whose clock is virtual. When nothing is ready to run,
  the clock jumps to the next timer instead of waiting for it: `await asyncio.sleep(30)` takes no real time, and
  every timer, `asyncio.timeout` and `wait_for` of the code under test keeps the same order as in real time. For
  code that does no I/O of its own (a real socket's answer would come after any jump).
- `MovableClock`: a `time.time` the test moves forward, for code that takes its clock as a parameter.
- `redis_ms`: Redis's own clock, which the code under test cannot be handed another of (lease expiries, stream
  entry ids): a test makes something old by dating it back on that clock.
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):
    """The loop's selector, asked to wait `timeout` seconds for I/O (until its next timer is due): it only polls,
    and if nothing came, moves the virtual clock to that timer."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list:
        if not timeout:  # 0: a poll; None: no timer at all, so only another thread can wake the loop, as in real
            return super().select(timeout)
        events = super().select(0)
        if not events:
            self.now += timeout
        return events


class VirtualClockLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self._jumping = _JumpingSelector()
        super().__init__(self._jumping)

    def time(self) -> float:
        return self._jumping.now


def run_in_virtual_time(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coro)` on a VirtualClockLoop."""
    with asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        return runner.run(coro)


class MovableClock:
    """Wall-clock time (`time.time()`) shifted by as much as the test moved it on; it runs on with real time
    between the moves, as the clock it stands for would."""

    def __init__(self, start: float) -> None:
        self._shift = start - time.time()

    def __call__(self) -> float:
        return time.time() + self._shift

    def advance(self, seconds: float) -> None:
        self._shift += seconds


def redis_ms(client) -> int:
    """Redis's clock (TIME), in milliseconds, read with a synchronous redis-py client."""
    seconds, micros = client.time()
    return seconds * 1000 + micros // 1000
