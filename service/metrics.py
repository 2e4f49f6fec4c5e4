"""Prometheus metrics of the game service, served on their own HTTP port (TABLETOP_METRICS_PORT)."""

from __future__ import annotations

import asyncio
import functools
import time

import grpc
import structlog
from google.protobuf.message import DecodeError
from grpc import aio
from prometheus_client import Counter, Gauge, Histogram

from service import errors
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
MOVES = Counter("tabletop_moves_total", "Moves applied", ["game_type"])
VERSION_CONFLICTS = Counter("tabletop_version_conflicts_total", "Writes refused because the version moved on")
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


def method_name(full: str) -> str:
    """`/tabletop.v1.GameService/MakeMove` -> `MakeMove`."""
    return full.rsplit("/", 1)[-1]


class MetricsInterceptor(aio.ServerInterceptor):
    """Count, time and log every RPC by method and final status code."""

    def __init__(self) -> None:
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    async def intercept_service(self, continuation, handler_call_details):
        # A method's handler never changes once the server runs: it is wrapped once, not at every call.
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            wrapped = self._wrap(await continuation(handler_call_details), handler_call_details)
            if wrapped is not None:
                self._wrapped[method] = wrapped
        return wrapped

    def _wrap(self, handler, handler_call_details):
        if handler is None or handler_call_details.method.startswith("/grpc."):
            # Health probes and reflection are infrastructure, not API traffic: a kubelet probing every few
            # seconds would otherwise fill the RPC metrics and logs.
            return handler
        method = method_name(handler_call_details.method)
        parse = handler.request_deserializer
        if handler.unary_unary:
            inner = handler.unary_unary

            async def unary(request, context):
                structlog.contextvars.clear_contextvars()
                started = time.perf_counter()
                code = grpc.StatusCode.UNKNOWN
                try:
                    response = await inner(await _parsed(parse, request, context), context)
                    code = context.code() or grpc.StatusCode.OK
                    return response
                except BaseException:
                    code = context.code() or grpc.StatusCode.UNKNOWN
                    raise
                finally:
                    _record(method, code, started)

            return grpc.unary_unary_rpc_method_handler(
                unary, request_deserializer=None,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            inner_stream = handler.unary_stream

            async def stream(request, context):
                structlog.contextvars.clear_contextvars()
                started = time.perf_counter()
                code = grpc.StatusCode.UNKNOWN
                STREAMS_OPEN.labels(method).inc()
                try:
                    async for response in inner_stream(await _parsed(parse, request, context), context):
                        yield response
                    code = context.code() or grpc.StatusCode.OK
                except BaseException as exc:
                    code = context.code() or (
                        grpc.StatusCode.CANCELLED if isinstance(exc, GeneratorExit | asyncio.CancelledError) else
                        grpc.StatusCode.UNKNOWN
                    )
                    raise
                finally:
                    STREAMS_OPEN.labels(method).dec()
                    _record(method, code, started, STREAM_DURATION)

            serialize = handler.response_serializer
            return grpc.unary_stream_rpc_method_handler(
                stream, request_deserializer=None,
                # A stream may write updates serialized once for many watchers: bytes pass through as they are.
                response_serializer=lambda m: m if type(m) is bytes else serialize(m),
            )
        return handler


async def _parsed(parse, raw: bytes, context: aio.ServicerContext):
    """Parse the request here, not in gRPC, which answers bytes that are no valid message (corrupt wire format,
    bad UTF-8 in a string) with UNKNOWN: they are malformed input, INVALID_ARGUMENT."""
    if parse is None:
        return raw
    try:
        return parse(raw)
    except DecodeError as exc:
        await context.abort_with_status(errors.invalid("MALFORMED_REQUEST", f"the request is no valid message: {exc}")
                                        .to_status())


SLOW_RPC_SECONDS = 1.0  # a unary RPC slower than this is logged at info level even when it succeeds


def _record(method: str, code: grpc.StatusCode, started: float, histogram: Histogram = RPC_DURATION) -> None:
    child(RPC_REQUESTS, method, code.name).inc()
    duration = time.perf_counter() - started
    child(histogram, method).observe(duration)
    # One line per RPC: at info level when it failed or was slow (or a stream ended), else at debug level, which
    # the default level (info) drops before building anything: the metrics above count every call anyway.
    if code is grpc.StatusCode.OK and duration < SLOW_RPC_SECONDS and histogram is RPC_DURATION:
        log.debug("rpc", method=method, code=code.name, duration_ms=round(duration * 1000, 3))
    else:
        log.info("rpc", method=method, code=code.name, duration_ms=round(duration * 1000, 3))
