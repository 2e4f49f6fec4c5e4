"""Live events of the games watched on this replica: one Redis reader per game, however many watchers it has.

Without it every WatchGame stream would hold its own blocking XREAD, so a game with a thousand spectators would
take a thousand Redis connections. A follower reads the game's event stream from the version where its first
watcher joined and keeps what it read; watchers that are further behind catch up with one XRANGE of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from service import errors
from service.store import Event, GameStore

KEEP_EVENTS = 512  # a game has fewer events than this; past it, late watchers catch up from Redis


class Follower:
    """Reads one game's events as they come and wakes its watchers."""

    def __init__(self, store: GameStore, game_id: str, base: int, block_ms: int):
        self.store = store
        self.game_id = game_id
        self.base = base  # the buffer holds every event after this version
        self.events: list[Event] = []
        self.error: errors.ServiceError | None = None
        self.watchers = 0
        self._changed = asyncio.Condition()
        self._block_ms = block_ms
        self._task = asyncio.create_task(self._read())

    @property
    def last(self) -> int:
        return self.events[-1].version if self.events else self.base

    async def _read(self) -> None:
        while True:
            try:
                new = await self.store.wait_events(self.game_id, self.last, self._block_ms)
            except errors.ServiceError as exc:
                self.error = exc
            else:
                if not new:
                    continue
                self.events.extend(new)
                if len(self.events) > KEEP_EVENTS:
                    dropped = self.events[: len(self.events) - KEEP_EVENTS]
                    self.base = dropped[-1].version
                    del self.events[: len(dropped)]
            async with self._changed:
                self._changed.notify_all()
            if self.error is not None:
                return

    async def after(self, version: int, timeout: float) -> list[Event]:
        """The events after `version`; if there are none yet, wait up to `timeout` seconds for some."""
        if version < self.base:
            return await self.store.events(self.game_id, version)
        async with self._changed:
            if self.last <= version and self.error is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), timeout)
        if self.error is not None:
            raise self.error
        return [e for e in self.events if e.version > version]

    def close(self) -> None:
        self._task.cancel()


class GameFeed:
    def __init__(self, store: GameStore, block_ms: int = 1000):
        self.store = store
        self.block_ms = block_ms
        self._followers: dict[str, Follower] = {}

    @contextlib.asynccontextmanager
    async def follow(self, game_id: str, version: int) -> AsyncIterator[Follower]:
        """A follower of the game for as long as the caller watches, sharing a running one if there is one."""
        follower = self._followers.get(game_id)
        if follower is None or follower.error is not None:
            follower = self._followers[game_id] = Follower(self.store, game_id, version, self.block_ms)
        follower.watchers += 1
        try:
            yield follower
        finally:
            follower.watchers -= 1
            if follower.watchers == 0:
                follower.close()
                if self._followers.get(game_id) is follower:
                    del self._followers[game_id]

    def close(self) -> None:
        for follower in self._followers.values():
            follower.close()
        self._followers.clear()
