"""`tabletop bench load`: many concurrent Hinode games (4 human seats each) driven through GetState and MakeMove,
compared with the floor of the same server stack: BenchService.Echo, one Redis read and one write per call.

Per concurrency level it prints moves per second, RPCs per second and p50/p99 latencies, then the Echo floor at
the same concurrency and the ratio. At the end it prints the Redis memory a finished game holds (MEMORY USAGE of
its hash, event stream and request-id answers). Without --target it starts its own embedded Redis and game service
(with TABLETOP_BENCH_ECHO=1), as separate processes; with --target give --redis-url to get the memory figures.

It is a client: it speaks only the generated protos over gRPC (the local stack is started as processes, and
Redis is read only for the memory figure). Loops are bounded by --seconds and stop by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from clients import connection
from clients.connection import Connection
from tabletop.v1 import bench_pb2, bench_pb2_grpc, game_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb

GAME_TYPE = "hinode"
SEATS = 4
RPC_TIMEOUT = 30.0
ECHO_PAYLOAD = bytes(range(64))
SLICE_SECONDS = 1.0


@dataclass
class Table:
    """One game the load generator plays: its seat tokens and who is to act."""

    game_id: str
    tokens: dict[int, str]
    to_act: list[int]
    version: int
    moves: int = 0


@dataclass
class Sample:
    """What one phase measured: completed calls and their latencies in seconds, by kind."""

    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    finished_games: list[str] = field(default_factory=list)

    def merge(self, other: Sample) -> None:
        self.seconds += other.seconds
        for kind, values in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(values)
        for code, count in other.errors.items():
            self.errors[code] = self.errors.get(code, 0) + count
        self.finished_games += other.finished_games

    def add(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)

    def count(self, kind: str) -> int:
        return len(self.latencies.get(kind, ()))

    def rate(self, *kinds: str) -> float:
        return sum(self.count(k) for k in kinds) / self.seconds if self.seconds else 0.0

    def percentile(self, kind: str, q: float) -> float:
        values = sorted(self.latencies.get(kind, ()))
        if not values:
            return float("nan")
        return values[min(len(values) - 1, int(q * len(values)))] * 1000


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def new_table(stub: game_service_pb2_grpc.GameServiceStub) -> Table:
    created = await stub.CreateGame(
        pb.CreateGameRequest(game_type=GAME_TYPE, seats=[pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN)] * SEATS, start=True),
        timeout=RPC_TIMEOUT,
    )
    return Table(created.game_id, {t.seat: t.token for t in created.seat_tokens}, list(created.state.to_act),
                 created.state.version)


async def play_one_move(stub, table: Table, rng: random.Random, sample: Sample) -> None:
    """The seat to act reads its view and legal moves, picks one, and sends it with its version and request id."""
    seat = rng.choice(table.to_act)
    metadata = _auth(table.tokens[seat])
    started = time.perf_counter()
    state = (await stub.GetState(pb.GetStateRequest(game_id=table.game_id), metadata=metadata,
                                 timeout=RPC_TIMEOUT)).state
    read = time.perf_counter()
    sample.add("GetState", read - started)
    move = rng.choice(state.legal_moves)
    answer = await stub.MakeMove(
        pb.MakeMoveRequest(game_id=table.game_id, move_id=move.id, expected_version=state.version,
                           request_id=f"{table.game_id}-{state.version}"),
        metadata=metadata, timeout=RPC_TIMEOUT,
    )
    sample.add("MakeMove", time.perf_counter() - read)
    table.version, table.to_act, table.moves = answer.version, list(answer.state.to_act), table.moves + 1


async def drive_games(stub, tables: asyncio.Queue, clients: int, seconds: float, seed: int) -> Sample:
    """`clients` concurrent players take a free game, make one move in it and put it back, until time is up.
    A game that ends is replaced by a new one (its CreateGame counts as a game RPC, not as a move)."""
    sample = Sample()
    deadline = time.perf_counter() + seconds

    async def client(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        while time.perf_counter() < deadline:
            table = await tables.get()
            try:
                await play_one_move(stub, table, rng, sample)
            except grpc.RpcError as error:  # native (AioRpcError) or through the gateway (GrpcWebError)
                sample.errors[error.code().name] = sample.errors.get(error.code().name, 0) + 1
            if not table.to_act:
                sample.finished_games.append(table.game_id)
                started = time.perf_counter()
                table = await new_table(stub)
                sample.add("CreateGame", time.perf_counter() - started)
            tables.put_nowait(table)

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    sample.seconds = time.perf_counter() - started
    return sample


async def drive_echo(stub: bench_pb2_grpc.BenchServiceStub, clients: int, seconds: float) -> Sample:
    """The floor: `clients` concurrent callers of Echo (one Redis read + one write each) until time is up."""
    sample = Sample()
    deadline = time.perf_counter() + seconds

    async def client(index: int) -> None:
        request = bench_pb2.EchoRequest(key=f"c{index}", payload=ECHO_PAYLOAD)
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                await stub.Echo(request, timeout=RPC_TIMEOUT)
                sample.add("Echo", time.perf_counter() - started)
            except grpc.aio.AioRpcError as error:
                sample.errors[error.code().name] = sample.errors.get(error.code().name, 0) + 1

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    sample.seconds = time.perf_counter() - started
    return sample


async def finish_games(stub, count: int, seed: int) -> list[str]:
    """Play `count` fresh games to their end (concurrently), for the memory figure."""
    rng = random.Random(seed)

    async def one() -> str:
        table = await new_table(stub)
        for _ in range(10_000):  # a Hinode game ends long before; the bound keeps the loop finite
            if not table.to_act:
                return table.game_id
            await play_one_move(stub, table, rng, Sample())
        raise RuntimeError(f"game {table.game_id} did not end")

    return list(await asyncio.gather(*(one() for _ in range(count))))


def memory_per_game(redis_url: str, game_ids: list[str]) -> list[dict[str, int]]:
    """MEMORY USAGE of each game's keys: the hash, the event stream, the stored request-id answers."""
    import redis  # only for this figure; the load itself goes through gRPC

    client = redis.Redis.from_url(redis_url)
    try:
        figures = []
        for game_id in game_ids:
            hash_key, events_key = f"game:{{{game_id}}}", f"game:{{{game_id}}}:events"
            # a game's request-id answers: one hash (an older service kept one key per request id)
            answers_key = f"game:{{{game_id}}}:requests"
            legacy = list(client.scan_iter(match=f"game:{{{game_id}}}:req:*", count=1000))
            figures.append({
                "hash": client.memory_usage(hash_key, samples=0) or 0,
                "events": client.memory_usage(events_key, samples=0) or 0,
                "answers": sum(client.memory_usage(k, samples=0) or 0 for k in [answers_key, *legacy]),
                "answer_count": client.hlen(answers_key) + len(legacy),
                "event_count": client.xlen(events_key),
            })
        return figures
    finally:
        client.close()


