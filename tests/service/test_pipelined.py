"""The pipelined connection of the store's hot scripts (service/pipelined.py): concurrent calls each get their own
reply, an error reply fails its own call only, and a connection that fails or stalls fails the calls waiting on it
with redis-py's errors (the store answers them UNAVAILABLE) and is opened again by the next call."""

from __future__ import annotations

import asyncio
import gc

import pytest
import redis.asyncio as aioredis
from redis import exceptions as redis_errors

from service.pipelined import PipelinedConnection, pack
from service.store import GameStore

# A script that keeps Redis busy for a second (DEBUG SLEEP is off by default since Redis 7).
BUSY_SECOND = """
local start = redis.call('TIME')
repeat local now = redis.call('TIME') until (now[1] - start[1]) * 1000000 + (now[2] - start[2]) >= 1000000
return 1
"""


def _pool(url: str) -> aioredis.ConnectionPool:
    return aioredis.ConnectionPool.from_url(url, socket_timeout=5, socket_connect_timeout=2)


def test_concurrent_calls_each_get_their_own_reply(redis_db_url):
    async def run():
        connection = PipelinedConnection(_pool(redis_db_url), timeout=5)
        try:
            await asyncio.gather(*(connection.execute("SET", f"k{i}", f"v{i}") for i in range(200)))
            replies = await asyncio.gather(*(connection.execute("GET", f"k{i}") for i in range(200)))
            assert replies == [f"v{i}".encode() for i in range(200)]
        finally:
            await connection.close()

    asyncio.run(run())


def test_an_error_reply_fails_its_own_call_only(redis_db_url):
    async def run():
        connection = PipelinedConnection(_pool(redis_db_url), timeout=5)
        try:
            await connection.execute("SET", "text", "x")
            results = await asyncio.gather(
                connection.execute("GET", "text"), connection.execute("INCR", "text"),
                connection.execute("EVAL", "return redis.error_reply('NOPE broken')", 0),
                connection.execute("GET", "text"), return_exceptions=True,
            )
            assert results[0] == results[3] == b"x"
            assert isinstance(results[1], redis_errors.ResponseError) and "not an integer" in str(results[1])
            assert isinstance(results[2], redis_errors.ResponseError) and "broken" in str(results[2])
        finally:
            await connection.close()

    asyncio.run(run())


def test_a_cancelled_call_does_not_shift_the_replies(redis_db_url):
    async def run():
        connection = PipelinedConnection(_pool(redis_db_url), timeout=5)
        try:
            await connection.execute("SET", "a", "1")
            await connection.execute("SET", "b", "2")
            slow = asyncio.ensure_future(connection.execute("EVAL", "return redis.call('GET', 'a')", 0))
            await asyncio.sleep(0)  # sent, not answered yet
            slow.cancel()
            assert await connection.execute("GET", "b") == b"2"
        finally:
            await connection.close()

    asyncio.run(run())


def test_a_stalled_redis_times_the_calls_out_and_the_next_call_connects_again(redis_db_url):
    async def run():
        connection = PipelinedConnection(_pool(redis_db_url), timeout=0.3)
        try:
            await connection.execute("SET", "k", "v")
            stalled = await asyncio.gather(connection.execute("EVAL", BUSY_SECOND, 0), connection.execute("GET", "k"),
                                           return_exceptions=True)
            assert all(isinstance(r, redis_errors.TimeoutError) for r in stalled), stalled
            # Redis answers the next command once the script ends (its late replies go to the closed connection):
            # another client's PING waits for that.
            other = aioredis.Redis(connection_pool=_pool(redis_db_url))
            try:
                assert await other.ping()
            finally:
                await other.aclose()
            assert await connection.execute("GET", "k") == b"v"
        finally:
            await connection.close()

    asyncio.run(run())


def test_a_restarted_redis_fails_the_waiting_calls_then_serves_again(own_redis):
    async def run():
        connection = PipelinedConnection(_pool(own_redis.url), timeout=5)
        try:
            await connection.execute("SET", "k", "v")
            own_redis.stop(kill=True)
            with pytest.raises((redis_errors.ConnectionError, redis_errors.TimeoutError)):
                await connection.execute("GET", "k")
            own_redis.start()
            await connection.execute("SET", "k", "again")
            assert await connection.execute("GET", "k") == b"again"
        finally:
            await connection.close()

    asyncio.run(run())


def test_a_connection_attempt_whose_callers_all_went_is_not_the_next_calls_answer(own_redis):
    """A call cancelled while the connection opens (its client gave up) leaves the attempt to end alone: when it
    fails (Redis down), that failure is logged nowhere ("Task exception was never retrieved") and is not what the
    next call gets once Redis is back: that call connects afresh."""
    reported: list[dict] = []

    async def run():
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: reported.append(context))
        connection = PipelinedConnection(_pool(own_redis.url), timeout=5)
        try:
            own_redis.stop(kill=True)
            caller = asyncio.ensure_future(connection.execute("PING"))
            await asyncio.sleep(0)  # the call waits on the connection attempt
            caller.cancel()
            with pytest.raises(asyncio.CancelledError):
                await caller
            attempt = connection._connecting
            await asyncio.wait([attempt])  # it fails: nothing listens
            assert isinstance(attempt.exception(), (redis_errors.ConnectionError, OSError))
            del attempt
            own_redis.start()
            assert await connection.execute("PING") == b"PONG"
            gc.collect()
        finally:
            await connection.close()

    asyncio.run(run())
    gc.collect()
    assert [c.get("message") for c in reported] == []


def test_the_store_loads_its_script_again_when_redis_lost_it(redis_db_url):
    async def run():
        store = GameStore.from_url(redis_db_url, retention_seconds=60, abandoned_seconds=60, job_shards=1)
        try:
            assert await store.load("no-such-game") == (None, [])
            await store.redis.script_flush()
            assert await store.load("no-such-game") == (None, [])
        finally:
            await store.close()

    asyncio.run(run())


def test_commands_are_packed_as_redis_py_packs_them():
    args = ("EVALSHA", "0" * 40, 2, "game:{a}", b"\x00\xff\r\n", "é\u2603", 12345678901234, -5, "", b"x" * 70000)
    assert pack(args) == b"".join(aioredis.Connection().pack_command(*args))
    for refused in (1.5, True, None):
        with pytest.raises(redis_errors.DataError):
            pack(("SET", "k", refused))
