"""The gateway's HTTP application: gRPC-Web in, native gRPC out, with no code per RPC.

Each POST /<service>/<method> is forwarded as raw message bytes over one generic grpc.aio channel (a
unary-stream call: on the wire a unary RPC is a stream of one), so new RPCs and game plugins need nothing here.
Request headers become metadata (authorization, x-api-key, any custom key; `-bin` values decoded); the
upstream's initial metadata becomes response headers, its messages frames written as they arrive (WatchGame
streams without buffering), and its status, message and trailing metadata (grpc-status-details-bin: the
google.rpc.Status with ErrorInfo, RetryInfo...) the trailer frame. CORS answers only the configured origins.
"""

from __future__ import annotations

import asyncio
import base64
import socket
import time
from pathlib import Path

import grpc
import structlog
from aiohttp import web

from gateway import metrics
from gateway.config import Config
from tabletop import grpcweb, transport

log = structlog.get_logger("gateway")

# Request headers that describe the HTTP exchange or the browser, not the call: never forwarded as metadata.
NOT_METADATA = frozenset({
    "host", "content-type", "content-length", "accept", "accept-encoding", "accept-language", "connection",
    "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "origin", "referer", "user-agent", "cookie",
    "x-grpc-web", "x-user-agent", "grpc-timeout", "grpc-accept-encoding", "grpc-encoding", "pragma",
    "cache-control", "priority", "dnt", "forwarded", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host",
    "x-real-ip", "x-tabletop-forward-secret",
})
# What a browser may send and read across origins.
ALLOWED_HEADERS = "authorization, content-type, grpc-timeout, x-api-key, x-grpc-web, x-user-agent"
EXPOSED_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin"
PREFLIGHT_MAX_AGE = "7200"
FORWARDED_FOR = "x-forwarded-for"
# The calls sent to the watch tier when one is configured (TABLETOP_GATEWAY_WATCH_UPSTREAM).
WATCH_PATHS = frozenset({"/tabletop.v1.GameService/WatchGame"})
FORWARD_SECRET = "x-tabletop-forward-secret"
# A browser that goes away without a word (a laptop closed, a network gone: no FIN, no RST) is found by TCP
# keepalive probes: after this many idle seconds the kernel probes every interval, and gives up after the count
# unanswered; a connection whose written data goes unacknowledged that long times out too (TCP_USER_TIMEOUT). Either
# way the connection is lost, the handler is cancelled and the upstream call with it (gateway.server, `_forward`).
KEEPALIVE_IDLE_SECONDS = 10
KEEPALIVE_INTERVAL_SECONDS = 5
KEEPALIVE_COUNT = 3
NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>Tabletop</title>
<h1>Tabletop</h1><p>The web table is not built. Install Node.js 20 or later and npm, then run
<code>make web</code> (or <code>make run</code>, which builds it when npm is present).</p>
<p>The gRPC-Web API is served here all the same: see docs/frontends.md.</p>"""


class Gateway:
    """The upstream channels (the game service, and the watch tier when one is configured) and the handlers that
    translate gRPC-Web calls onto them."""

    def __init__(self, config: Config):
        self.config = config
        self.channel = self._channel(config.upstream)
        # WatchGame streams go to the watch tier: there the fan-out of spectators' updates shares no event loop
        # with the players' calls (docs/resilience.md).
        self.watch_channel = self._channel(config.watch_upstream) if config.watch_upstream else self.channel

    def _channel(self, target: str) -> grpc.aio.Channel:
        limit = self.config.max_message_bytes + 64
        options = [("grpc.max_receive_message_length", limit), ("grpc.max_send_message_length", limit)]
        if self.config.service_tls:
            return grpc.aio.secure_channel(target, transport.channel_credentials(self.config.tls_ca_file),
                                           options=options)
        return grpc.aio.insecure_channel(target, options=options)

    async def close(self) -> None:
        await self.channel.close()
        if self.watch_channel is not self.channel:
            await self.watch_channel.close()

    # --- CORS ---

    def _cross_origin(self, request: web.Request) -> str | None:
        """The Origin of a cross-origin call (None for a same-origin one or a non-browser caller)."""
        origin = request.headers.get("Origin")
        if not origin:
            return None
        return None if origin.partition("://")[2].lower() == request.host.lower() else origin

    def _cors_headers(self, origin: str | None) -> dict[str, str]:
        if origin is None:
            return {}
        return {"Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED_HEADERS,
                "Vary": "Origin"}

    def _origin_refused(self, origin: str | None) -> bool:
        return origin is not None and origin.rstrip("/").lower() not in self.config.allowed_origins

    async def preflight(self, request: web.Request) -> web.Response:
        origin = self._cross_origin(request)
        if self._origin_refused(origin):
            metrics.REFUSED_ORIGINS.inc()
            return web.Response(status=403, text="origin not allowed\n", headers={"Vary": "Origin"})
        headers = self._cors_headers(origin)
        headers.update({"Access-Control-Allow-Methods": "POST, OPTIONS", "Access-Control-Allow-Headers":
                        ALLOWED_HEADERS, "Access-Control-Max-Age": PREFLIGHT_MAX_AGE})
        return web.Response(status=204, headers=headers)

    # --- calls ---

    def _client_address(self, request: web.Request) -> str:
        if self.config.trust_forwarded_for:
            forwarded = request.headers.get("X-Forwarded-For", "")
            if forwarded.strip():
                return forwarded.split(",")[-1].strip()
        return request.remote or "unknown"

    def _metadata(self, request: web.Request) -> list[tuple[str, str | bytes]]:
        metadata: list[tuple[str, str | bytes]] = []
        for key, value in request.headers.items():
            key = key.lower()
            if key in NOT_METADATA or key.startswith(("grpc-", "sec-", "access-control-", ":")):
                continue
            metadata.append((key, grpcweb.binary_header(value) if key.endswith("-bin") else value))
        if self.config.forward_secret:
            metadata += [(FORWARDED_FOR, self._client_address(request)),
                         (FORWARD_SECRET, self.config.forward_secret)]
        return metadata

    def _answer(self, request: web.Request, origin: str | None, code: int, message: str) -> web.Response:
        """A trailers-only answer (an error found before the upstream was called)."""
        content_type = request.content_type if request.content_type in grpcweb.CONTENT_TYPES else \
            "application/grpc-web+proto"
        headers = {**self._cors_headers(origin), "Content-Type": content_type, "grpc-status": str(code),
                   "grpc-message": grpcweb.encode_message(message)}
        return web.Response(status=200, headers=headers)

    async def call(self, request: web.Request) -> web.StreamResponse:
        origin = self._cross_origin(request)
        if self._origin_refused(origin):
            metrics.REFUSED_ORIGINS.inc()
            return web.Response(status=403, text="origin not allowed\n", headers={"Vary": "Origin"})
        if request.content_type not in grpcweb.CONTENT_TYPES:
            return web.Response(status=415, text="send application/grpc-web+proto (gRPC-Web)\n",
                                headers=self._cors_headers(origin))
        service, method = request.match_info["service"], request.match_info["method"]
        path = f"/{service}/{method}"
        if service not in self.config.services:
            return self._answer(request, origin, grpc.StatusCode.UNIMPLEMENTED.value[0],
                                f"{service} is not served to browsers")
        text = grpcweb.is_text(request.content_type)
        try:
            body = await request.read()
            if text:
                body = grpcweb.decode_text(body)
            messages = [payload for flag, payload in grpcweb.frames(body) if flag == grpcweb.MESSAGE]
            timeout = grpcweb.parse_timeout(request.headers.get("grpc-timeout", ""))
            metadata = self._metadata(request)
            if len(messages) != 1:
                raise grpcweb.FrameError(f"a call sends exactly one message, got {len(messages)}")
        except grpcweb.FrameError as exc:
            metrics.CALLS.labels(path, "INVALID_ARGUMENT").inc()
            return self._answer(request, origin, grpc.StatusCode.INVALID_ARGUMENT.value[0], str(exc))
        return await self._forward(request, origin, path, messages[0], metadata, timeout, text)

    async def _forward(self, request, origin, path, message, metadata, timeout, text) -> web.StreamResponse:
        """Call the upstream and stream its answer back. When the client's connection goes (closed, reset, or
        silent past the keepalive probes), aiohttp cancels this handler (handler_cancellation, gateway.server):
        the upstream call is cancelled with it, whether or not anything was being written."""
        started = time.perf_counter()
        probe_silent_peers(request.transport)
        channel = self.watch_channel if path in WATCH_PATHS else self.channel
        call = channel.unary_stream(path)(message, metadata=metadata, timeout=timeout)
        response = web.StreamResponse(status=200, headers={**self._cors_headers(origin),
                                                          "Content-Type": request.content_type,
                                                          "Cache-Control": "no-cache, no-store",
                                                          "X-Accel-Buffering": "no"})

        def encode(chunk: bytes) -> bytes:
            return base64.b64encode(chunk) if text else chunk

        code, details, trailing = grpc.StatusCode.OK, "", ()
        metrics.IN_FLIGHT.inc()
        try:
            for key, value in await call.initial_metadata() or ():
                response.headers.add(key, grpcweb.metadata_value(key, value))
            await response.prepare(request)
            async for reply in call:
                await response.write(encode(grpcweb.frame(grpcweb.MESSAGE, reply)))
        except grpc.aio.AioRpcError as error:
            code, details, trailing = error.code(), error.details() or "", error.trailing_metadata() or ()
        except (asyncio.CancelledError, ConnectionResetError):
            call.cancel()  # the browser went away: end the upstream call (a WatchGame stream) with it
            metrics.CALLS.labels(path, "CANCELLED").inc()
            raise
        finally:
            metrics.IN_FLIGHT.dec()
        if code is grpc.StatusCode.OK:
            trailing = await call.trailing_metadata() or ()
        if not response.prepared:
            await response.prepare(request)
        metrics.CALLS.labels(path, code.name).inc()
        metrics.LATENCY.labels(path).observe(time.perf_counter() - started)
        await response.write(encode(grpcweb.trailers(code.value[0], details, trailing)))
        await response.write_eof()
        return response

    # --- the rest ---

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(self, request: web.Request) -> web.Response:
        """Ready while the game service answers its health check as SERVING."""
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        try:
            reply = await health_pb2_grpc.HealthStub(self.channel).Check(
                health_pb2.HealthCheckRequest(service=self.config.services[0]), timeout=2)
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return web.Response(text="ready\n")
        except grpc.aio.AioRpcError:
            pass
        return web.Response(status=503, text="the game service is not serving\n")

    async def not_built(self, request: web.Request) -> web.Response:
        return web.Response(text=NOT_BUILT, content_type="text/html")


def probe_silent_peers(transport: asyncio.BaseTransport | None) -> None:
    """Have the kernel find a connection whose peer vanished without closing it (KEEPALIVE_*; Linux)."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or not hasattr(socket, "TCP_KEEPIDLE"):
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, KEEPALIVE_IDLE_SECONDS)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, KEEPALIVE_INTERVAL_SECONDS)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, KEEPALIVE_COUNT)
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT,
                        1000 * (KEEPALIVE_IDLE_SECONDS + KEEPALIVE_INTERVAL_SECONDS * KEEPALIVE_COUNT))


def build_app(config: Config) -> web.Application:
    """The aiohttp application: gRPC-Web calls, CORS preflights, health, and the web table when one is built."""
    gateway = Gateway(config)
    app = web.Application(client_max_size=config.max_message_bytes + 64)
    app.router.add_post("/{service}/{method}", gateway.call)
    app.router.add_route("OPTIONS", "/{service}/{method}", gateway.preflight)
    app.router.add_get("/healthz", gateway.healthz)
    app.router.add_get("/readyz", gateway.readyz)
    static = Path(config.static_dir) if config.static_dir else None
    if static and (static / "index.html").is_file():
        index = static / "index.html"

        async def index_page(request: web.Request) -> web.FileResponse:
            return web.FileResponse(index, headers={"Cache-Control": "no-cache"})

        app.router.add_get("/", index_page)
        app.router.add_static("/", static)
    else:
        app.router.add_get("/", gateway.not_built)

    async def close(app: web.Application) -> None:
        await gateway.close()

    app.on_cleanup.append(close)
    return app
