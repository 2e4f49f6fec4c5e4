"""`tabletop bench gateway`: the cost of the browser path. The same load as `tabletop bench load` (Hinode games of
4 human seats; a move = GetState + MakeMove with expected_version and request_id), driven alternately through the
gRPC-Web gateway (the protocol a browser speaks, over HTTP/1.1 keep-alive connections) and natively over gRPC to
the same service, in 1 s slices so that whatever else loads the machine weighs on both alike.

Per concurrency level it prints moves per second and p50/p99 latencies of both paths, the ratio gateway/native,
and the CPU the gateway process spent per move. Without --target/--gateway it starts Redis, a game service and a
gateway as separate processes. Loops are bounded by --seconds and stop by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import Iterator

import aiohttp

from bench.load import SLICE_SECONDS, Sample, _levels, _row, cpu_seconds, drive_games, new_table
from clients import connection
from clients.connection import Connection
from clients.grpcweb import GrpcWebStub
from tabletop import transport
from tabletop.v1 import game_service_pb2, game_service_pb2_grpc

SERVICE = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]


async def run(target: str, gateway_url: str, levels: list[int], games: int, seconds: float, seed: int,
              pids: tuple[int | None, int | None] = (None, None), link: Connection | None = None) -> int:
    service_pid, gateway_pid = pids
    connector = aiohttp.TCPConnector(limit=max(levels) * 2)
    async with (link or Connection()).aio_channel(target, []) as channel, \
            aiohttp.ClientSession(connector=connector) as session:
        native = game_service_pb2_grpc.GameServiceStub(channel)
        web = GrpcWebStub(session, gateway_url, SERVICE)
        paths = {"native": native, "gateway": web}
        tables = {name: asyncio.Queue() for name in paths}
        for name, stub in paths.items():
            for table in await asyncio.gather(*(new_table(stub) for _ in range(max(games, max(levels))))):
                tables[name].put_nowait(table)
            await drive_games(stub, tables[name], min(levels), min(2.0, seconds), seed)  # warm up
        print(f"service {target}, gateway {gateway_url}: hinode, 4 human seats, {games} games per path, "
              f"{seconds:g} s per level and path in {SLICE_SECONDS:g} s slices, alternating; "
              "a move = GetState + MakeMove")
        for clients in levels:
            samples = {name: Sample() for name in paths}
            gateway_cpu = {name: 0.0 for name in paths}
            service_cpu = {name: 0.0 for name in paths}
            for index in range(max(1, round(seconds / SLICE_SECONDS))):
                for name, stub in paths.items():
                    g0, s0 = cpu_seconds(gateway_pid), cpu_seconds(service_pid)
                    samples[name].merge(await drive_games(stub, tables[name], clients, SLICE_SECONDS,
                                                          seed + clients * 1000 + index))
                    gateway_cpu[name] += cpu_seconds(gateway_pid) - g0
                    service_cpu[name] += cpu_seconds(service_pid) - s0
            rates = {name: s.rate("MakeMove") for name, s in samples.items()}
            for name, sample in samples.items():
                print(_row(name[:7], clients, sample, ("GetState", "MakeMove"), rates[name]))
            ratio = rates["gateway"] / rates["native"] if rates["native"] else float("nan")
            print(f"{'':7} clients {clients:3}  gateway/native moves per second: {ratio:.2f}")
            moves = samples["gateway"].count("MakeMove")
            if gateway_pid and moves:
                native_moves = samples["native"].count("MakeMove") or 1
                print(f"{'':7} clients {clients:3}  CPU per move: gateway process "
                      f"{gateway_cpu['gateway'] / moves * 1000:.2f} ms, service "
                      f"{service_cpu['gateway'] / moves * 1000:.2f} ms through the gateway vs "
                      f"{service_cpu['native'] / native_moves * 1000:.2f} ms natively")
    return 0


@contextlib.contextmanager
def local_stack() -> Iterator[tuple[str, str, int, int]]:
    """Redis, a game service and a gRPC-Web gateway; yields (service target, gateway URL, their pids)."""
    from tabletop.stack.embedded_redis import EmbeddedRedis, free_port
    from tabletop.stack.launcher import LocalStack

    os.environ.setdefault("TABLETOP_METRICS_PORT", "0")
    os.environ.setdefault("TABLETOP_GATEWAY_METRICS_PORT", "0")
    with EmbeddedRedis(appendonly=True) as redis_server, \
            LocalStack(redis_url=redis_server.url, with_worker=False, gateway_port=free_port()) as stack:
        pids = {name: proc.pid for name, proc in stack.procs}
        print(f"started redis-server ({redis_server.url}), tabletop serve ({stack.target}, pid {pids['game service']}) "
              f"and tabletop gateway ({stack.gateway_url}, pid {pids['gateway']})")
        yield stack.target, stack.gateway_url, pids["game service"], pids["gateway"]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench gateway", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a running game service (give --gateway too; default: start both)")
    parser.add_argument("--gateway", help="the gateway in front of --target, e.g. http://127.0.0.1:8080")
    parser.add_argument("--clients", type=_levels, default=[16], help="concurrency levels (default 16)")
    parser.add_argument("--games", type=int, default=64, help="games in play at once per path (default 64)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per level and path (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random moves (default 1)")
    connection.add_arguments(parser, api_key=False)
    args = parser.parse_args(argv)
    if bool(args.target) != bool(args.gateway):
        parser.error("give both --target and --gateway, or neither")
    if args.target:
        try:  # seat tokens go both ways: never in plaintext off this machine unasked
            link = Connection.from_args(args)
            link.check(args.target, "seat tokens")
            if args.gateway.startswith("http://") and not link.insecure:
                transport.refuse_plaintext(args.gateway.removeprefix("http://").split("/")[0], "seat tokens",
                                           ("Give an https:// gateway URL, or --insecure if you trust the network.",))
        except ValueError as error:  # PlaintextRefused, a bad TABLETOP_* flag
            print(f"tabletop bench gateway: {error}", file=sys.stderr)
            return 2
        return asyncio.run(run(args.target, args.gateway, args.clients, args.games, args.seconds, args.seed,
                               link=link))
    with local_stack() as (target, gateway_url, service_pid, gateway_pid):
        return asyncio.run(run(target, gateway_url, args.clients, args.games, args.seconds, args.seed,
                               (service_pid, gateway_pid)))
