"""The tests' clocks (tests/support/clock.py) do what the tests that lean on them assume."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.support.clock import MovableClock, run_in_virtual_time


def test_virtual_time_jumps_to_each_timer_in_order_and_takes_no_real_time():
    async def scenario() -> tuple[list[tuple[str, float]], float]:
        loop = asyncio.get_running_loop()
        started = loop.time()
        fired: list[tuple[str, float]] = []
        loop.call_later(7200, lambda: fired.append(("call_later", loop.time() - started)))

        async def sleeper(name: str, seconds: float) -> None:
            await asyncio.sleep(seconds)
            fired.append((name, loop.time() - started))

        await asyncio.gather(sleeper("hour", 3600), sleeper("minute", 60), sleeper("now", 0))
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(5):
                await asyncio.Event().wait()  # never set: only the timeout ends it
        fired.append(("timeout", loop.time() - started))
        await asyncio.sleep(7200)
        return fired, loop.time() - started

    began = time.monotonic()
    fired, elapsed = run_in_virtual_time(scenario())
    assert time.monotonic() - began < 5
    assert fired == [("now", 0), ("minute", 60), ("hour", 3600), ("timeout", 3605), ("call_later", 7200)]
    assert elapsed == 3605 + 7200


def test_virtual_time_stands_still_while_there_is_work_to_run():
    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        for _ in range(1000):
            await asyncio.sleep(0)
        return loop.time() - started

    assert run_in_virtual_time(scenario()) == 0


def test_a_movable_clock_runs_with_real_time_and_jumps_when_moved():
    clock = MovableClock(1_000_000.0)
    first = clock()
    assert 1_000_000.0 <= first < 1_000_001.0
    clock.advance(60)
    assert first + 60 <= clock() < first + 61
