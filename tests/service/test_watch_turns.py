"""What keeps a replica's players served under a fan-out: watch writes take turns (WriteTurns), and a game's
watchers are woken a chunk at a time (Follower.wake), so the event loop's other work goes on in between.

Their holds, deadlines and timers are their subject: each scenario runs in virtual time (tests/support/clock.py),
where `asyncio.sleep` moves the clock on without waiting."""

from __future__ import annotations

import asyncio
import gc

import pytest

from service.feed import WAKE_CHUNK, Follower
from service.watch import SingleFlight, WriteTurns
from tests.support.clock import run_in_virtual_time


class _Stream:
    """A stream context whose writes finish when the test says (or after `takes` seconds)."""

    def __init__(self, tracker: dict, gate: asyncio.Event | None = None, takes: float = 0.001):
        self.tracker = tracker
        self.gate = gate
        self.takes = takes
        self.writing = asyncio.Event()  # a write has begun
        self.written: list[bytes] = []

    async def write(self, data: bytes) -> None:
        self.writing.set()
        self.tracker["now"] += 1
        self.tracker["most"] = max(self.tracker["most"], self.tracker["now"])
        try:
            if self.gate is not None:
                await self.gate.wait()
            else:
                await asyncio.sleep(self.takes)
            self.written.append(data)
        finally:
            self.tracker["now"] -= 1


def test_at_most_the_turns_write_at_once_and_every_write_is_made():
    async def scenario():
        tracker = {"now": 0, "most": 0}
        turns = WriteTurns(3, hold=5.0)
        streams = [_Stream(tracker) for _ in range(40)]
        await asyncio.gather(*(turns.write(s, b"update", timeout=5) for s in streams))
        assert tracker["most"] == 3
        assert all(s.written == [b"update"] for s in streams)

    run_in_virtual_time(scenario())


def test_a_slow_reader_gives_its_turn_back_and_the_others_go_on():
    async def scenario():
        tracker = {"now": 0, "most": 0}
        turns = WriteTurns(1, hold=0.05)
        stuck = _Stream(tracker, gate=asyncio.Event())  # its client reads nothing
        slow = asyncio.create_task(turns.write(stuck, b"a", timeout=5))
        await stuck.writing.wait()
        quick = _Stream(tracker)
        await asyncio.wait_for(turns.write(quick, b"b", timeout=5), timeout=1)  # after `hold`, not after 5 s
        assert quick.written == [b"b"] and not slow.done()
        stuck.gate.set()
        await slow
        assert stuck.written == [b"a"]

    run_in_virtual_time(scenario())


def test_the_deadline_is_the_write_s_own_not_the_wait_for_a_turn():
    """A watcher dropped as too slow must be one whose client reads nothing, not one the replica kept waiting."""
    async def scenario():
        tracker = {"now": 0, "most": 0}
        turns = WriteTurns(1, hold=10.0)
        stuck = _Stream(tracker, asyncio.Event())
        first = asyncio.create_task(turns.write(stuck, b"a", timeout=5))
        await stuck.writing.wait()
        second = _Stream(tracker, takes=0.06)  # longer than a look of the watchdog, shorter than its deadline
        waiting = asyncio.create_task(turns.write(second, b"b", timeout=0.1))
        await asyncio.sleep(0.3)  # longer than the second's deadline, spent waiting for the turn
        stuck.gate.set()
        await first
        await waiting  # no TimeoutError: its own write was quick
        assert second.written == [b"b"]
        with pytest.raises(TimeoutError):
            await turns.write(_Stream(tracker, asyncio.Event()), b"c", timeout=0.1)

    run_in_virtual_time(scenario())


def test_a_game_s_watchers_are_woken_a_chunk_at_a_time_and_all_get_the_news():
    async def scenario():
        follower = Follower("g", 0, base=0)
        count = 5 * WAKE_CHUNK
        follower.watchers = count
        woken: list[int] = []

        async def watcher(i: int) -> None:
            events = await follower.after(None, 0, timeout=5)
            woken.append(i)
            assert [e.version for e in events] == [1]

        tasks = [asyncio.create_task(watcher(i)) for i in range(count)]
        await asyncio.sleep(0)  # each task runs up to its wait for news
        assert len(follower._waiting) == count
        seen_by_a_player: list[int] = []

        async def player() -> None:  # another call on the same loop, arriving with the news
            await asyncio.sleep(0)
            seen_by_a_player.append(len(woken))

        follower.add([_event(1)])
        racing = asyncio.create_task(player())
        await follower.wake()
        await asyncio.gather(*tasks, racing)
        assert sorted(woken) == list(range(count))
        assert seen_by_a_player[0] <= 2 * WAKE_CHUNK, "the player's call waited for every watcher"

    run_in_virtual_time(scenario())


def _event(version: int):
    from service.store import Event

    return Event(version=version, fields={})


def test_a_stream_cancelled_by_its_caller_is_not_reported_too_slow():
    """The watchdog's cancel becomes TimeoutError (WATCHER_TOO_SLOW); any other cancel (the client went away, the
    server stops) stays a cancel, and the turn is given back either way."""
    async def scenario():
        tracker = {"now": 0, "most": 0}
        turns = WriteTurns(1, hold=10.0)
        stuck = _Stream(tracker, asyncio.Event())
        blocked = asyncio.create_task(turns.write(stuck, b"a", timeout=5))
        await stuck.writing.wait()
        blocked.cancel()
        with pytest.raises(asyncio.CancelledError):
            await blocked
        quick = _Stream(tracker)
        await asyncio.wait_for(turns.write(quick, b"b", timeout=5), timeout=1)  # the turn came back
        assert quick.written == [b"b"]

    run_in_virtual_time(scenario())


