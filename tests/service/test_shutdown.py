"""A replica's shutdown always ends: a step that hangs is logged by name and left behind after its bound."""

from __future__ import annotations

import asyncio

import pytest

from service import server
from tests.support.clock import run_in_virtual_time


def test_a_hanging_shutdown_step_is_left_after_its_bound(monkeypatch):
    warned: list[dict] = []
    monkeypatch.setattr(server.logs.log, "warning", lambda event, **fields: warned.append({"event": event, **fields}))

    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await server._bounded("stuck", asyncio.Event().wait(), grace=0.1)
        left_after = loop.time() - started
        await server._bounded("quick", asyncio.sleep(0))
        return left_after

    # In virtual time: the bound itself is measured, and waited for in no time.
    assert run_in_virtual_time(scenario()) == pytest.approx(0.1 + server.STOP_STEP_SECONDS)
    assert [w["step"] for w in warned] == ["stuck"]
