"""A replica's shutdown always ends: a step that hangs is logged by name and left behind after its bound."""

from __future__ import annotations

import asyncio
import time

from service import server


def test_a_hanging_shutdown_step_is_left_after_its_bound(monkeypatch):
    monkeypatch.setattr(server, "STOP_STEP_SECONDS", 0.05)
    warned: list[dict] = []
    monkeypatch.setattr(server.logs.log, "warning", lambda event, **fields: warned.append({"event": event, **fields}))

    async def scenario() -> float:
        started = time.perf_counter()
        await server._bounded("stuck", asyncio.Event().wait(), grace=0.1)
        await server._bounded("quick", asyncio.sleep(0))
        return time.perf_counter() - started

    assert asyncio.run(scenario()) < 1.0
    assert [w["step"] for w in warned] == ["stuck"]
