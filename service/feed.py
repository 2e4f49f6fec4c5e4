"""Live events of the games watched on this replica: one Redis reader per job shard, however many games and
watchers there are.

Without it every WatchGame stream would hold its own blocking XREAD, and a few hundred streams would take the
replica's whole Redis pool. Here a game's watchers share one `Follower` (the game's events since its first watcher
joined, at most KEEP_EVENTS of them, shared by all: no per-watcher buffer), and each shard's followers share one
reader: a single blocking XREAD over the event streams of every watched game of that shard. A game's keys are
minted into its shard's Redis Cluster slot, so that one XREAD names keys of one slot, on a Redis Cluster too. The
replica thus holds at most one blocking read per job shard. A watcher far behind catches up with one XRANGE.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any

import grpc

from service import errors
from service.logs import log
from service.store import Event, GameStore

KEEP_EVENTS = 512  # a game has fewer events than this; past it, late watchers catch up from Redis
RETRY_SECONDS = 0.5  # after a failed read (Redis down), the shard's reader tries again this soon
WAKE_CHUNK = 32  # watchers woken in one turn of the event loop; then the loop's other work (players' calls) goes on


class Follower:
    """One watched game: its events since `base`, and the news its watchers wait on. Started with the game's whole
    log (`history`, from its first event), it holds every event of the game (`base` 0) until KEEP_EVENTS, and a
    spectator can then start watching from it without reading Redis (`GameFeed.spectate`)."""

    def __init__(self, game_id: str, shard: int, base: int, events: Iterable[Event] = (), table: Any = None):
        self.game_id = game_id
        self.shard = shard
        self.base = base  # the buffer holds every event after this version
        self.events: list[Event] = list(events)
        self.table = table  # the game as its first watcher loaded it (its type and fixed facts), for spectators
        self.error: errors.ServiceError | None = None
        self.watchers = 0
        # The watchers waiting for news, each a (deadline, future): woken in chunks (`wake`), with no lock for each
        # of them to take in turn (as a Condition would have), and no timer each: one timer per game, set for the
        # earliest deadline, wakes the watchers whose wait is over (`_expire`).
        self._waiting: list[tuple[float, asyncio.Future]] = []
        self._timer: asyncio.TimerHandle | None = None

    @property
    def last(self) -> int:
        return self.events[-1].version if self.events else self.base

    def add(self, new: list[Event]) -> None:
        self.events.extend(e for e in new if e.version > self.last)
        if len(self.events) > KEEP_EVENTS:
            dropped = self.events[: len(self.events) - KEEP_EVENTS]
            self.base = dropped[-1].version
            del self.events[: len(dropped)]

    async def wake(self) -> None:
        """Wake every watcher waiting for news, WAKE_CHUNK in each turn of the event loop: a thousand watchers of
        one game woken at once would hold the loop for milliseconds, and every player's call with it."""
        waiting, self._waiting = self._waiting, []
        for n, (_, future) in enumerate(waiting, 1):
            if not future.done():  # done: its watcher stopped waiting (the idle check, or it went away)
                future.set_result(None)
            if n % WAKE_CHUNK == 0:
                await asyncio.sleep(0)

    async def after(self, store: GameStore, version: int, timeout: float) -> list[Event]:
        """The events after `version`; if there are none yet, wait up to `timeout` seconds for some."""
        if version < self.base:
            return await store.events(self.game_id, version)
        if self.last <= version and self.error is None:
            if len(self._waiting) > 2 * self.watchers:  # drop the futures of watchers that went away
                self._waiting = [w for w in self._waiting if not w[1].done()]
            loop = asyncio.get_running_loop()
            news = loop.create_future()
            deadline = loop.time() + timeout
            self._waiting.append((deadline, news))
            if self._timer is None or deadline < self._timer.when():
                self._set_timer(loop, deadline)
            await news
        if self.error is not None:
            raise self.error
        if version < self.base:  # the buffer moved on while this watcher waited
            return await store.events(self.game_id, version)
        return self.events[bisect.bisect_right(self.events, version, key=lambda e: e.version):]

    def _set_timer(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_at(when, self._expire)

    def _expire(self) -> None:
        """Wake the watchers whose wait is over (they come back with no events), and set the timer for the next."""
        self._timer = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        waiting = []
        for deadline, future in self._waiting:
            if future.done():
                continue
            if deadline <= now:
                future.set_result(None)
            else:
                waiting.append((deadline, future))
        self._waiting = waiting
        if waiting:
            self._set_timer(loop, min(deadline for deadline, _ in waiting))


class Watching:
    """What one WatchGame stream holds: the game's follower, and the store for catching up."""

    def __init__(self, store: GameStore, follower: Follower):
        self.store = store
        self.follower = follower

    async def after(self, version: int, timeout: float) -> list[Event]:
        return await self.follower.after(self.store, version, timeout)


class GameFeed:
    def __init__(self, store: GameStore, block_ms: int = 1000):
        self.store = store
        self.block_ms = block_ms
        self._followers: dict[str, Follower] = {}
        self._readers: dict[int, asyncio.Task] = {}

    def spectate(self, game_id: str) -> tuple[Any, list[Event]] | None:
        """What a new spectator of a game followed here needs, read from memory: the table its first watcher loaded
        and every event of the game so far; None when the replica does not hold all of them (then read Redis).
        A game's spectators arrive together (a game starts, or a popular one is shared): the first reads the game
        once, and the hundreds after it cost no Redis round trip, which had queued them on the connection pool."""
        follower = self._followers.get(game_id)
        if follower is None or follower.error is not None or follower.base != 0 or follower.table is None:
            return None
        return follower.table, list(follower.events)

    @contextlib.asynccontextmanager
    async def follow(self, game_id: str, version: int, shard: int = 0, history: list[Event] | None = None,
                     table: Any = None) -> AsyncIterator[Watching]:
        """Follow a game (of job shard `shard`) for as long as the caller watches, sharing its follower with the
        game's other watchers and the shard's reader with every watched game of the shard. A caller that read the
        game's whole log (`history`, from its first event up to `version`) and its `table` lets the next
        spectators start from them (`spectate`)."""
        follower = self._followers.get(game_id)
        if follower is None or follower.error is not None:
            whole = history is not None and (not history or history[0].version == 1)
            follower = self._followers[game_id] = (
                Follower(game_id, shard, 0, history, table) if whole else Follower(game_id, shard, version)
            )
        follower.watchers += 1
        reader = self._readers.get(shard)
        if reader is None or reader.done():
            self._readers[shard] = asyncio.create_task(self._read(shard))
        try:
            yield Watching(self.store, follower)
        finally:
            follower.watchers -= 1
            if follower.watchers == 0 and self._followers.get(game_id) is follower:
                del self._followers[game_id]

    def readers(self) -> int:
        """How many shard readers run (each holds at most one Redis connection, while it reads)."""
        return sum(not task.done() for task in self._readers.values())

    async def _read(self, shard: int) -> None:
        """Read the new events of every watched game of `shard`, in one blocking XREAD at a time, until none is
        watched any more."""
        while True:
            followers = [f for f in self._followers.values() if f.shard == shard and f.error is None]
            if not followers:
                return
            try:
                new = await self.store.read_events({f.game_id: f.last for f in followers}, self.block_ms)
            except Exception as exc:  # noqa: BLE001 - the shard's watchers must hear of it, not wait forever
                if not isinstance(exc, errors.ServiceError):
                    log.exception("watch feed read failed unexpectedly", shard=shard)
                    exc = errors.ServiceError(grpc.StatusCode.UNAVAILABLE, "FEED_FAILED", "the game's feed failed")
                log.warning("watch feed read failed", shard=shard, reason=exc.reason)
                for follower in followers:  # their watchers end with the error; new watchers start afresh
                    follower.error = exc
                    await follower.wake()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            for follower in followers:
                events = new.get(follower.game_id)
                if events:
                    follower.add(events)
                    await follower.wake()

    def close(self) -> None:
        for task in self._readers.values():
            task.cancel()
        self._readers.clear()
        self._followers.clear()
