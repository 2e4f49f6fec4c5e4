"""The per-replica event feed: one reader per watched game, late watchers catch up from Redis."""

from __future__ import annotations

import asyncio

from service.feed import GameFeed
from service.store import GameStore


def test_watchers_get_every_event_after_their_version(redis_db_url):
    async def scenario():
        store = GameStore.from_url(redis_db_url, retention_seconds=60, abandoned_seconds=60,
                                   job_shards=1)

        async def commit(version: int) -> None:
            result = await store.commit("feedgame", "toy", version, {"status": "waiting"}, {"kind": "created"})
            assert result.outcome == "OK"

        for version in range(3):
            await commit(version)
        feed = GameFeed(store, block_ms=200)
        try:
            async with feed.follow("feedgame", 3) as follower, feed.follow("feedgame", 1) as same:
                assert same is follower
                # Behind the reader's start: caught up from Redis at once.
                assert [e.version for e in await same.after(1, timeout=1)] == [2, 3]
                # Nothing new yet: waits, then comes back empty.
                assert await follower.after(3, timeout=0.3) == []
                waiting = asyncio.create_task(follower.after(3, timeout=5))
                await asyncio.sleep(0.05)
                await commit(3)
                assert [e.version for e in await waiting] == [4]
            assert "feedgame" not in feed._followers
        finally:
            feed.close()
            await store.close()

    asyncio.run(scenario())