def _row(label: str, clients: int, sample: Sample, kinds: tuple[str, ...], rate: float) -> str:
    latency = "  ".join(f"{k} p50 {sample.percentile(k, 0.5):6.2f} ms p99 {sample.percentile(k, 0.99):6.2f} ms"
                        for k in kinds)
    errors = f"  errors {sample.errors}" if sample.errors else ""
    return f"{label:6} clients {clients:3}  {rate:8.1f}/s  {latency}{errors}"


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) a local process has used so far; 0 when it cannot be read (not Linux, remote)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, TypeError):
        return 0.0


async def run(target: str, levels: list[int], games: int, seconds: float, finished: int, seed: int,
              redis_url: str | None, server_pid: int | None = None, link: Connection | None = None) -> int:
    options = [("grpc.max_receive_message_length", 8 << 20)]
    async with (link or Connection()).aio_channel(target, options) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        echo = bench_pb2_grpc.BenchServiceStub(channel)
        tables: asyncio.Queue[Table] = asyncio.Queue()
        for table in await asyncio.gather(*(new_table(stub) for _ in range(max(games, max(levels))))):
            tables.put_nowait(table)
        await drive_games(stub, tables, min(levels), min(2.0, seconds), seed)  # warm up both sides
        await drive_echo(echo, min(levels), min(1.0, seconds))
        print(f"target {target}: {GAME_TYPE}, {SEATS} human seats, {tables.qsize()} games in play, {seconds:g} s "
              f"per level in {SLICE_SECONDS:g} s slices alternating with the Echo floor; "
              "a move = GetState + MakeMove (expected_version, request_id)")
        results = []
        for clients in levels:
            # Alternate short slices of both, so that whatever else runs on the machine meanwhile weighs on
            # the game and on its floor alike.
            game, floor = Sample(), Sample()
            game_cpu = floor_cpu = 0.0
            for index in range(max(1, round(seconds / SLICE_SECONDS))):
                started = cpu_seconds(server_pid)
                game.merge(await drive_games(stub, tables, clients, SLICE_SECONDS, seed + clients * 1000 + index))
                middle = cpu_seconds(server_pid)
                floor.merge(await drive_echo(echo, clients, SLICE_SECONDS))
                game_cpu, floor_cpu = game_cpu + middle - started, floor_cpu + cpu_seconds(server_pid) - middle
            moves, echoes = game.rate("MakeMove"), floor.rate("Echo")
            rpcs = game.rate("GetState", "MakeMove", "CreateGame")
            print(_row("moves", clients, game, ("MakeMove", "GetState"), moves))
            print(_row("echo", clients, floor, ("Echo",), echoes))
            print(f"{'':6} clients {clients:3}  game RPCs {rpcs:.1f}/s = {rpcs / echoes:.2f} of the Echo floor; "
                  f"moves {moves / echoes:.2f} of it; {len(game.finished_games)} games ended and were "
                  "replaced (CreateGame)")
            if game_cpu and floor_cpu:  # what the service process spent per call: robust to a busy machine
                per_rpc = game_cpu / (rpcs * game.seconds) * 1000
                per_echo = floor_cpu / (echoes * floor.seconds) * 1000
                print(f"{'':6} clients {clients:3}  service CPU per game RPC {per_rpc:.2f} ms, per Echo "
                      f"{per_echo:.2f} ms: {per_echo / per_rpc:.2f} of the floor's capacity; "
                      f"CPU use {game_cpu / game.seconds:.0%} of a core while playing, "
                      f"{floor_cpu / floor.seconds:.0%} under Echo")
            results.append((clients, moves, rpcs, echoes))
        if redis_url and finished:
            game_ids = await finish_games(stub, finished, seed)
            figures = memory_per_game(redis_url, game_ids)
            totals = [f["hash"] + f["events"] + f["answers"] for f in figures]
            mean = {k: statistics.fmean(f[k] for f in figures) for k in figures[0]}
            print(f"redis bytes per finished game ({len(figures)} games, MEMORY USAGE): "
                  f"mean {statistics.fmean(totals):.0f}, max {max(totals)}; "
                  f"of which hash {mean['hash']:.0f}, event stream {mean['events']:.0f} "
                  f"({mean['event_count']:.0f} events), request-id answers {mean['answers']:.0f} "
                  f"({mean['answer_count']:.0f} answers)")
        elif finished:
            print("redis bytes per finished game: not measured (give --redis-url with --target)")
    return 0


