"""Prometheus metrics of the game service, served on their own HTTP port (TABLETOP_METRICS_PORT)."""

from __future__ import annotations

import asyncio
import functools
import time

import grpc
from google.protobuf.message import DecodeError
from grpc import aio
from prometheus_client import Counter, Gauge, Histogram

from service import errors, logs
from service.logs import log

RPC_REQUESTS = Counter("tabletop_rpc_requests_total", "RPCs handled, by method and status code", ["method", "code"])
RPC_DURATION = Histogram(
    "tabletop_rpc_duration_seconds", "Latency of unary RPCs by method (streams: tabletop_stream_duration_seconds)",
    ["method"], buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
# A WatchGame stream lasts as long as its client watches: minutes to hours, not a latency. Kept apart so that the
# latency quantiles and alerts above mean what they say.
STREAM_DURATION = Histogram(
    "tabletop_stream_duration_seconds", "How long server streams (WatchGame) stayed open, by method, when they ended",
    ["method"], buckets=(1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 21600),
)
STREAMS_OPEN = Gauge("tabletop_streams_open", "Server streams open now, by method", ["method"])
# Exported at 0 from the start: "no streams" is a value, not no data, and rate() sees the first stream that ends.
STREAMS_OPEN.labels("WatchGame")
STREAM_DURATION.labels("WatchGame")
GAMES_CREATED = Counter("tabletop_games_created_total", "Games created", ["game_type"])
GAMES_ACTIVE = Gauge("tabletop_games_active", "Games not finished and not expired, counted in Redis: every replica "
                     "reports the same total (aggregate with max, not sum)",
                     ["game_type"])
GAMES_FINISHED = Counter("tabletop_games_finished_total", "Games that reached their end", ["game_type"])
GAMES_ABANDONED = Counter("tabletop_games_abandoned_total", "Unfinished games the timekeeper ended as abandoned (no "
                          "change for TABLETOP_ABANDONED_SECONDS; with a database only)", ["game_type"])
MOVES = Counter("tabletop_moves_total", "Moves applied", ["game_type"])
VERSION_CONFLICTS = Counter("tabletop_version_conflicts_total", "Writes refused because the version moved on")
TURN_TIMEOUTS = Counter(
    "tabletop_turn_timeouts_total",
    "Late seats the timekeeper acted for when their turn timer ran out, by outcome: ai_job (a job for the AI to move "
    "for the seat), forfeited (the timer forfeits: the seat resigned), stale (the game moved on first), failed "
    "(retried when its claim runs out)",
    ["outcome"],
)
for _outcome in ("ai_job", "forfeited", "stale", "failed"):  # at 0 from the start: increase() sees the first one
    TURN_TIMEOUTS.labels(_outcome)
TIMEKEEPER_SHARDS = Gauge(
    "tabletop_timekeeper_shards",
    "Job shards whose turn deadlines this replica keeps (holds the lease of); summed over the replicas, every shard",
)
# Redis calls that block on purpose: WatchGame's XREAD BLOCK waits up to seconds for the next move, so its time says
# how quiet a game is, not how fast Redis is. They are timed by the store like every call but not observed below.
BLOCKING_REDIS_OPS = frozenset({"wait_events"})


class _RedisHistogram(Histogram):
    """The Redis latency histogram: `labels(op)` of a blocking op is a child that records nothing."""

    def labels(self, *values, **kwargs):
        op = values[0] if values else kwargs.get("op")
        if op in BLOCKING_REDIS_OPS:
            return _NOT_RECORDED
        return super().labels(*values, **kwargs)


class _NotRecorded:
    def observe(self, amount: float, exemplar=None) -> None:
        pass


_NOT_RECORDED = _NotRecorded()

REDIS_DURATION = _RedisHistogram(
    "tabletop_redis_duration_seconds", "Redis round trips by operation (not the blocking read of WatchGame)", ["op"],
    buckets=(0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5),
)


@functools.cache
def child(metric, *labels: str):
    """`metric.labels(*labels)`, looked up once: the lookup (a lock, checks) costs more than the count itself."""
    return metric.labels(*labels)


def instrument(method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """`handler` of the API method `method` (`MakeMove`), counted, timed and logged by its final status code.

    Wrapped once, when the method is registered, rather than by a grpc.aio ServerInterceptor: gRPC runs an
    interceptor's chain at every call (a coroutine, a handler lookup, the call details), which cost the Echo floor
    a fifth of its CPU per call. Health probes and reflection are not registered through here: they are
    infrastructure, not API traffic, and a kubelet probing every few seconds would fill the metrics and logs."""
    parse = handler.request_deserializer
    calls = _Calls(method)
    if handler.unary_unary:
        inner = handler.unary_unary

        async def unary(request, context):
            logs.new_call()
            started = time.perf_counter()
            code = grpc.StatusCode.UNKNOWN
            try:
                try:
                    request = parse(request)
                except DecodeError as exc:
                    await _malformed(context, exc)
                response = await inner(request, context)
                code = context.code() or grpc.StatusCode.OK
                return response
            except BaseException:
                code = context.code() or grpc.StatusCode.UNKNOWN
                raise
            finally:
                calls.ended(code, started)

        return grpc.unary_unary_rpc_method_handler(
            unary, request_deserializer=None, response_serializer=handler.response_serializer,
        )
    if handler.unary_stream:
        inner_stream = handler.unary_stream
        streams_open = STREAMS_OPEN.labels(method)

        async def stream(request, context):
            logs.new_call()
            started = time.perf_counter()
            code = grpc.StatusCode.UNKNOWN
            streams_open.inc()
            try:
                try:
                    request = parse(request)
                except DecodeError as exc:
                    await _malformed(context, exc)
                async for response in inner_stream(request, context):
                    yield response
                code = context.code() or grpc.StatusCode.OK
            except BaseException as exc:
                code = context.code() or (
                    grpc.StatusCode.CANCELLED if isinstance(exc, GeneratorExit | asyncio.CancelledError) else
                    grpc.StatusCode.UNKNOWN
                )
                raise
            finally:
                streams_open.dec()
                calls.ended(code, started, STREAM_DURATION)

        serialize = handler.response_serializer
        return grpc.unary_stream_rpc_method_handler(
            stream, request_deserializer=None,
            # A stream may write updates serialized once for many watchers: bytes pass through as they are.
            response_serializer=lambda m: m if type(m) is bytes else serialize(m),
        )
    raise ValueError(f"{method}: only unary and server-streaming methods are instrumented")


async def _malformed(context: aio.ServicerContext, exc: DecodeError) -> None:
    """Requests are parsed here, not in gRPC, which answers bytes that are no valid message (corrupt wire format,
    bad UTF-8 in a string) with UNKNOWN: they are malformed input, INVALID_ARGUMENT."""
    await context.abort_with_status(errors.invalid("MALFORMED_REQUEST", f"the request is no valid message: {exc}")
                                    .to_status())


SLOW_RPC_SECONDS = 1.0  # a unary RPC slower than this is logged at info level even when it succeeds


class _Calls:
    """The metrics of one method's calls, their children looked up once (a `labels` lookup takes a lock and
    checks its arguments: it cost more than the count itself)."""

    def __init__(self, method: str):
        self.method = method
        # Made at the first unary call: a stream's method must not appear in the unary latency histogram at all
        # (`labels` creates the series), since dashboards and alerts take its quantiles.
        self.latency: Histogram | None = None
        self.counted: dict[grpc.StatusCode, Counter] = {}

    def ended(self, code: grpc.StatusCode, started: float, histogram: Histogram = RPC_DURATION) -> None:
        counter = self.counted.get(code)
        if counter is None:  # a code this method has not ended with before
            counter = self.counted[code] = RPC_REQUESTS.labels(self.method, code.name)
        counter.inc()
        duration = time.perf_counter() - started
        if histogram is RPC_DURATION:
            if self.latency is None:
                self.latency = RPC_DURATION.labels(self.method)
            self.latency.observe(duration)
        else:
            child(histogram, self.method).observe(duration)
        # One line per RPC: at info level when it failed or was slow (or a stream ended), else at debug level,
        # which the default level (info) drops: the metrics above count every call anyway.
        if code is grpc.StatusCode.OK and duration < SLOW_RPC_SECONDS and histogram is RPC_DURATION:
            if logs.debugging():
                log.debug("rpc", method=self.method, code=code.name, duration_ms=round(duration * 1000, 3))
        else:
            log.info("rpc", method=self.method, code=code.name, duration_ms=round(duration * 1000, 3))
