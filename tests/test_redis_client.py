"""tabletop/redis_client.py: after Redis restarts, a client's pooled connections to the old server are closed, and
the pool opens them again before lending them: no call fails on one (issue 26, a stale connection after a restart).
The asyncio client of the game service, which sends no command twice (no retries: a failed call is the caller's)."""

from __future__ import annotations

import asyncio

from tabletop import redis_client

AT_ONCE = 16


def test_the_async_client_meets_no_stale_connection_after_a_restart(own_redis):
    async def run() -> list:
        client = redis_client.connect_async(own_redis.url, cluster=False, max_connections=AT_ONCE, socket_timeout=5,
                                            socket_connect_timeout=2, health_check_interval=10)
        try:
            # Every connection of the pool in use at once: BLPOP holds each until it times out.
            await asyncio.gather(*(client.blpop([f"nothing{i}"], timeout=0.1) for i in range(AT_ONCE)))
            assert len(client.connection_pool._available_connections) == AT_ONCE
            own_redis.stop()
            own_redis.start()  # same port
            await asyncio.sleep(0)  # the loop reads what came meanwhile: the old server closed each connection
            return await asyncio.gather(*(client.set(f"k{i}", i) for i in range(AT_ONCE)), return_exceptions=True)
        finally:
            await redis_client.close_async(client)

    assert asyncio.run(run()) == [True] * AT_ONCE

