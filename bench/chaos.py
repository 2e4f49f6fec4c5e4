"""`tabletop bench chaos`: games under load while AI workers are SIGKILLed and Redis is killed and restarted,
then every game is checked against the replay of its log.

A local stack is started: Redis (AOF, fsync always, as deploy/ runs it), one game service and `--workers` AI
workers. `--clients` players each play games of one human seat against AI seats (Hinode and Naishi, in turn) for
`--seconds`, with random legal moves; a call that fails with UNAVAILABLE or DEADLINE_EXCEEDED is retried with
the same request id until it is answered, as a careful client does. Meanwhile `--worker-kills` times a random
worker is SIGKILLed (and a new one started), and `--redis-restarts` times Redis is SIGKILLed and started again
on its append-only file. Then the AI gets `--settle` seconds to catch up, and every game is audited
(service/audit.py): its events replay to the stored state, and every move the players were told was made is in
the log, once, at the version they were told. Prints the figures; exits 1 on any lost or doubled move.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from tabletop.stack.embedded_redis import EmbeddedRedis, free_port
from tabletop.stack.launcher import LocalStack, wait_serving
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
SETUPS = (("hinode", 4), ("naishi", 2))


@dataclass
class Ledger:
    """What the players were told: per game, version -> (seat, move id) of every move answered OK."""

    acked: dict[str, dict[int, tuple[int, str]]] = field(default_factory=dict)
    game_types: dict[str, str] = field(default_factory=dict)
    codes: Counter = field(default_factory=Counter)
    retries: int = 0


class Workers:
    """The AI workers as child processes, each killed and replaced on demand."""

    def __init__(self, env: dict[str, str], count: int, log_dir: Path):
        self.env, self.log_dir = env, log_dir
        self.procs: list[subprocess.Popen] = []
        self.spawned = 0
        for _ in range(count):
            self.procs.append(self.spawn())

    def spawn(self) -> subprocess.Popen:
        self.spawned += 1
        name = f"chaos-{self.spawned}"
        ai_port = free_port()
        env = dict(self.env, TABLETOP_AI_GRPC_PORT=str(ai_port), TABLETOP_AI_METRICS_PORT=str(free_port()),
                   TABLETOP_AI_CONSUMER=name)
        with open(self.log_dir / f"{name}.log", "ab") as log:
            proc = subprocess.Popen([sys.executable, "-m", "commands.cli", "ai-worker"], env=env, stdout=log,
                                    stderr=log, start_new_session=True)
        wait_serving(f"127.0.0.1:{ai_port}", proc, f"AI worker {name}")
        return proc

    def kill_one(self, rng: random.Random) -> None:
        index = rng.randrange(len(self.procs))
        self.procs[index].kill()
        self.procs[index].wait()
        self.procs[index] = self.spawn()

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def _call(ledger: Ledger, method, request, until: float, **kwargs):
    """Call until answered: retry a retryable failure with the same request (so the same request id)."""
    while True:
        try:
            return await method(request, timeout=5, **kwargs)
        except grpc.aio.AioRpcError as error:
            if error.code() not in RETRYABLE or time.monotonic() > until:
                raise
            ledger.retries += 1
            ledger.codes[error.code().name] += 1
            await asyncio.sleep(0.1)


async def player(stub, ledger: Ledger, rng: random.Random, stop_at: float, give_up_at: float) -> None:
    """Play games with seat 0 against AI seats until `stop_at` (the game in hand is left where it is)."""
    setups = list(SETUPS)
    rng.shuffle(setups)
    index = 0
    while time.monotonic() < stop_at:
        game_type, seats = setups[index % len(setups)]
        index += 1
        specs = [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN)] + [pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")] * (
            seats - 1)
        created = await _call(ledger, stub.CreateGame, pb.CreateGameRequest(game_type=game_type, seats=specs,
                                                                            start=True), give_up_at)
        game_id, token = created.game_id, created.seat_tokens[0].token
        auth = (("authorization", f"Bearer {token}"),)
        ledger.game_types[game_id] = game_type
        ledger.acked[game_id] = {}
        while time.monotonic() < stop_at:
            state = (await _call(ledger, stub.GetState, pb.GetStateRequest(game_id=game_id), give_up_at,
                                 metadata=auth)).state
            if state.status == pb.GAME_STATUS_FINISHED:
                break
            if 0 not in state.to_act:
                await asyncio.sleep(0.05)
                continue
            move_id = rng.choice(state.legal_moves).id
            request = pb.MakeMoveRequest(game_id=game_id, move_id=move_id, expected_version=state.version,
                                         request_id=secrets.token_hex(8))
            try:
                answer = await _call(ledger, stub.MakeMove, request, give_up_at, metadata=auth)
            except grpc.aio.AioRpcError as error:
                ledger.codes[error.code().name] += 1
                continue
            ledger.codes["OK"] += 1
            ledger.acked[game_id][answer.version] = (0, move_id)


async def settle(stub, ledger: Ledger, seconds: float) -> list[str]:
    """Wait up to `seconds` until no game waits on the AI; the games still waiting on it then."""
    deadline = time.monotonic() + seconds
    waiting = list(ledger.acked)
    while waiting and time.monotonic() < deadline:
        still = []
        for game_id in waiting:
            try:
                state = (await stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=5)).state
            except grpc.aio.AioRpcError:
                still.append(game_id)
                continue
            if state.status != pb.GAME_STATUS_FINISHED and 0 not in state.to_act:
                still.append(game_id)
        waiting = still
        if waiting:
            await asyncio.sleep(0.5)
    return waiting


async def chaos(stub, ledger: Ledger, args, workers: Workers, redis_server: EmbeddedRedis) -> list[tuple[float, str]]:
    """The kills, spread over the load: worker kills evenly, Redis restarts between them."""
    rng = random.Random(args.seed)
    plan = [((i + 0.5) * args.seconds / max(1, args.worker_kills), "worker") for i in range(args.worker_kills)]
    plan += [((j + 1) * args.seconds / (args.redis_restarts + 1) + 0.25, "redis")
             for j in range(args.redis_restarts)]
    started = time.monotonic()
    done = []
    for at, what in sorted(plan):
        await asyncio.sleep(max(0.0, started + at - time.monotonic()))
        if what == "worker":
            await asyncio.to_thread(workers.kill_one, rng)
        else:
            await asyncio.to_thread(redis_server.restart, True)
        done.append((time.monotonic() - started, what))
    return done


async def run(args, target: str, redis_url: str, workers: Workers, redis_server: EmbeddedRedis) -> int:
    from service.audit import audit_game
    from service.store import GameStore

    ledger = Ledger()
    async with grpc.aio.insecure_channel(target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        started = time.monotonic()
        stop_at = started + args.seconds
        give_up_at = stop_at + args.settle
        players = [player(stub, ledger, random.Random(args.seed * 1000 + i), stop_at, give_up_at)
                   for i in range(args.clients)]
        done, *_ = await asyncio.gather(chaos(stub, ledger, args, workers, redis_server), *players)
        load_seconds = time.monotonic() - started
        stuck = await settle(stub, ledger, args.settle)

    store = GameStore.from_url(redis_url, retention_seconds=86_400, abandoned_seconds=86_400, job_shards=16)
    try:
        audits = [await audit_game(store, game_id) for game_id in ledger.acked]
    finally:
        await store.close()

    lost = doubled = inconsistent = ai_moves = 0
    problems = []
    for audit in audits:
        if not audit.ok:
            inconsistent += 1
            problems += [f"{audit.game_id}: {p}" for p in audit.problems]
        acked = ledger.acked[audit.game_id]
        for version, move in acked.items():
            if audit.moves.get(version) != move:
                lost += 1
                problems.append(f"{audit.game_id}: the move acknowledged at version {version} {move} is not in the "
                                f"log (there: {audit.moves.get(version)})")
        human = {v for v, (seat, _) in audit.moves.items() if seat == 0}
        extra = human - set(acked)
        doubled += len(extra)
        problems += [f"{audit.game_id}: a move of seat 0 at version {v} that no answer acknowledged" for v in extra]
        ai_moves += len(audit.moves) - len(human)

    kills = Counter(what for _, what in done)
    finished = sum(a.status == "finished" for a in audits)
    acked_moves = sum(len(a) for a in ledger.acked.values())
    print(f"chaos: {load_seconds:.0f} s of load by {args.clients} players on {args.workers} AI workers; "
          f"{kills['worker']} worker SIGKILLs, {kills['redis']} Redis SIGKILLs and restarts "
          f"(at {', '.join(f'{t:.0f}s' for t, w in done if w == 'redis')})")
    print(f"  games {len(audits)} ({finished} finished); moves: {acked_moves} by players (acknowledged), "
          f"{ai_moves} by the AI; {ledger.retries} retried calls "
          f"({', '.join(f'{k} {v}' for k, v in sorted(ledger.codes.items()) if k != 'OK') or 'none'})")
    print(f"  audit: {len(audits) - inconsistent} of {len(audits)} games equal to the replay of their log; "
          f"{lost} lost and {doubled} doubled moves; {len(stuck)} games still waiting on the AI after "
          f"{args.settle:.0f} s")
    for problem in problems[:20]:
        print(f"  PROBLEM {problem}")
    for game_id in stuck[:5]:
        print(f"  STUCK {game_id}")
    return 1 if problems or stuck else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench chaos", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="players, each in one game at a time (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="AI workers (default 2)")
    parser.add_argument("--seconds", type=float, default=120.0, help="seconds of load (default 120)")
    parser.add_argument("--worker-kills", type=int, default=20, help="worker SIGKILLs during the load (default 20)")
    parser.add_argument("--redis-restarts", type=int, default=3, help="Redis SIGKILLs + restarts (default 3)")
    parser.add_argument("--settle", type=float, default=60.0,
                        help="seconds the AI gets to catch up after the load before the audit (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random moves (default 1)")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.workers < 1 or args.seconds <= 0:
        parser.error("--clients and --workers must be at least 1 and --seconds positive")

    with tempfile.TemporaryDirectory(prefix="tabletop-chaos-") as tmp:
        log_dir = Path(tmp)
        os.environ.setdefault("TABLETOP_AI_SERVICE_TOKEN", secrets.token_urlsafe(32))
        os.environ.setdefault("TABLETOP_LOG_LEVEL", "warning")
        # A killed worker's job is reclaimed after this many seconds (easy searches take well under one).
        os.environ.setdefault("TABLETOP_AI_CLAIM_IDLE_SECONDS", "3")
        with EmbeddedRedis(directory=log_dir / "redis", appendonly=True, appendfsync="always") as redis_server, \
                LocalStack(redis_url=redis_server.url, with_worker=False) as stack:
            workers = Workers(stack.env(), args.workers, log_dir)
            try:
                print(f"started redis-server ({redis_server.url}, AOF fsync always), tabletop serve "
                      f"({stack.target}) and {args.workers} AI workers", flush=True)
                code = asyncio.run(run(args, stack.target, redis_server.url, workers, redis_server))
            finally:
                workers.stop()
            if code:
                for log in sorted(log_dir.glob("*.log")):
                    tail = log.read_text(errors="replace")[-1500:]
                    if "Traceback" in tail:
                        print(f"--- {log.name} ---\n{tail}")
            return code
