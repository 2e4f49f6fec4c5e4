"""`tabletop bench watch`: many spectators on one service replica while players play.

`--clients` players each play a Hinode game (all four seats, a move = GetState + MakeMove, then `--think` seconds
of thought on average, each pause drawn from think x [1 - jitter, 1 + jitter]: people do not all move in the same
instant; `--jitter 0` makes them, the worst case for a fan-out), first alone for `--seconds`, then with
`--watchers` WatchGame streams open on their games (spread evenly, from the game's version of the moment; when a
game ends, its watchers move to the player's next game). The watchers live in a child process of their own (at a
lower CPU priority, standing in for the other machines spectators are on). It prints the players'
MakeMove and GetState latencies in both phases and their ratio, the errors they met (REDIS_UNAVAILABLE above
all), the events delivered to the watchers and the watchers dropped, how long after the mover's answer a move
reached the last of its game's watchers, and the most Redis connections seen while the watchers were open (INFO
clients, less the benchmark's own).

Where the streams open: on the players' replica by default; on a replica of the watch tier with `--watch-tier`
(the benchmark starts it: a second `tabletop serve` on the same Redis, as deploy/k8s/base/watch-tier runs it)
or `--watch-target` (a running one). `--pin` puts the two sides on separate CPUs, standing in for separate
machines: Redis, the players' replica and the players on the first half of this process's CPUs, the watch tier's
replica and the spectators' clients on the rest.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from clients import connection
from clients.connection import Connection
from tabletop.client import error_from_rpc
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

RPC_TIMEOUT = 30.0
SWARM_CHANNELS = 25  # HTTP/2 connections the watchers share
SETTLE_SECONDS = 5.0


@dataclass
class Phase:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    answered: dict[str, float] = field(default_factory=dict)  # "game_id version" -> when the mover was answered

    def add(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)

    def p(self, kind: str, q: float) -> float:
        values = sorted(self.latencies.get(kind, ()))
        return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")

    def rate(self, kind: str) -> float:
        return len(self.latencies.get(kind, ())) / self.seconds if self.seconds else 0.0


class Player:
    """Plays every seat of one game after another; tells `on_new_game` the id of each new game."""

    def __init__(self, stub, index: int, on_new_game: Callable[[int, str, int], None], think: float, seed: int,
                 jitter: float):
        self.stub, self.index, self.on_new_game, self.think, self.jitter = stub, index, on_new_game, think, jitter
        self.rng = random.Random(seed * 1000 + index)
        self.game_id = ""
        self.tokens: dict[int, str] = {}
        self.to_act: list[int] = []
        self.version = 0

    async def new_game(self) -> None:
        created = await self.stub.CreateGame(pb.CreateGameRequest(
            game_type="hinode", seats=[pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN)] * 4, start=True), timeout=RPC_TIMEOUT)
        self.game_id, self.to_act, self.version = created.game_id, list(created.state.to_act), 0
        self.tokens = {t.seat: t.token for t in created.seat_tokens}
        self.on_new_game(self.index, self.game_id, 0)

    async def play(self, clock: Clock) -> None:
        """Play until `clock` stops, recording each move in the phase it started in (none between phases): the
        players never pause between phases, so no phase starts with all of them moving at once."""
        while not clock.stopped:
            if not self.to_act:
                await self.new_game()
            metadata = (("authorization", f"Bearer {self.tokens[self.rng.choice(self.to_act)]}"),)
            phase = clock.phase
            try:
                started = time.perf_counter()
                state = (await self.stub.GetState(pb.GetStateRequest(game_id=self.game_id), metadata=metadata,
                                                  timeout=RPC_TIMEOUT)).state
                read = time.perf_counter()
                answer = await self.stub.MakeMove(pb.MakeMoveRequest(
                    game_id=self.game_id, move_id=self.rng.choice(state.legal_moves).id,
                    expected_version=state.version, request_id=f"{self.game_id}-{state.version}"),
                    metadata=metadata, timeout=RPC_TIMEOUT)
                if phase is not None:
                    phase.add("GetState", read - started)
                    phase.add("MakeMove", time.perf_counter() - read)
                    phase.answered[f"{self.game_id} {answer.version}"] = time.time()  # the watchers' clock: this host
                self.to_act, self.version = list(answer.state.to_act), answer.version
            except grpc.aio.AioRpcError as error:
                (phase or clock.between).errors[f"{error.code().name} {error_from_rpc(error).reason}".strip()] += 1
                self.to_act = []  # start afresh in a new game
            await asyncio.sleep(self.think * (1 + self.jitter * (2 * self.rng.random() - 1)))


class Clock:
    """The phase being recorded (None between phases), and whether the players are to stop."""

    def __init__(self):
        self.phase: Phase | None = None
        self.between = Phase()  # errors met between phases: reported, never lost
        self.stopped = False

    async def measure(self, seconds: float) -> Phase:
        """Record the players' moves for `seconds` while they play on."""
        phase = self.phase = Phase()
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        self.phase = None
        phase.seconds = time.perf_counter() - started
        return phase


