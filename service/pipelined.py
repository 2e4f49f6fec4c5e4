"""One Redis connection shared by every concurrent caller, for the game store's two scripts on the hot path (the read
and the commit of a game). Each call writes its command at once and waits for its reply; one reader task reads the
replies in order (Redis answers a connection's commands in the order they came) and hands each to its caller.

Why: through redis-py's client each command borrows a pooled connection (a lock, a readiness check of the
socket), arms a timeout for the write (a task) and for the read, and runs its retry and observability layers:
about 250 us of CPU per call on the benchmark machine, against 55 us here, where concurrent calls also share their
reads of the socket. It is redis-py's own connection object underneath (URL, auth, database, TLS, RESP3, parser).

What a caller sees is what redis-py gives: a reply, a ResponseError (NOSCRIPT, OOM, a script error) raised for
that call alone, a ConnectionError when the connection fails (every call waiting on it fails, and the next call
connects again), a TimeoutError when no reply came within `timeout` seconds (the connection is then dropped,
since a late reply would go to the wrong caller). A call is never sent twice: whether a command that failed with
the connection ran is unknown, as with any client, and the store's scripts are compare-and-set for that reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from typing import Any

import redis.asyncio as aioredis
from redis import exceptions as redis_errors


class PipelinedConnection:
    def __init__(self, pool: aioredis.ConnectionPool, timeout: float):
        # No socket timeout on the connection itself: a read waits for the next reply as long as calls are
        # pending, and the calls' deadline is checked by one timer (`_expire`), not armed per call.
        self._connection = pool.connection_class(**{**pool.connection_kwargs, "socket_timeout": None})
        self.timeout = timeout
        self._pending: deque[tuple[asyncio.Future, float]] = deque()  # (reply, when sent), in the order sent
        self._connecting: asyncio.Future | None = None
        self._closing: asyncio.Future | None = None
        self._reader: asyncio.Task | None = None
        self._timer: asyncio.TimerHandle | None = None

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply."""
        if self._reader is None:
            await self._connect()
        connection = self._connection
        packed = pack(args)
        loop = asyncio.get_running_loop()
        reply = loop.create_future()
        self._pending.append((reply, time.monotonic()))
        if self._timer is None:
            self._timer = loop.call_later(self.timeout, self._expire)
        try:
            # Written at once (the transport's write does not wait), so commands go out in the order of _pending.
            await connection.send_packed_command(packed, check_health=False)
        except asyncio.CancelledError:
            self._fail(redis_errors.ConnectionError("a call was cancelled while its command was being written"))
            raise
        except Exception as exc:  # the connection is in an unknown state: every waiting call fails with it
            self._fail(_connection_error(exc))
        return await reply

    async def _connect(self) -> None:
        connecting = self._connecting
        # Done already: an attempt whose every caller went away (cancelled) before it ended; its outcome is
        # stale (Redis may be back since it failed), so this call tries afresh.
        if connecting is None or connecting.done():
            connecting = self._connecting = asyncio.ensure_future(self._open())
            connecting.add_done_callback(_retrieve)
        try:
            await asyncio.shield(connecting)
        finally:
            if self._connecting is connecting and connecting.done():
                self._connecting = None

    async def _open(self) -> None:
        if self._closing is not None:  # the last connection's close, finished before a new one opens
            await self._closing
        try:
            async with asyncio.timeout(self.timeout):  # the handshake too, which no socket timeout bounds here
                await self._connection.connect()
        except TimeoutError:
            raise redis_errors.ConnectionError(f"could not connect to Redis within {self.timeout:g} s") from None
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        connection, pending = self._connection, self._pending
        try:
            while True:
                try:
                    reply = await connection.read_response(timeout=math.inf)
                except redis_errors.ResponseError as exc:  # an error reply: that call's alone
                    reply = exc
                if not pending:  # a reply nobody waits for: out of step, drop the connection
                    raise redis_errors.ConnectionError("a Redis reply came that no call was waiting for")
                future, _ = pending.popleft()
                if future.done():  # its caller was cancelled meanwhile
                    continue
                if isinstance(reply, redis_errors.ResponseError):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if self._reader is asyncio.current_task():  # else a newer connection has replaced this one
                self._reader = None  # this task ends here: _fail must not cancel it
                self._fail(_connection_error(exc))

    def _expire(self) -> None:
        """Fail every call once the oldest has waited `timeout` seconds (Redis stalled, or the network)."""
        self._timer = None
        if not self._pending:
            return
        waited = time.monotonic() - self._pending[0][1]
        if waited >= self.timeout:
            self._fail(redis_errors.TimeoutError(f"no reply from Redis within {self.timeout:g} s"))
        else:
            self._timer = asyncio.get_running_loop().call_later(self.timeout - waited, self._expire)

    def _fail(self, exc: Exception) -> None:
        """Fail every call waiting on the connection and close it (a late reply would go to the wrong caller);
        the next call connects again."""
        pending, self._pending = self._pending, deque()
        for future, _ in pending:
            if not future.done():
                future.set_exception(exc)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()  # now: it must not take a reply meant for a call on the next connection
        self._closing = asyncio.ensure_future(self._close(reader))

    async def _close(self, reader: asyncio.Task | None) -> None:
        if reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        with contextlib.suppress(Exception):
            await self._connection.disconnect(nowait=True)

    async def close(self) -> None:
        self._fail(redis_errors.ConnectionError("the connection was closed"))
        await self._closing


def _retrieve(attempt: asyncio.Future) -> None:
    """Mark a connection attempt's failure as retrieved: when its callers were all cancelled before it failed,
    nobody else looks at it, and asyncio would log "Task exception was never retrieved" with its traceback."""
    if not attempt.cancelled():
        attempt.exception()


def _connection_error(exc: Exception) -> Exception:
    """A failure of the connection as redis-py reports one (ConnectionError or TimeoutError)."""
    if isinstance(exc, redis_errors.ConnectionError | redis_errors.TimeoutError):
        return exc
    return redis_errors.ConnectionError(f"{type(exc).__name__}: {exc}")


def pack(args: tuple[Any, ...]) -> bytes:
    """A command in Redis's protocol (RESP). Its arguments are bytes, text (UTF-8) or integers, as the store's
    scripts take them; anything else is refused as redis-py refuses it, rather than sent as its repr."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        kind = type(arg)
        if kind is bytes:
            data = arg
        elif kind is str:
            data = arg.encode()
        elif kind is int:
            data = b"%d" % arg
        else:
            raise redis_errors.DataError(f"a Redis argument must be bytes, str or int, not {kind.__name__}")
        parts += (b"$%d\r\n" % len(data), data, b"\r\n")
    return b"".join(parts)