def _levels(text: str) -> list[int]:
    levels = [int(x) for x in text.split(",") if x.strip()]
    if not levels or min(levels) < 1:
        raise argparse.ArgumentTypeError("give concurrency levels like 16,32")
    return levels


# Starts Redis (with the given appendfsync) and a game service with TABLETOP_BENCH_ECHO=1, yielding (target,
# Redis URL, service pid); given by the composition root, since a client never starts servers itself.
BenchStarter = Callable[[str], AbstractContextManager[tuple[str, str, int]]]


def main(argv: list[str], local: BenchStarter | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a running game service with TABLETOP_BENCH_ECHO=1 (default: start one)")
    parser.add_argument("--redis-url", help="the target's Redis, for the memory figure (default: the one started)")
    parser.add_argument("--clients", type=_levels, default=[16, 32], help="concurrency levels (default 16,32)")
    parser.add_argument("--games", type=int, default=64, help="games in play at once (default 64)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds of game load per level, and as many of Echo, in 1 s slices (default 10)")
    parser.add_argument("--finished", type=int, default=5, help="games played to the end for the memory figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fsync", choices=("everysec", "always"), default="everysec",
                        help="appendfsync of the Redis it starts (default everysec, as deploy/ runs Redis)")
    connection.add_arguments(parser, api_key=False)
    args = parser.parse_args(argv)
    if args.target:
        try:
            link = Connection.from_args(args)
            link.check(args.target, "seat tokens")
        except ValueError as error:  # PlaintextRefused, a bad TABLETOP_* flag
            print(f"tabletop bench load: {error}", file=sys.stderr)
            return 2
        return asyncio.run(run(args.target, args.clients, args.games, args.seconds, args.finished, args.seed,
                               args.redis_url, link=link))
    if local is None:
        print("tabletop bench load: give --target HOST:PORT (a service run with TABLETOP_BENCH_ECHO=1)",
              file=sys.stderr)
        return 2
    with local(args.fsync) as (target, redis_url, pid):
        return asyncio.run(run(target, args.clients, args.games, args.seconds, args.finished, args.seed,
                               args.redis_url or redis_url, pid))
