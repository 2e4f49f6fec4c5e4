"""The bare floor of `tabletop bench load`: a plain grpc.aio server whose BenchService.Echo does one Redis GET and one
SET, with no interceptors, no metrics, no logs and no store around the Redis client. It runs in its own process
(`python -m service.bare_floor --port P --redis-url U`), so its CPU time per call is what gRPC, asyncio and the
Redis client cost by themselves: the least a request to any Python gRPC service with a Redis read and write costs.
A benchmark tool only; `tabletop serve` never registers it."""

from __future__ import annotations

import argparse
import asyncio
import signal

import grpc
from grpc_health.v1 import health, health_pb2_grpc

from service.echo import KEY_TTL_SECONDS, echo_key
from tabletop import redis_client
from tabletop.v1 import bench_pb2 as pb
from tabletop.v1 import bench_pb2_grpc


class BareEcho(bench_pb2_grpc.BenchServiceServicer):
    def __init__(self, redis):
        self.redis = redis

    async def Echo(self, request: pb.EchoRequest, context: grpc.aio.ServicerContext) -> pb.EchoResponse:
        key = echo_key(request.key)
        previous = await self.redis.get(key)
        await self.redis.set(key, request.payload, ex=KEY_TTL_SECONDS)
        return pb.EchoResponse(payload=request.payload, previous=previous or b"")


async def serve(port: int, redis_url: str) -> None:
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m service.bare_floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--redis-url", required=True)
    args = parser.parse_args(argv)
    asyncio.run(serve(args.port, args.redis_url))


if __name__ == "__main__":
    main()
