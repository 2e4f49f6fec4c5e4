"""The benchmark floor (`tabletop bench load`): BenchService.Echo does one Redis read and one Redis write over the
game store's own client, behind the same server and instrumentation (metrics.instrument) as GameService, and
nothing else. Registered only when TABLETOP_BENCH_ECHO=1; never in production."""

from __future__ import annotations

import os
import re

import grpc

from service import errors, metrics
from service.store import GameStore
from tabletop.v1 import bench_pb2 as pb
from tabletop.v1 import bench_pb2_grpc

ENV_FLAG = "TABLETOP_BENCH_ECHO"
KEY_TTL_SECONDS = 600
_KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def enabled() -> bool:
    return os.environ.get(ENV_FLAG) == "1"


def echo_key(key: str) -> str:
    return f"bench:echo:{{{key}}}"


class EchoServicer(bench_pb2_grpc.BenchServiceServicer):
    def __init__(self, store: GameStore):
        self.store = store

    async def Echo(self, request: pb.EchoRequest, context: grpc.aio.ServicerContext) -> pb.EchoResponse:
        if not _KEY.match(request.key):
            await context.abort_with_status(
                errors.invalid("INVALID_KEY", "key must be 1-64 characters of A-Z a-z 0-9 _ -").to_status()
            )
        key = echo_key(request.key)
        redis = self.store.redis
        try:
            previous = await self.store._timed("echo_read", lambda: redis.get(key))
            await self.store._timed("echo_write", lambda: redis.set(key, request.payload, ex=KEY_TTL_SECONDS))
        except errors.ServiceError as exc:
            await context.abort_with_status(exc.to_status())
        return pb.EchoResponse(payload=request.payload, previous=previous or b"")


def register(server: grpc.aio.Server, store: GameStore) -> None:
    """Register BenchService as its generated code does, instrumented as GameService's methods are."""
    servicer = EchoServicer(store)
    service = pb.DESCRIPTOR.services_by_name["BenchService"].full_name
    handlers = {"Echo": metrics.instrument("Echo", grpc.unary_unary_rpc_method_handler(
        servicer.Echo, request_deserializer=pb.EchoRequest.FromString,
        response_serializer=pb.EchoResponse.SerializeToString,
    ))}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))
    server.add_registered_method_handlers(service, handlers)
