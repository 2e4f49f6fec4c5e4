"""Watch: replay a game's events after a version, each with the watcher's view after it, then follow live."""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from service import errors
from service.auth import Credentials
from service.feed import GameFeed
from service.logs import bind
from service.seats import Seats
from service.store import Event, event_key
from service.tables import Replay, Seen, Tables

WATCH_BLOCK_MS = 1000
WATCH_IDLE_CHECK_MS = 30_000
T = TypeVar("T")
SNAPSHOTS = 4096  # replayed game states kept for the replica's watchers (a few hundred games' recent versions)
# Watch writes at once in this process (WriteTurns): an update costs about 80 us of the event loop (gRPC's write of
# the message is most of it), so a player's call waits well under a millisecond behind them at each step.
WRITE_TURNS = 8
WRITE_HOLD_SECONDS = 0.02  # a write still blocked after this (a slow reader) gives its turn back



class Snapshots:
    """The replay after each event, shared by every watcher of the game on this replica: a game with a thousand
    watchers applies each move once, not a thousand times. Engine states are immutable, so sharing is safe."""

    def __init__(self, size: int = SNAPSHOTS):
        self.size = size
        self._after: OrderedDict[tuple, tuple] = OrderedDict()

    def step(self, replay: Replay, key: tuple, event: Event) -> None:
        known = self._after.get(key)
        if known is not None:
            replay.state, replay.seats, replay.status, replay.deadlines = known
            return
        replay.step(event)
        self._after[key] = (replay.state, replay.seats, replay.status, replay.deadlines)
        if len(self._after) > self.size:
            self._after.popitem(last=False)


class SingleFlight:
    """Concurrent identical reads share one call: a thousand spectators opening a stream on the same game at once
    read it from Redis once, not a thousand times (which would queue them on the replica's connection pool). The
    answer may be a round trip older than a caller's own would be: a watcher follows the live feed from the
    version it got, so it misses nothing that came after.

    A call's answer is shared until the first of its callers has it (so that the ones arriving meanwhile share it
    too, and that caller can act on it, e.g. follow the game, before any other call of the key starts), or, should
    every caller have gone, FORGET_SECONDS after it came. A failure is not shared after it came: the next call
    tries afresh."""

    FORGET_SECONDS = 1.0

    def __init__(self):
        self._calls: dict[tuple, asyncio.Future] = {}

    async def run(self, key: tuple, call: Callable[[], Awaitable[T]]) -> T:
        future = self._calls.get(key)
        if future is None:
            future = self._calls[key] = asyncio.ensure_future(call())
            future.add_done_callback(lambda done: self._done(key, done))
        try:
            return await asyncio.shield(future)
        finally:
            if future.done():
                self._forget(key, future)

    def _done(self, key: tuple, future: asyncio.Future) -> None:
        # A failed call is forgotten at once (the next caller tries afresh), and its exception is marked retrieved:
        # when every caller went away before it failed (watchers that gave up on an unknown game), nobody else
        # looks at it, and asyncio would log "Task exception was never retrieved" with its traceback. The callers
        # still waiting get it all the same.
        if future.cancelled() or future.exception() is not None:
            self._forget(key, future)
        else:
            asyncio.get_running_loop().call_later(self.FORGET_SECONDS, self._forget, key, future)

    def _forget(self, key: tuple, future: asyncio.Future) -> None:
        if self._calls.get(key) is future:
            del self._calls[key]


class _Write:
    """One write in flight: its stream's task, when it got its turn, whether it still holds the turn."""

    __slots__ = ("task", "started", "holds", "deadline", "timed_out")

    def __init__(self, task: asyncio.Task, started: float, timeout: float, holds: bool):
        self.task = task
        self.started = started
        self.holds = holds
        self.deadline = started + timeout
        self.timed_out = False