class RedisClients:
    """Samples INFO clients of the service's Redis: the most connections seen."""

    def __init__(self, redis_url: str | None):
        import redis

        self.client = redis.Redis.from_url(redis_url) if redis_url else None
        self.most = 0

    def sample(self) -> None:
        if self.client is not None:
            self.most = max(self.most, int(self.client.info("clients")["connected_clients"]) - 1)  # less our own


@dataclass(frozen=True)
class Pins:
    """`--pin`: the CPUs of the players' side and of the spectators' side, and the local processes of each (pids)."""

    players_cpus: frozenset[int]
    spectators_cpus: frozenset[int]
    players: tuple[int, ...] = ()
    spectators: tuple[int, ...] = ()

    @classmethod
    def split(cls) -> Pins:
        """Halve the CPUs this process may run on between the sides (ValueError with fewer than two)."""
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            raise ValueError(f"--pin needs at least two CPUs, this process may use {len(cpus)}")
        half = len(cpus) // 2
        return cls(frozenset(cpus[:half]), frozenset(cpus[half:]))

    def apply(self) -> str:
        """Pin the sides' processes (this one is the players') and say where each side runs."""
        for pid in (os.getpid(), *self.players):
            pin(pid, self.players_cpus)
        for pid in self.spectators:
            pin(pid, self.spectators_cpus)
        spectators = ", ".join(map(str, self.spectators))
        return (f"pinned: players' side (pids {', '.join(map(str, (*self.players, os.getpid())))}) on CPUs "
                f"{sorted(self.players_cpus)}, spectators' side ({f'pids {spectators} and ' if spectators else ''}"
                f"the spectators' clients) on CPUs {sorted(self.spectators_cpus)}")


