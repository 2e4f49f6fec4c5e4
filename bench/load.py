"""`tabletop bench load`: many concurrent Hinode games (4 human seats each) driven through GetState and MakeMove,
compared with two floors: BenchService.Echo on the same server stack (interceptors, store; one Redis read and one
write per call), and the bare floor, a plain grpc.aio Echo server with one Redis GET and one SET and nothing else,
in a process of its own (both in bench/floors.py).

Per concurrency level it alternates slices of game load, of Echo and of the bare Echo, and prints moves per
second, RPCs per second and p50/p99 latencies of each, the ratios of throughput and (for local processes) of CPU
time per call against both floors. At the end it prints the Redis memory a finished Hinode and a finished Naishi
game hold (MEMORY USAGE of every key of the game). Without --target it starts its own embedded Redis, game service
with the Echo floor (`python -m bench.floors echo`) and bare floor, as separate processes; with --target give
--redis-url to get the memory figures and --floor-target for the bare floor.

It drives the service as a client: it speaks only the generated protos over gRPC (the local stack is started as
processes, and Redis is read only for the memory figure). Loops are bounded by --seconds and stop by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from bench.v1 import bench_pb2, bench_pb2_grpc
from clients import connection
from clients.connection import Connection
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

GAME_TYPE = "hinode"
SEATS = 4
MEMORY_GAMES = (("hinode", 4), ("naishi", 2))  # the games played to their end for the memory figure
RPC_TIMEOUT = 30.0
ECHO_PAYLOAD = bytes(range(64))
SLICE_SECONDS = 1.0


@dataclass(frozen=True)
class BenchStack:
    """What the benchmark loads: the game service with the Echo floor, its Redis and the bare floor."""

    target: str
    redis_url: str
    pid: int | None
    floor_target: str | None
    floor_pid: int | None


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


async def new_table(stub: game_service_pb2_grpc.GameServiceStub, game_type: str = GAME_TYPE,
                    seats: int = SEATS) -> Table:
    created = await stub.CreateGame(
        pb.CreateGameRequest(game_type=game_type, seats=[pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN)] * seats, start=True),
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


async def finish_games(stub, count: int, seed: int, game_type: str, seats: int) -> list[str]:
    """Play `count` fresh games to their end (concurrently), for the memory figure."""
    rng = random.Random(seed)

    async def one() -> str:
        table = await new_table(stub, game_type, seats)
        for _ in range(10_000):  # a game ends long before; the bound keeps the loop finite
            if not table.to_act:
                return table.game_id
            await play_one_move(stub, table, rng, Sample())
        raise RuntimeError(f"game {table.game_id} did not end")

    return list(await asyncio.gather(*(one() for _ in range(count))))


def memory_per_game(redis_url: str, game_ids: list[str]) -> list[dict[str, tuple[int, int]]]:
    """MEMORY USAGE and TTL of every key of each game (all share its hash tag `{game id}`), by the part of the key
    name after the tag ("" for the game's hash)."""
    import redis  # only for this figure; the load itself goes through gRPC

    client = redis.Redis.from_url(redis_url)
    try:
        figures = []
        for game_id in game_ids:
            prefix = f"game:{{{game_id}}}"
            sizes: dict[str, tuple[int, int]] = {}
            for key in client.scan_iter(match=prefix.replace("{", "[{]") + "*", count=1000):
                part = key.decode()[len(prefix):].lstrip(":")
                sizes[part] = (client.memory_usage(key, samples=0) or 0, client.ttl(key))
            figures.append(sizes)
        return figures
    finally:
        client.close()


SHORT_LIVED_SECONDS = 3600  # keys that expire sooner than this after the game's end are counted apart


def print_memory(game_type: str, figures: list[dict[str, tuple[int, int]]]) -> None:
    """Bytes per finished game: all of its keys right after its end, and those kept for the game's retention
    (the others, the request-id answers and the event stream, expire minutes or seconds after the end)."""
    totals = [sum(size for size, _ in f.values()) for f in figures]
    kept = [sum(size for size, ttl in f.values() if ttl < 0 or ttl > SHORT_LIVED_SECONDS) for f in figures]
    parts = sorted({k for f in figures for k in f})

    def part(name: str) -> str:
        sizes = [f[name][0] for f in figures if name in f]
        ttls = [f[name][1] for f in figures if name in f]
        return f"{name or 'hash'} {statistics.fmean(sizes):.0f} (expires in {max(ttls)} s)"

    print(f"redis bytes per finished {game_type} game ({len(figures)} games, MEMORY USAGE of its keys): "
          f"kept for the retention: mean {statistics.fmean(kept):.0f}, max {max(kept)}; right after the end: "
          f"mean {statistics.fmean(totals):.0f}, max {max(totals)}; by key: {', '.join(map(part, parts))}")


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


async def run(stack: BenchStack, levels: list[int], games: int, seconds: float, finished: int, seed: int,
              link: Connection | None = None) -> int:
    options = [("grpc.max_receive_message_length", 8 << 20)]
    async with contextlib.AsyncExitStack() as exits:
        channel = await exits.enter_async_context((link or Connection()).aio_channel(stack.target, options))
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        echo = bench_pb2_grpc.BenchServiceStub(channel)
        bare = None
        if stack.floor_target:
            # plaintext: the bare floor is a local benchmark process, and its calls carry no token
            bare_channel = await exits.enter_async_context(grpc.aio.insecure_channel(stack.floor_target))
            bare = bench_pb2_grpc.BenchServiceStub(bare_channel)
        tables: asyncio.Queue[Table] = asyncio.Queue()
        for table in await asyncio.gather(*(new_table(stub) for _ in range(max(games, max(levels))))):
            tables.put_nowait(table)
        await drive_games(stub, tables, min(levels), min(2.0, seconds), seed)  # warm up every side
        await drive_echo(echo, min(levels), min(1.0, seconds))
        if bare:
            await drive_echo(bare, min(levels), min(1.0, seconds))
        floors = "the Echo floor" + (" and the bare floor" if bare else "")
        print(f"target {stack.target}: {GAME_TYPE}, {SEATS} human seats, {tables.qsize()} games in play, "
              f"{seconds:g} s per level in {SLICE_SECONDS:g} s slices alternating with {floors}; "
              "a move = GetState + MakeMove (expected_version, request_id)")
        for clients in levels:
            # Alternate short slices of each, so that whatever else runs on the machine meanwhile weighs on
            # the game and on its floors alike.
            game, floor, bare_floor = Sample(), Sample(), Sample()
            game_cpu = floor_cpu = bare_cpu = 0.0
            for index in range(max(1, round(seconds / SLICE_SECONDS))):
                started = cpu_seconds(stack.pid)
                game.merge(await drive_games(stub, tables, clients, SLICE_SECONDS, seed + clients * 1000 + index))
                middle = cpu_seconds(stack.pid)
                floor.merge(await drive_echo(echo, clients, SLICE_SECONDS))
                game_cpu, floor_cpu = game_cpu + middle - started, floor_cpu + cpu_seconds(stack.pid) - middle
                if bare:
                    started = cpu_seconds(stack.floor_pid)
                    bare_floor.merge(await drive_echo(bare, clients, SLICE_SECONDS))
                    bare_cpu += cpu_seconds(stack.floor_pid) - started
            moves, rpcs = game.rate("MakeMove"), game.rate("GetState", "MakeMove", "CreateGame")
            print(_row("moves", clients, game, ("MakeMove", "GetState"), moves))
            print(_row("echo", clients, floor, ("Echo",), floor.rate("Echo")))
            if bare:
                print(_row("bare", clients, bare_floor, ("Echo",), bare_floor.rate("Echo")))
            print(f"{'':6} clients {clients:3}  {len(game.finished_games)} games ended and were replaced "
                  "(CreateGame, counted as a game RPC)")
            per_rpc = game_cpu / (rpcs * game.seconds) * 1000 if game_cpu and rpcs else 0.0
            for name, sample, cpu in (("Echo floor", floor, floor_cpu), ("bare floor", bare_floor, bare_cpu)):
                echoes = sample.rate("Echo")
                if not echoes:
                    continue
                line = (f"{'':6} clients {clients:3}  vs the {name}: game RPCs {rpcs:.1f}/s = {rpcs / echoes:.2f} "
                        f"of its rate (moves {moves / echoes:.2f})")
                if per_rpc and cpu:  # what the process spent per call: robust to a busy machine
                    per_echo = cpu / (echoes * sample.seconds) * 1000
                    line += (f"; service CPU per game RPC {per_rpc:.3f} ms, per {name} call {per_echo:.3f} ms: "
                             f"ratio {per_echo / per_rpc:.2f} (CPU use {game_cpu / game.seconds:.0%} of a core "
                             f"while playing, {cpu / sample.seconds:.0%} under the {name})")
                line += "; p99 " + ", ".join(
                    f"{k} {game.percentile(k, 0.99) / sample.percentile('Echo', 0.99):.2f}x"
                    for k in ("MakeMove", "GetState")) + " of its Echo p99"
                print(line)
        if stack.redis_url and finished:
            for game_type, seats in MEMORY_GAMES:
                game_ids = await finish_games(stub, finished, seed, game_type, seats)
                print_memory(game_type, memory_per_game(stack.redis_url, game_ids))
        elif finished:
            print("redis bytes per finished game: not measured (give --redis-url with --target)")
    return 0


def _levels(text: str) -> list[int]:
    levels = [int(x) for x in text.split(",") if x.strip()]
    if not levels or min(levels) < 1:
        raise argparse.ArgumentTypeError("give concurrency levels like 16,32")
    return levels


@contextlib.contextmanager
def local_stack(fsync: str) -> Iterator[BenchStack]:
    """Redis (AOF with `fsync`), the game service with the Echo floor and the bare floor, each a process of its own,
    stopped on the way out."""
    from tabletop.stack.embedded_redis import EmbeddedRedis, free_port
    from tabletop.stack.launcher import LocalStack, wait_serving

    os.environ.setdefault("TABLETOP_METRICS_PORT", "0")
    with EmbeddedRedis(appendonly=True, appendfsync=fsync) as redis_server, \
            LocalStack(redis_url=redis_server.url, with_worker=False,
                       service_command=("bench.floors", "echo")) as stack:
        pid = stack.procs[0][1].pid
        port = free_port()
        floor = subprocess.Popen([sys.executable, "-m", "bench.floors", "bare", "--port", str(port),
                                  "--redis-url", redis_server.url], start_new_session=True)
        try:
            wait_serving(f"127.0.0.1:{port}", floor, "bare floor")
            print(f"started redis-server ({redis_server.url}, AOF appendfsync {fsync}), the game service with the "
                  f"Echo floor ({stack.target}, pid {pid}) and the bare floor (127.0.0.1:{port}, pid {floor.pid})")
            yield BenchStack(stack.target, redis_server.url, pid, f"127.0.0.1:{port}", floor.pid)
        finally:
            floor.terminate()
            floor.wait(timeout=10)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a running game service with the Echo floor (python -m bench.floors echo; "
                        "default: start one)")
    parser.add_argument("--redis-url", help="the target's Redis, for the memory figure (default: the one started)")
    parser.add_argument("--floor-target", help="a running bare floor (python -m bench.floors bare) to compare with "
                        "(default: the one started; none with --target)")
    parser.add_argument("--clients", type=_levels, default=[16, 32], help="concurrency levels (default 16,32)")
    parser.add_argument("--games", type=int, default=64, help="games in play at once (default 64)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds of game load per level, and as many of each floor, in 1 s slices (default 10)")
    parser.add_argument("--finished", type=int, default=5, help="games played to the end for the memory figure")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random moves (default 1)")
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
        stack = BenchStack(args.target, args.redis_url, None, args.floor_target, None)
        return asyncio.run(run(stack, args.clients, args.games, args.seconds, args.finished, args.seed, link))
    with local_stack(args.fsync) as stack:
        return asyncio.run(run(stack, args.clients, args.games, args.seconds, args.finished, args.seed))