def test_each_waiting_watcher_comes_back_empty_at_its_own_timeout_with_one_timer_for_the_game():
    async def scenario():
        follower = Follower("g", 0, base=0)
        follower.watchers = 2
        loop = asyncio.get_running_loop()
        started = loop.time()

        async def wait(timeout: float) -> float:
            assert await follower.after(None, 0, timeout=timeout) == []
            return loop.time() - started

        late = asyncio.create_task(wait(0.4))
        await asyncio.sleep(0)
        early = asyncio.create_task(wait(0.1))
        await asyncio.sleep(0)
        assert follower._timer is not None and follower._timer.when() < started + 0.2  # moved to the earlier one
        early_at, late_at = await asyncio.gather(early, late)
        assert early_at == pytest.approx(0.1) and late_at == pytest.approx(0.4)
        assert follower._timer is None and follower._waiting == []

    run_in_virtual_time(scenario())


def test_a_shared_read_is_forgotten_once_its_first_caller_has_it():
    """SingleFlight: callers arriving while a read is in flight, or before its first caller has resumed, share its
    answer; after that a call reads afresh, and a read whose every caller went away is forgotten FORGET_SECONDS
    after it came."""
    async def scenario() -> tuple[list[int], list[int], int, int]:
        flights = SingleFlight()
        calls = []
        read_done = asyncio.Event()

        async def read() -> int:
            calls.append(1)
            read_done.clear()
            await asyncio.sleep(0.02)  # a round trip to Redis
            read_done.set()
            return len(calls)

        async def abandon(key: tuple) -> None:
            """Start a read of `key` whose only caller goes away before it ends; return once it ended."""
            caller = asyncio.ensure_future(flights.run(key, read))
            await asyncio.sleep(0)  # the read is in flight
            caller.cancel()
            await read_done.wait()

        together = await asyncio.gather(*(flights.run(("k",), read) for _ in range(5)))
        afterwards = [await flights.run(("k",), read)]
        await abandon(("gone",))
        await asyncio.sleep(flights.FORGET_SECONDS * 0.9)
        kept = await flights.run(("gone",), read)  # within FORGET_SECONDS: still shared
        await abandon(("lost",))
        await asyncio.sleep(flights.FORGET_SECONDS * 1.1)
        forgotten = await flights.run(("lost",), read)
        return together, afterwards, kept, forgotten

    together, afterwards, kept, forgotten = run_in_virtual_time(scenario())
    assert together == [1] * 5 and afterwards == [2]
    assert kept == 3 and forgotten == 5


def test_a_shared_read_that_fails_after_every_caller_went_logs_nothing_and_is_tried_afresh():
    """SingleFlight: when every caller of a read is cancelled before the read fails (watchers giving up on an
    unknown game), the failure is nobody's to retrieve: it must not reach the loop's exception handler as "Task
    exception was never retrieved" (a traceback in the service's log), and the next call reads afresh."""
    reported: list[dict] = []

    class NotFound(Exception):
        pass

    async def scenario() -> tuple[list[str], int]:
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: reported.append(context))
        flights = SingleFlight()
        calls = []
        release = asyncio.Event()

        async def read() -> str:
            calls.append(1)
            if len(calls) == 1:
                await release.wait()  # a round trip to Redis, which then says the game is unknown
                raise NotFound("no such game")
            return "found"

        callers = [asyncio.ensure_future(flights.run(("load", "x"), read)) for _ in range(3)]
        await asyncio.sleep(0)  # the read is in flight, every caller waits on it
        for caller in callers:
            caller.cancel()
        outcomes = [type(o).__name__ for o in await asyncio.gather(*callers, return_exceptions=True)]
        release.set()
        await asyncio.sleep(0)  # the read fails, with nobody waiting on it
        again = await asyncio.gather(flights.run(("load", "x"), read), return_exceptions=True)  # a fresh read
        return outcomes + [a if isinstance(a, str) else type(a).__name__ for a in again], len(calls)

    async def abandoned() -> None:
        """Only the failure, with no call after it: past any time SingleFlight keeps the read."""
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: reported.append(context))
        flights = SingleFlight()
        release = asyncio.Event()

        async def read() -> str:
            await release.wait()
            raise NotFound("no such game")

        callers = [asyncio.ensure_future(flights.run(("load", "y"), read)) for _ in range(3)]
        await asyncio.sleep(0)
        for caller in callers:
            caller.cancel()
        await asyncio.gather(*callers, return_exceptions=True)
        release.set()
        await asyncio.sleep(flights.FORGET_SECONDS * 2)
        del callers
        gc.collect()  # an exception never retrieved is reported when its task is collected

    outcomes, reads = run_in_virtual_time(scenario())
    run_in_virtual_time(abandoned())
    gc.collect()
    assert outcomes == ["CancelledError"] * 3 + ["found"] and reads == 2
    assert [c.get("message") for c in reported] == []