class WriteTurns:
    """Watch writes take turns: at most `turns` at once in this process. An event of a game with a thousand
    watchers would otherwise put a thousand writes on the event loop at once, and every player's call arriving
    meanwhile would wait behind all of them; in turns, the players' calls go in between. A write still blocked
    after `hold` seconds (its client reads slowly: the flow-control window is full) gives its turn back and goes
    on waiting without one, so that slow readers cannot hold up the others.

    Both clocks (the hold and each write's deadline) are kept by one watchdog task that looks at the writes in
    flight every `tick` seconds (the hold, at most 50 ms) while there are any, not by timers per write: those, with
    the idle check's in service/feed.py, cost a third of the replica's CPU in the fan-out (docs/resilience.md)."""

    def __init__(self, turns: int, hold: float):
        self.hold = hold
        self.tick = min(hold, 0.05)
        self._turns = asyncio.Semaphore(turns) if turns > 0 else None
        self._writes: set[_Write] = set()
        self._watchdog: asyncio.Task | None = None

    async def write(self, context, data: bytes, timeout: float) -> None:
        """Write `data` on the stream once it is this watcher's turn; TimeoutError if the write itself (not the
        wait for a turn: that is the replica's doing, not the client's) takes more than `timeout` seconds."""
        if self._turns is not None:
            await self._turns.acquire()
        loop = asyncio.get_running_loop()
        write = _Write(asyncio.current_task(), loop.time(), timeout, holds=self._turns is not None)
        self._writes.add(write)
        if self._watchdog is None:
            self._watchdog = loop.create_task(self._watch())
        try:
            await context.write(data)
        except asyncio.CancelledError:
            if write.timed_out and write.task.uncancel() == 0:  # the watchdog's cancel, not the caller's
                raise TimeoutError from None
            raise
        finally:
            self._writes.discard(write)
            if write.holds:
                write.holds = False
                self._turns.release()

    async def _watch(self) -> None:
        """While writes are in flight: give back the turns held longer than `hold`, and cancel the writes past
        their deadline (the write then raises TimeoutError)."""
        loop = asyncio.get_running_loop()
        try:
            while self._writes:
                await asyncio.sleep(self.tick)
                now = loop.time()
                for write in list(self._writes):
                    if write.holds and now - write.started >= self.hold:
                        write.holds = False
                        self._turns.release()
                    if not write.timed_out and now >= write.deadline:
                        write.timed_out = True
                        write.task.cancel()
        finally:
            self._watchdog = None


class Watch:
    def __init__(self, tables: Tables, seats: Seats):
        self.tables = tables
        self.seats = seats
        self.store = tables.store
        self.feed = GameFeed(tables.store, WATCH_BLOCK_MS)
        self.snapshots = Snapshots()
        self.reads = SingleFlight()
        self.turns = WriteTurns(WRITE_TURNS, WRITE_HOLD_SECONDS)

    def close(self) -> None:
        self.feed.close()

    async def watch(self, game_id: str, creds: Credentials, from_version: int
                    ) -> AsyncIterator[tuple[Event, Seen]]:
        """Each event after `from_version` with the game as the watcher sees it right after; then follow live."""
        if from_version < 0:
            raise errors.invalid("INVALID_VERSION", "from_version must be 0 or more")
        # A spectator (no token) of a game this replica already follows from its start reads nothing from Redis:
        # the game's fixed facts and every event so far are in memory. The first spectators of a game read it once
        # between them (the game and its log in one shared read, `_first_look`), and the follower they make right
        # after serves the next ones. Anyone else is identified on the stored game.
        if creds.anonymous:
            table, events = self.feed.spectate(game_id) or await self.reads.run(
                ("look", game_id), lambda: self._first_look(game_id))
            bind(game_id=game_id, seat=None, role="spectator")
            viewer = None
        else:
            table = await self.reads.run(("load", game_id), lambda: self.tables.load(game_id))
            caller = self.tables.identify(table.record, creds)
            table = await self.seats.returning(table, caller)
            viewer = caller.seat
            events = await self.reads.run(("events", game_id), lambda: self.store.events(game_id))
        record = table.record
        rebuilt = Replay(table.game)
        last = 0
        follower = None
        async with contextlib.AsyncExitStack() as stack:
            while True:
                updates = []
                for event in events:
                    self.snapshots.step(rebuilt, event_key(game_id, event), event)
                    last = event.version
                    if event.version > from_version:
                        updates.append((event, rebuilt.seen(record, viewer, event.version)))
                if follower is None and rebuilt.status != "finished":
                    # Follow before the first updates are written (a write waits for its turn): spectators arriving
                    # meanwhile start from the follower, not from Redis. `events` is still the whole log here (read
                    # from Redis or from the follower): if the game has no follower any more, the new one holds it
                    # all too.
                    follower = await stack.enter_async_context(
                        self.feed.follow(game_id, last, record.shard, events, table))
                for update in updates:
                    yield update
                if rebuilt.status == "finished":
                    return
                # A watcher sleeps until its game has news (the feed wakes it), or for the idle check: a thousand
                # quiet watchers cost nothing between events.
                events = await follower.after(last, WATCH_IDLE_CHECK_MS / 1000)
                if not events:
                    if not await self.store.exists(game_id):
                        raise errors.game_not_found(game_id)
                    # A finished game's stream expires soon after its last event (its log keeps every event): a
                    # follower that missed it meanwhile (Redis unreachable) finds it here.
                    events = await self.store.events(game_id, last)

    async def _first_look(self, game_id: str) -> tuple[Any, list[Event]]:
        """What a spectator starts from: the stored game and its whole log."""
        table = await self.tables.load(game_id)
        return table, await self.store.events(game_id)
