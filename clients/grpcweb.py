"""A small gRPC-Web client over aiohttp: the browser's protocol, spoken from Python (tests and `tabletop bench
gateway` use it to call the service through the gateway exactly as a web page does).

`GrpcWebStub(session, base_url, descriptor)` has one coroutine per RPC of the service descriptor, like a generated
stub: unary methods return the response message, server-streaming ones an async iterator of messages. A status
other than OK raises `GrpcWebError`, which answers `code()`, `details()` and `trailing_metadata()` like a grpc
error, so `grpc_status.rpc_status.from_call` reads its google.rpc.Status details.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

import aiohttp
import grpc
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message_factory import GetMessageClass

from tabletop import grpcweb

CONTENT_TYPE = "application/grpc-web+proto"
CODES = {code.value[0]: code for code in grpc.StatusCode}


class GrpcWebError(grpc.RpcError):
    """A gRPC-Web call that ended with a status other than OK."""

    def __init__(self, code: grpc.StatusCode, details: str, trailers: dict[str, str]):
        super().__init__(f"{code.name}: {details}")
        self._code, self._details, self._trailers = code, details, trailers

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details

    def trailing_metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return tuple((k, grpcweb.binary_header(v) if k.endswith("-bin") else v) for k, v in self._trailers.items()
                     if k not in ("grpc-status", "grpc-message"))


def _check(trailers: dict[str, str]) -> None:
    code = CODES.get(int(trailers.get("grpc-status", "2")), grpc.StatusCode.UNKNOWN)
    if code is not grpc.StatusCode.OK:
        raise GrpcWebError(code, trailers.get("grpc-message", ""), trailers)


class GrpcWebStub:
    """Coroutines named after the RPCs of `service`, speaking gRPC-Web to `base_url` (e.g. http://127.0.0.1:8080)."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str, service: ServiceDescriptor):
        self._session, self._base = session, base_url.rstrip("/")
        for method in service.methods:
            output = GetMessageClass(method.output_type)
            path = f"/{service.full_name}/{method.name}"
            call = self._stream if method.server_streaming else self._unary
            setattr(self, method.name, self._bind(call, path, output))

    @staticmethod
    def _bind(call, path, output):
        def method(request, metadata: Iterable[tuple[str, str]] = (), timeout: float | None = None, **_):
            return call(path, output, request, metadata, timeout)
        return method

    async def _post(self, path: str, request, metadata, timeout) -> aiohttp.ClientResponse:
        headers = {"Content-Type": CONTENT_TYPE, "X-Grpc-Web": "1", **dict(metadata)}
        if timeout is not None:
            headers["grpc-timeout"] = f"{max(1, int(timeout * 1000))}m"
        body = grpcweb.frame(grpcweb.MESSAGE, request.SerializeToString())
        response = await self._session.post(self._base + path, data=body, headers=headers)
        if response.status != 200:
            text = await response.text()
            response.release()
            raise GrpcWebError(grpc.StatusCode.UNAVAILABLE, f"HTTP {response.status}: {text.strip()}", {})
        return response

    async def _unary(self, path, output, request, metadata, timeout):
        replies = [reply async for reply in self._stream(path, output, request, metadata, timeout)]
        if len(replies) != 1:
            raise GrpcWebError(grpc.StatusCode.INTERNAL, f"a unary call answered {len(replies)} messages", {})
        return replies[0]

    async def _stream(self, path, output, request, metadata, timeout) -> AsyncIterator:
        response = await self._post(path, request, metadata, timeout)
        async with response:
            if "grpc-status" in response.headers:  # trailers-only
                _check({k.lower(): v for k, v in response.headers.items()})
            buffer = b""
            async for chunk in response.content.iter_any():
                buffer += chunk
                while len(buffer) >= grpcweb.HEADER.size:
                    flag, length = grpcweb.HEADER.unpack_from(buffer)
                    if len(buffer) < grpcweb.HEADER.size + length:
                        break
                    payload = buffer[grpcweb.HEADER.size:grpcweb.HEADER.size + length]
                    buffer = buffer[grpcweb.HEADER.size + length:]
                    if flag & grpcweb.TRAILERS:
                        _check(grpcweb.parse_trailers(payload))
                        return
                    yield output.FromString(payload)
            if "grpc-status" not in response.headers:
                raise GrpcWebError(grpc.StatusCode.UNAVAILABLE, "the stream ended without trailers", {})
