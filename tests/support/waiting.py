"""Waiting for something another thread or process does (a server, Redis, a worker), where no event of it reaches
the test: poll the condition itself, and go on the moment it holds. A fixed sleep would be too long on a quiet
machine and too short on a loaded one."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
POLL_SECONDS = 0.02


def wait_until(condition: Callable[[], T], timeout: float, what: str) -> T:
    """The first true value of `condition()`, called until it gives one; AssertionError naming `what` once
    `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(POLL_SECONDS)


async def wait_until_async(condition: Callable[[], T], timeout: float, what: str) -> T:
    """`wait_until` for a coroutine: the event loop goes on between the looks."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        await asyncio.sleep(POLL_SECONDS)
