"""Watch: replay a game's events after a version, each with the watcher's view after it, then follow live."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from service import errors
from service.auth import Credentials
from service.feed import GameFeed
from service.seats import Seats
from service.store import Event
from service.tables import Replay, Seen, Tables

WATCH_BLOCK_MS = 1000
WATCH_IDLE_CHECK_MS = 30_000


class Watch:
    def __init__(self, tables: Tables, seats: Seats):
        self.tables = tables
        self.seats = seats
        self.store = tables.store
        self.feed = GameFeed(tables.store, WATCH_BLOCK_MS)

    def close(self) -> None:
        self.feed.close()

    async def watch(self, game_id: str, creds: Credentials, from_version: int
                    ) -> AsyncIterator[tuple[Event, Seen]]:
        """Each event after `from_version` with the game as the watcher sees it right after; then follow live."""
        if from_version < 0:
            raise errors.invalid("INVALID_VERSION", "from_version must be 0 or more")
        table = await self.tables.load(game_id)
        caller = self.tables.identify(table.record, creds)
        table = await self.seats.returning(table, caller)
        viewer = caller.seat
        record = table.record
        rebuilt = Replay(table.game)
        events = await self.store.events(game_id)
        last = 0
        follower = None
        idle_ms = 0
        async with contextlib.AsyncExitStack() as stack:
            while True:
                for event in events:
                    rebuilt.step(event)
                    last = event.version
                    if event.version > from_version:
                        yield event, rebuilt.seen(record, viewer, event.version)
                if rebuilt.status == "finished":
                    return
                if follower is None:
                    follower = await stack.enter_async_context(self.feed.follow(game_id, last, record.shard))
                events = await follower.after(last, WATCH_BLOCK_MS / 1000)
                idle_ms = 0 if events else idle_ms + WATCH_BLOCK_MS
                if idle_ms >= WATCH_IDLE_CHECK_MS:
                    idle_ms = 0
                    if not await self.store.exists(game_id):
                        raise errors.game_not_found(game_id)
