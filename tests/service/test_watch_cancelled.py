"""WatchGame calls cancelled by their clients while the service reads the game: the shared first read of a watch
(service/watch.py, SingleFlight) then fails with no caller left to hear of it. The service must log no traceback
for it (asyncio's "Task exception was never retrieved", which `make fuzz` found in the service's log: 54 of 4,000
calls on unknown ids cancelled 0-3 ms after they were made).

Here the moment is made, not hoped for: the test's own Redis is paused (CLIENT PAUSE) while the calls start, so
that every read is in flight when the calls are cancelled; then Redis answers that no such game exists."""

from __future__ import annotations

import asyncio
import gc
import secrets
import time
from collections.abc import Callable

import grpc
import redis
from prometheus_client import REGISTRY

from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import ServerThread, service_config

CALLS = 200


async def _until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g} s"
        await asyncio.sleep(0.02)


def _watch_streams_open() -> float:
    return REGISTRY.get_sample_value("tabletop_streams_open", {"method": "WatchGame"}) or 0.0


async def _cancel_during_reads(server: ServerThread, client: redis.Redis) -> None:
    reads = server.running.servicer.watch.reads
    open_before = _watch_streams_open()
    async with grpc.aio.insecure_channel(server.target) as channel:
        watch = channel.unary_stream("/tabletop.v1.GameService/WatchGame",
                                     request_serializer=pb.WatchGameRequest.SerializeToString,
                                     response_deserializer=pb.WatchGameResponse.FromString)
        client.client_pause(60_000, all=False)  # every script waits (writes too), the reads of the games too
        try:
            # Spectators (a shared "look" at the game) and seats (a shared "load" of it), each on a game of its own.
            calls = [watch(pb.WatchGameRequest(game_id=f"unknown{i}"),
                           metadata=[("authorization", f"Bearer {secrets.token_hex(8)}")] if i % 2 else [])
                     for i in range(CALLS)]
            # A call's stream counts as open as its handler starts, and the handler starts the game's read in the
            # same step (no quota here to take first).
            await _until(lambda: _watch_streams_open() == open_before + CALLS, 30, "every call's read in flight")
            assert reads._calls
            for call in calls:
                call.cancel()
            await _until(lambda: _watch_streams_open() == open_before, 30, "every call ended on the service")
        finally:
            client.client_unpause()
        # Redis answers: no such game (or, on a machine so slow that the pause outlasted the store's 5 s timeout,
        # the reads failed meanwhile: the same case). Each read fails with no caller, and is let go (a failure at
        # once, an answer FORGET_SECONDS after it came); then nothing holds its task, which is reported if its
        # exception was never retrieved as it is collected.
        await _until(lambda: not reads._calls, 30, "the shared reads let go")
        # The service still tells a watcher of an unknown game so.
        try:
            async for _ in watch(pb.WatchGameRequest(game_id="unknown-last")):
                pass
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.NOT_FOUND
        else:
            raise AssertionError("a watch of an unknown game ended without an error")


async def _collect() -> None:
    gc.collect()
    await asyncio.sleep(0)


def test_watch_calls_cancelled_during_their_first_read_leave_no_traceback(own_redis):
    server = ServerThread(service_config(own_redis.url)).start()
    reported: list[dict] = []
    server.loop.call_soon_threadsafe(server.loop.set_exception_handler,
                                     lambda loop, context: reported.append(context))
    client = redis.Redis.from_url(own_redis.url)
    try:
        asyncio.run(_cancel_during_reads(server, client))
        asyncio.run_coroutine_threadsafe(_collect(), server.loop).result(30)
    finally:
        client.close()
        server.stop()
    assert [(c.get("message"), repr(c.get("exception"))) for c in reported] == []
