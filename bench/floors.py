"""The two floors `tabletop bench load` compares the game service against, each a BenchService.Echo that does one
Redis read and one Redis write and nothing else:

- the Echo floor (`python -m bench.floors echo`): the game service itself (`tabletop serve`, the same arguments and
  TABLETOP_* settings) with Echo registered beside GameService, over the game store's own client and behind the
  same server and instrumentation (metrics.instrument). It differs from a game RPC only in the work of the game.
- the bare floor (`python -m bench.floors bare --port P --redis-url U`): a plain grpc.aio server with no
  interceptors, no metrics, no logs and no store around the Redis client, in a process of its own, so its CPU time
  per call is what gRPC, asyncio and the Redis client cost by themselves: the least a request to any Python gRPC
  service with a Redis read and write costs.

Benchmark tools only: no product server registers BenchService."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys

import grpc
from grpc_health.v1 import health, health_pb2_grpc

from bench.v1 import bench_pb2 as pb
from bench.v1 import bench_pb2_grpc
from service import errors, metrics
from service.store import GameStore
from tabletop import redis_client

KEY_TTL_SECONDS = 600
_KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


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


def register_echo(server: grpc.aio.Server, store: GameStore) -> None:
    """Register BenchService as its generated code does, instrumented as GameService's methods are."""
    servicer = EchoServicer(store)
    service = pb.DESCRIPTOR.services_by_name["BenchService"].full_name
    handlers = {"Echo": metrics.instrument("Echo", grpc.unary_unary_rpc_method_handler(
        servicer.Echo, request_deserializer=pb.EchoRequest.FromString,
        response_serializer=pb.EchoResponse.SerializeToString,
    ))}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))
    server.add_registered_method_handlers(service, handlers)


class BareEcho(bench_pb2_grpc.BenchServiceServicer):
    def __init__(self, redis):
        self.redis = redis

    async def Echo(self, request: pb.EchoRequest, context: grpc.aio.ServicerContext) -> pb.EchoResponse:
        key = echo_key(request.key)
        previous = await self.redis.get(key)
        await self.redis.set(key, request.payload, ex=KEY_TTL_SECONDS)
        return pb.EchoResponse(payload=request.payload, previous=previous or b"")


async def serve_bare(port: int, redis_url: str) -> None:
    # The same pool as the game store's (service/store.py GameStore.from_url), so the floors differ only in the
    # layers around the call.
    redis = redis_client.connect_async(redis_url, cluster=False, max_connections=48, socket_timeout=5,
                                       socket_connect_timeout=2)
    server = grpc.aio.server()
    bench_pb2_grpc.add_BenchServiceServicer_to_server(BareEcho(redis), server)
    health_pb2_grpc.add_HealthServicer_to_server(health.aio.HealthServicer(), server)  # for the launcher's wait
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop(1)
    await redis_client.close_async(redis)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["echo"]:
        from service import server
        from tabletop import settings

        settings.load_game_modules(os.environ)  # the games `tabletop serve` would host (commands/cli.py)
        return server.main(argv[1:], more_services=register_echo)
    if argv[:1] == ["bare"]:
        parser = argparse.ArgumentParser(prog="python -m bench.floors bare", description="Run the bare floor.")
        parser.add_argument("--port", type=int, required=True)
        parser.add_argument("--redis-url", required=True)
        args = parser.parse_args(argv[1:])
        asyncio.run(serve_bare(args.port, args.redis_url))
        return 0
    print("usage: python -m bench.floors {echo [ARGS of tabletop serve] | bare --port P --redis-url U}\n\n"
          + __doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