def pin(pid: int, cpus: frozenset[int]) -> None:
    """Every thread of process `pid` onto `cpus` (the threads they start later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), cpus)
        except ProcessLookupError:  # a thread that ended meanwhile
            pass


async def run(target: str, redis_url: str | None, clients: int, watchers: int, seconds: float, think: float,
              seed: int, link: Connection | None = None, jitter: float = 0.5, watch_target: str | None = None,
              pins: Pins | None = None) -> int:
    link = link or Connection()
    watch_target = watch_target or target
    swarm = None
    if pins is not None:
        print(pins.apply(), flush=True)

    def on_new_game(slot: int, game_id: str, version: int) -> None:
        if swarm is not None and swarm.stdin:
            swarm.stdin.write(f"{slot} {game_id} {version}\n".encode())
            swarm.stdin.flush()

    async with link.aio_channel(target, []) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        players = [Player(stub, i, on_new_game, think, seed, jitter) for i in range(clients)]
        clock = Clock()
        playing = asyncio.gather(*(p.play(clock) for p in players))
        await asyncio.sleep(min(3.0, seconds))  # warm up
        print(f"target {target}: {clients} players, each playing all four seats of a Hinode game (a move = GetState "
              f"+ MakeMove, then {think:g} s of thought, +-{jitter:.0%}); {seconds:g} s without watchers, then "
              f"{seconds:g} s with {watchers} WatchGame streams on their games"
              + (f" (opened on {watch_target})" if watch_target != target else ""), flush=True)
        alone = await clock.measure(seconds)

        per_slot = max(1, -(-watchers // clients))  # at least `watchers` in all
        swarm = subprocess.Popen(
            ["nice", "-n", "10", sys.executable, "-m", "bench.watch", "--swarm", watch_target, str(per_slot),
             json.dumps(dataclasses.asdict(link))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        if pins is not None:  # before it starts threads of its own (they inherit it); not by a preexec_fn: a
            # fork of this process, which runs gRPC's threads, breaks the child's gRPC
            pin(swarm.pid, pins.spectators_cpus)
        for player in players:  # spectators who join now: from the game's current version on
            on_new_game(player.index, player.game_id, player.version)
        connections = RedisClients(redis_url)
        progress = SwarmProgress(swarm)
        opened = await progress.wait_open(per_slot * clients)
        await asyncio.sleep(SETTLE_SECONDS)  # the streams are set up while the players play on
        print(f"watchers: {opened} streams opened, then {SETTLE_SECONDS:g} s of play before measuring", flush=True)

        async def sample_connections(until: float) -> None:
            while time.perf_counter() < until:
                await asyncio.to_thread(connections.sample)
                await asyncio.sleep(0.5)

        until = time.perf_counter() + seconds
        watched, _ = await asyncio.gather(clock.measure(seconds), sample_connections(until))
        clock.stopped = True
        await playing
        swarm.stdin.write(b"stop\n")
        swarm.stdin.flush()
        swarm.wait(timeout=60)
        report = progress.final()

    for label, phase in (("alone", alone), ("watched", watched)):
        errors = f"  errors {dict(phase.errors)}" if phase.errors else "  no errors"
        print(f"{label:8} moves {phase.rate('MakeMove'):6.1f}/s  MakeMove p50 {phase.p('MakeMove', .5):6.2f} ms "
              f"p99 {phase.p('MakeMove', .99):6.2f} ms  GetState p50 {phase.p('GetState', .5):6.2f} ms "
              f"p99 {phase.p('GetState', .99):6.2f} ms{errors}")
    if clock.between.errors:
        print(f"between phases errors {dict(clock.between.errors)}")
    unavailable = sum(n for k, n in watched.errors.items() if "REDIS_UNAVAILABLE" in k)
    reached = report.get("reached", {})  # "game_id version" -> when the last of the game's watchers got it
    lags = sorted(reached[k] - t for k, t in watched.answered.items() if k in reached)
    print(f"ratio    MakeMove p99 {watched.p('MakeMove', .99) / alone.p('MakeMove', .99):.2f}x, GetState p99 "
          f"{watched.p('GetState', .99) / alone.p('GetState', .99):.2f}x with {report.get('open', 0)} watchers "
          f"open at the end; REDIS_UNAVAILABLE {unavailable}")
    print(f"watchers {report.get('events', 0)} events delivered ({report.get('events', 0) / seconds:,.0f}/s), "
          f"stream ends {report.get('ends', {})} {report.get('examples', {})}; Redis connections at most "
          f"{connections.most if redis_url else 'not measured (give --redis-url)'}")
    if lags:
        at = lambda q: lags[min(len(lags) - 1, int(q * len(lags)))] * 1000  # noqa: E731
        print(f"delivery a move reached the last of its game's watchers p50 {at(.5):.0f} ms, p99 {at(.99):.0f} ms, "
              f"max {lags[-1] * 1000:.0f} ms after the mover's answer ({len(lags)} of {len(watched.answered)} moves "
              f"seen by watchers)")
    return 0


class SwarmProgress:
    """Reads the watchers' process's report lines as they come (a full pipe would stall it), keeping the last."""

    def __init__(self, swarm: subprocess.Popen):
        self.last: dict = {}
        self.done = threading.Event()
        threading.Thread(target=self._read, args=(swarm,), daemon=True).start()

    def _read(self, swarm: subprocess.Popen) -> None:
        for line in swarm.stdout:
            self.last = json.loads(line)
        self.done.set()

    async def wait_open(self, wanted: int) -> int:
        """Until `wanted` streams are open, or their number stops growing for 20 s."""
        best, best_at = 0, time.monotonic()
        while best < wanted and time.monotonic() - best_at < 20 and not self.done.is_set():
            await asyncio.sleep(0.2)
            if self.last.get("open", 0) > best:
                best, best_at = self.last["open"], time.monotonic()
        return best

    def final(self) -> dict:
        self.done.wait(30)
        return self.last


# --- the watchers' process ------------------------------------------------------------------------------------


async def swarm_main(target: str, per_slot: int, link: Connection) -> None:
    """Keep `per_slot` WatchGame streams on each slot's latest game (told on stdin as "slot game_id" lines) until
    "stop"; prints progress lines, then one final JSON report."""
    channels = [link.aio_channel(target, [("grpc.use_local_subchannel_pool", 1)]) for _ in range(SWARM_CHANNELS)]
    stubs = [game_service_pb2_grpc.GameServiceStub(c) for c in channels]
    counts = {"open": 0, "events": 0}
    reached: dict[str, float] = {}  # "game_id version" -> the last time a watcher received it
    ends: Counter = Counter()
    examples: dict[str, str] = {}
    tasks: set[asyncio.Task] = set()

    async def watch(stub, game_id: str, version: int) -> None:
        counts["open"] += 1
        over = False
        try:
            async for update in stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=version)):
                counts["events"] += 1
                reached[f"{game_id} {update.event.version}"] = time.time()
                over = update.state.status == pb.GAME_STATUS_FINISHED
            # A stream ends by itself only after its game's last event; one that ends before is a failure.
            ends["game over" if over else "ended before the game did"] += 1
        except grpc.aio.AioRpcError as error:
            ends[f"{error.code().name} {error_from_rpc(error).reason}".strip()] += 1
            examples.setdefault(error.code().name, error.details())
        except Exception as exc:  # noqa: BLE001 - counted and shown: the benchmark must not hide a failure
            ends[type(exc).__name__] += 1
        finally:
            counts["open"] -= 1

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    n = 0
    last_report = 0.0
    while True:
        try:
            line = (await asyncio.wait_for(reader.readline(), 0.5)).decode().strip()
        except TimeoutError:
            line = None
        if line == "stop" or line == "":
            break
        if line:
            _, game_id, version = line.split()
            for _ in range(per_slot):
                n += 1
                task = asyncio.create_task(watch(stubs[n % len(stubs)], game_id, int(version)))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                if n % 100 == 0:
                    await asyncio.sleep(0)  # let streams start
        if time.monotonic() - last_report > 0.5:
            last_report = time.monotonic()
            print(json.dumps(counts), flush=True)
    final = {**counts, "ends": dict(ends), "examples": examples, "reached": reached}
    for task in list(tasks):
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(final), flush=True)
    for channel in channels:
        await channel.close()


@dataclass(frozen=True)
class LocalServers:
    """What `local_servers` started: the players' replica, its Redis, and where the streams open (the same replica,
    or the watch tier's); the pids of each side's servers, for --pin."""

    target: str
    redis_url: str
    watch_target: str
    players_pids: tuple[int, ...]
    spectators_pids: tuple[int, ...]


@contextlib.contextmanager
def local_servers(watch_tier: bool = False) -> Iterator[LocalServers]:
    """Redis (AOF, fsync everysec as deploy/ runs it) and one game service, and with `watch_tier` a second one on
    the same Redis for the WatchGame streams (the watch tier of deploy/k8s)."""
    from tabletop.stack.embedded_redis import EmbeddedRedis
    from tabletop.stack.launcher import LocalStack

    os.environ.setdefault("TABLETOP_METRICS_PORT", "0")
    with contextlib.ExitStack() as started:
        redis_server = started.enter_context(EmbeddedRedis(appendonly=True, appendfsync="everysec"))
        players = started.enter_context(LocalStack(redis_url=redis_server.url, with_worker=False))
        watch = started.enter_context(LocalStack(redis_url=redis_server.url, with_worker=False)) if watch_tier \
            else players
        print(f"started redis-server ({redis_server.url}) and tabletop serve ({players.target})"
              + (f", and a replica of the watch tier ({watch.target})" if watch is not players else ""))
        yield LocalServers(players.target, redis_server.url, watch.target,
                           (redis_server.proc.pid, players.procs[0][1].pid),
                           (watch.procs[0][1].pid,) if watch is not players else ())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench watch", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a running game service (default: start one with its own Redis)")
    parser.add_argument("--redis-url", help="the target's Redis, for the connection count")
    parser.add_argument("--watch-target", help="open the WatchGame streams on this replica of the same service "
                                               "instead of the players' (default: the target)")
    parser.add_argument("--watch-tier", action="store_true",
                        help="start a second replica on the same Redis and open the streams there, as the watch tier "
                             "of deploy/k8s does (without --target)")
    parser.add_argument("--pin", action="store_true",
                        help="players' side (Redis, the players' replica, the players) and spectators' side (the "
                             "watch tier's replica, the spectators' clients) on separate CPUs, standing in for "
                             "separate machines (without --target; needs two CPUs)")
    parser.add_argument("--clients", type=int, default=16, help="players (default 16)")
    parser.add_argument("--watchers", type=int, default=5000, help="WatchGame streams (default 5000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of each phase (default 20)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="a player's pause after each move (default 1: four people, each taking 4 s a move)")
    parser.add_argument("--jitter", type=float, default=0.5,
                        help="each pause is think x [1 - jitter, 1 + jitter], drawn at random (default 0.5; 0: every "
                             "player moves in step with the others, the worst case for the watchers' fan-out)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random moves (default 1)")
    connection.add_arguments(parser, api_key=False)
    args = parser.parse_args(argv)
    if args.clients < 1 or args.watchers < 0 or args.seconds <= 0 or args.think < 0 or not 0 <= args.jitter <= 1:
        parser.error("--clients must be at least 1, --watchers and --think not negative, --seconds positive, "
                     "--jitter from 0 to 1")
    if args.watch_target and not args.target:
        parser.error("--watch-target needs --target (the players' replica)")
    if args.target and (args.watch_tier or args.pin):
        parser.error("--watch-tier and --pin start and place the servers themselves: not with --target")
    if args.target:
        try:
            link = Connection.from_args(args)
            link.check(args.target, "seat tokens")
        except ValueError as error:  # PlaintextRefused, a bad TABLETOP_* flag
            print(f"tabletop bench watch: {error}", file=sys.stderr)
            return 2
        return asyncio.run(run(args.target, args.redis_url, args.clients, args.watchers, args.seconds, args.think,
                               args.seed, link, args.jitter, args.watch_target))
    try:
        pins = Pins.split() if args.pin else None
    except ValueError as error:
        print(f"tabletop bench watch: {error}", file=sys.stderr)
        return 2
    with local_servers(args.watch_tier) as servers:
        if pins is not None:
            pins = dataclasses.replace(pins, players=servers.players_pids, spectators=servers.spectators_pids)
        return asyncio.run(run(servers.target, servers.redis_url, args.clients, args.watchers, args.seconds,
                               args.think, args.seed, jitter=args.jitter, watch_target=servers.watch_target,
                               pins=pins))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--swarm"]:
        os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")
        asyncio.run(swarm_main(sys.argv[2], int(sys.argv[3]), Connection(**json.loads(sys.argv[4]))))
