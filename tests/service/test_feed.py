"""The per-replica event feed: one reader per job shard for every watched game, late watchers catch up from
Redis."""

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
                assert same.follower is follower.follower  # one follower per game
                # Behind the reader's start: caught up from Redis at once.
                assert [e.version for e in await same.after(1, timeout=1)] == [2, 3]
                # Nothing new yet: waits, then comes back empty.
                assert await follower.after(3, timeout=0.3) == []
                waiting = asyncio.create_task(follower.after(3, timeout=5))
                await asyncio.sleep(0)  # the task runs up to its wait for news
                assert len(follower.follower._waiting) == 1
                await commit(3)
                assert [e.version for e in await waiting] == [4]
            assert "feedgame" not in feed._followers
            # Several games of one shard: one reader, each watcher gets its own game's events.
            for game in ("g-a", "g-b", "g-c"):
                await store.commit(game, "toy", 0, {"status": "waiting"}, {"kind": "created"})
            async with feed.follow("g-a", 1) as a, feed.follow("g-b", 1) as b, feed.follow("g-c", 1) as c:
                assert feed.readers() == 1
                [reader] = feed._readers.values()
                for game in ("g-b", "g-c"):
                    await store.commit(game, "toy", 1, {"status": "waiting"}, {"kind": "created"})
                assert [e.version for e in await b.after(1, timeout=5)] == [2]
                assert [e.version for e in await c.after(1, timeout=5)] == [2]
                assert await a.after(1, timeout=0.3) == []
            await asyncio.wait_for(reader, 5)  # ends once its blocking read is over
            assert feed.readers() == 0, "the reader stops with the shard's last watcher"
        finally:
            feed.close()
            await store.close()

    asyncio.run(scenario())


def test_a_followed_game_started_from_its_whole_log_can_start_spectators(redis_db_url):
    """`spectate` gives a new spectator the game's table and every event so far, from memory, only while the
    follower holds the whole log: not for a follower started mid-game, nor once it failed, nor when unfollowed."""
    from service.feed import KEEP_EVENTS
    from service.store import Event

    async def scenario():
        store = GameStore.from_url(redis_db_url, retention_seconds=60, abandoned_seconds=60, job_shards=1)
        for version in range(3):
            await store.commit("whole", "toy", version, {"status": "waiting"}, {"kind": "created"})
        history = await store.events("whole")
        assert [e.version for e in history] == [1, 2, 3]
        feed = GameFeed(store, block_ms=200)
        try:
            assert feed.spectate("whole") is None  # nobody follows it here
            async with feed.follow("whole", 3, history=history[1:], table="t"):
                assert feed.spectate("whole") is None, "a log that does not start at the first event"
            async with feed.follow("whole", 3, history=history, table="t") as watching:
                assert feed.spectate("whole") == ("t", history)
                await store.commit("whole", "toy", 3, {"status": "waiting"}, {"kind": "created"})
                assert [e.version for e in await watching.after(3, timeout=5)] == [4]
                table, events = feed.spectate("whole")
                assert [e.version for e in events] == [1, 2, 3, 4], "live events join the log"
                # Past KEEP_EVENTS the follower drops its oldest events: spectators read Redis again.
                watching.follower.add([Event(v, {"kind": "x"}) for v in range(5, KEEP_EVENTS + 10)])
                assert feed.spectate("whole") is None
            assert feed.spectate("whole") is None, "unfollowed: its memory is gone"
        finally:
            feed.close()
            await store.close()

    asyncio.run(scenario())
