"""The AI job consumer: reads the job shards `ai:jobs:{jB}` in a consumer group and plays each job's seat over gRPC.

A job (fields game_id, game_type, seat, version, job_id) asks for one move of one seat the AI plays at one
version: an AI seat, a seat whose player is away, left or resigned, or a human seat whose turn timer ran out (the
game service's timekeeper enqueues that one, its id starting `timeout:`; the worker keeps no clock). The worker
fetches the seat's view with the AI service credential, searches, and submits the move with
`expected_version` = the job's version and `request_id` = the job id, so a job done twice moves once. A job
whose version has moved on is dropped. A job left pending by a worker that died is reclaimed with XAUTOCLAIM
once idle for `claim_idle_seconds`; a job delivered `max_attempts` times goes to `ai:dead:{jB}` with its error.
On a single Redis one blocking read covers every shard. On Redis Cluster a read may name the streams of one slot
only, so the shards are read in turn: a sweep that does not wait, then a short wait on the next shard.

A worker runs two consumers side by side (ai/worker.py), one per lane: the interactive lane takes the jobs of
games a person plays in (`ai:jobs:*`) and searches in the worker's own process; the bulk lane takes the jobs of
games only the AI plays (`ai:bulk:*`) and searches in a forked process at a lower CPU priority
(`bulk_nice`). A person's job thus never waits for an all-AI game's search to end, nor shares a core with one
on equal terms.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc
import redis
import structlog

from ai.ismcts import Budget
from ai.worker_config import WorkerConfig, dead_letter_stream
from ai.worker_metrics import JOBS, QUEUE_LAG_SECONDS, RECLAIMED
from ai.worker_service import capped, think
from games import registry, wire
from tabletop import redis_client
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

log = structlog.get_logger("tabletop.ai")

READ_BLOCK_MS = 500  # how long a read waits for a job; also how soon a stop request is noticed
PRUNE_SECONDS = 300.0  # how often the consumer groups are cleared of gone workers
SHARD_BLOCK_MS = 100  # on Cluster: the wait on one shard after an empty sweep (bounds the latency of the others)
RPC_TIMEOUT = 10.0
TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0)


INTERACTIVE, BULK = "interactive", "bulk"  # the lanes


class JobConsumer:
    def __init__(self, config: WorkerConfig, client: redis.Redis | redis.cluster.RedisCluster, channel: grpc.Channel,
                 stopping: threading.Event, lane: str = INTERACTIVE):
        if lane not in (INTERACTIVE, BULK):
            raise ValueError(f"no lane {lane!r}")
        self.config = config
        self.redis = client
        self.stub = game_service_pb2_grpc.GameServiceStub(channel)
        self.stopping = stopping
        self.lane = lane
        # The lane's job streams: of games a person plays in (interactive), or of games only the AI plays (bulk).
        self.streams = config.streams() if lane == INTERACTIVE else config.bulk_streams()
        self.nice = 0 if lane == INTERACTIVE else config.bulk_nice
        self._turn = 0  # on Cluster: the shard the next sweep starts at

    # --- the loop ---------------------------------------------------------------------------------------------
    def run(self) -> None:
        """Take and play jobs until `stopping` is set; the job in hand is finished first."""
        self.ensure_groups()
        next_claim = next_prune = 0.0
        while not self.stopping.is_set():
            try:
                if time.monotonic() >= next_claim:
                    self.reclaim()
                    next_claim = time.monotonic() + max(0.5, self.config.claim_idle_seconds / 2)
                if time.monotonic() >= next_prune:
                    self.prune_consumers()
                    next_prune = time.monotonic() + PRUNE_SECONDS
                for stream, messages in self.read() or ():
                    for entry_id, fields in messages:
                        self.handle(stream, entry_id, fields)
            except redis_client.UNAVAILABLE as exc:
                log.warning("redis unavailable", error=str(exc))
                self.stopping.wait(1.0)
            except redis.exceptions.ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    raise
                self.ensure_groups()  # the stream was deleted (e.g. a flushed Redis): recreate the group

    def read(self) -> list | None:
        """A new job of this lane for this consumer, or none after a short wait.

        One job at a time: a read of many streams at once hands over one entry per stream that has one, and this
        consumer would then hold them all until played (a person's job behind a dozen others, or jobs that idle
        workers beside it cannot take). So the streams are swept one by one from a round robin start, without
        waiting; only when all are empty does the read wait, on all of them at once (on a single Redis), or on
        the next shard for a short while (on Redis Cluster a read names the streams of one slot only). A shard
        whose master is down (until its failover) is passed over: the other shards' games go on."""
        group, consumer = self.config.group, self.config.consumer
        count = len(self.streams)
        answered: list[str] = []
        failure: Exception | None = None
        for step in range(count):
            stream = self.streams[(self._turn + step) % count]
            try:
                entries = self.redis.xreadgroup(group, consumer, {stream: ">"}, count=1)
            except redis_client.UNAVAILABLE as exc:
                if not self.config.redis_cluster:
                    raise
                failure = exc
                continue
            if entries:
                self._turn = (self._turn + step + 1) % count
                return entries
            answered.append(stream)
        if not answered:
            raise failure
        self._turn = (self._turn + 1) % count
        if not self.config.redis_cluster:
            # Woken by the first job to come: with every stream empty a moment ago, that is one job (rarely two
            # arriving together, and then both are played).
            return self.redis.xreadgroup(group, consumer, {s: ">" for s in self.streams}, count=1,
                                         block=READ_BLOCK_MS)
        wait_on = min(answered, key=lambda s: (self.streams.index(s) - self._turn) % count)
        return self.redis.xreadgroup(group, consumer, {wait_on: ">"}, count=1, block=SHARD_BLOCK_MS)

    def ensure_groups(self) -> None:
        for stream in self.streams:
            try:
                # From the stream's start: jobs enqueued before any worker existed are still played.
                self.redis.xgroup_create(stream, self.config.group, id="0", mkstream=True)
            except redis.exceptions.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def reclaim(self) -> None:
        """Take over the jobs that other (dead or stuck) workers left pending too long, and play them."""
        idle_ms = int(self.config.claim_idle_seconds * 1000)
        for stream in self.streams:
            start = "0-0"
            while not self.stopping.is_set():
                try:
                    reply = self.redis.xautoclaim(
                        stream, self.config.group, self.config.consumer, idle_ms, start_id=start, count=10
                    )
                except redis_client.UNAVAILABLE as exc:  # on Cluster: this shard's master is down; do the others
                    log.warning("job shard unavailable", stream=stream, error=str(exc))
                    break
                start, claimed = reply[0], reply[1]
                for entry_id, fields in claimed:
                    if fields is None:  # deleted from the stream meanwhile (trimmed)
                        self.redis.xack(stream, self.config.group, entry_id)
                        continue
                    RECLAIMED.inc()
                    log.info("job reclaimed", stream=stream, entry_id=entry_id, job_id=fields.get("job_id"))
                    self.handle(stream, entry_id, fields)
                if start in ("0-0", b"0-0"):
                    break

    def prune_consumers(self) -> int:
        """Remove the consumers of workers that are gone (idle for dead_consumer_seconds with no job pending), so
        a group does not keep a name per worker that ever ran; return how many were removed."""
        idle_ms = self.config.dead_consumer_seconds * 1000
        removed = 0
        for stream in self.streams:
            try:
                consumers = self.redis.xinfo_consumers(stream, self.config.group)
            except (redis.exceptions.ResponseError, *redis_client.UNAVAILABLE):
                continue  # no group yet, or the shard is down: next time
            for consumer in consumers:
                name = consumer["name"]
                if name != self.config.consumer and not consumer["pending"] and consumer["idle"] >= idle_ms:
                    self.redis.xgroup_delconsumer(stream, self.config.group, name)
                    removed += 1
        if removed:
            log.info("gone workers removed from the consumer groups", consumers=removed)
        return removed

    # --- one job ----------------------------------------------------------------------------------------------
    def handle(self, stream: str, entry_id: str, fields: dict[str, str]) -> str:
        """Play one job and acknowledge it, or leave it pending for a retry, or dead-letter it."""
        # The job's fields go on every log line of the job, and only of the job.
        with structlog.contextvars.bound_contextvars(
            job_id=fields.get("job_id"), game_id=fields.get("game_id"), seat=fields.get("seat")
        ):
            return self._handle(stream, entry_id, fields)

    def _handle(self, stream: str, entry_id: str, fields: dict[str, str]) -> str:
        QUEUE_LAG_SECONDS.labels(self.lane).set(max(0.0, time.time() - int(entry_id.split("-")[0]) / 1000))
        deliveries = self._deliveries(stream, entry_id)
        if deliveries > self.config.max_attempts:
            self._dead_letter(stream, entry_id, fields, f"delivered {deliveries} times without an answer")
            return "dead_lettered"
        started = time.monotonic()
        try:
            outcome = self.play(fields)
        except Exception as exc:  # every failure is logged and retried, then dead-lettered
            error = f"{type(exc).__name__}: {_describe(exc)}"
            JOBS.labels("failed").inc()
            log.error("job failed", error=error, attempt=deliveries)
            if deliveries >= self.config.max_attempts:
                self._dead_letter(stream, entry_id, fields, error)
                return "dead_lettered"
            return "failed"  # left pending: reclaimed after claim_idle_seconds
        self.redis.xack(stream, self.config.group, entry_id)
        JOBS.labels(outcome).inc()
        log.info("job done", outcome=outcome, lane=self.lane, seconds=round(time.monotonic() - started, 3),
                 waited=round(max(0.0, time.time() - int(entry_id.split("-")[0]) / 1000), 3))
        return outcome

    def play(self, job: dict[str, str]) -> str:
        """Make the job's move; "moved", or "stale" when the game has moved on. In the interactive lane a person
        is waiting, so the search stops at `interactive_seconds`; in the bulk lane at `bulk_seconds`, at a lower
        CPU priority."""
        game_id, seat, version = job["game_id"], int(job["seat"]), int(job["version"])
        metadata = self.metadata(seat)
        try:
            state = self._call(self.stub.GetState, pb.GetStateRequest(game_id=game_id), metadata).state
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:  # expired or deleted
                return "stale"
            raise
        if (
            state.version != version
            or state.status != pb.GAME_STATUS_IN_PROGRESS
            or seat not in state.to_act
        ):
            return "stale"
        game = registry.get(state.game_type)
        view = wire.view_from_any(game, state.view)
        # An AI seat's own strength; for a human seat the AI plays (late, away, left), its timer's, else normal.
        timer_strength = state.timer.strength if state.HasField("timer") else ""
        strength = next((s.strength for s in state.seats if s.seat == seat), "") or timer_strength or "normal"
        reproducible = job.get("reproducible") == "1"
        budget = job_budget(self.config, strength, self.lane == INTERACTIVE, reproducible)
        # Seeded by what the seat sees: the same position gets the same move, so a game dealt from a fixed seed
        # (CreateGame.seed, all-AI games) plays out the same every time, its job being `reproducible`: searched
        # by iterations alone (no clock), in one tree whatever TABLETOP_AI_PROCESSES is.
        rng = random.Random(hashlib.sha256(game.dump_view(view)).digest())
        processes = 1 if reproducible else self.config.processes
        result = think(game, view, seat, budget, rng, processes, self.nice)
        if result.move.id not in {m.id for m in state.legal_moves}:
            raise RuntimeError(f"the search chose {result.move.id!r}, which the service does not list as legal")
        log.info("move chosen", move_id=result.move.id, iterations=result.iterations,
                 think_seconds=round(result.seconds, 3), strength=strength)
        request = pb.MakeMoveRequest(
            game_id=game_id, move_id=result.move.id, expected_version=version, request_id=job.get("job_id", "")
        )
        try:
            self._call(self.stub.MakeMove, request, metadata)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.ABORTED:  # the version moved on while we thought
                return "stale"
            raise
        return "moved"

    # --- helpers ----------------------------------------------------------------------------------------------
    def metadata(self, seat: int) -> tuple[tuple[str, str], ...]:
        """The AI service credential, acting for `seat`."""
        return (("authorization", f"Bearer {self.config.ai_service_token}"), ("x-tabletop-seat", str(seat)))

    def _call(self, method: Callable, request: Any, metadata) -> Any:
        """Call the game service, retrying a few times while it is unreachable."""
        for delay in (*RETRY_DELAYS, None):
            try:
                return method(request, metadata=metadata, timeout=RPC_TIMEOUT)
            except grpc.RpcError as exc:
                if exc.code() not in TRANSIENT or delay is None or self.stopping.is_set():
                    raise
                log.warning("game service unavailable, retrying", code=exc.code().name, delay=delay)
                time.sleep(delay)
        raise AssertionError("unreachable")

    def _deliveries(self, stream: str, entry_id: str) -> int:
        pending = self.redis.xpending_range(stream, self.config.group, min=entry_id, max=entry_id, count=1)
        return int(pending[0]["times_delivered"]) if pending else 1

    def _dead_letter(self, stream: str, entry_id: str, fields: dict[str, str], error: str) -> None:
        """Move a job that keeps failing to `ai:dead:{N}` with its error, and acknowledge it."""
        dead = dead_letter_stream(stream)
        record = {**fields, "error": error[:1000], "entry_id": entry_id, "consumer": self.config.consumer}
        pipe = self.redis.pipeline(transaction=True)  # same hash tag, so one MULTI also works on Cluster
        pipe.xadd(dead, record, maxlen=10000, approximate=True)
        pipe.xack(stream, self.config.group, entry_id)
        pipe.execute()
        JOBS.labels("dead_lettered").inc()
        log.error("job dead-lettered", error=error, dead_letter_stream=dead)


def _describe(exc: Exception) -> str:
    if isinstance(exc, grpc.RpcError):
        return f"{exc.code().name} {exc.details()}"
    return str(exc)


def job_budget(config: WorkerConfig, strength: str, interactive: bool, reproducible: bool = False) -> Budget:
    """The search budget of an AI seat's move: its strength's, cut to `interactive_seconds` when a person waits,
    else to `bulk_seconds` (a game only the AI plays holds a worker for at most that long at a time). A
    reproducible job (a game dealt from the creator's seed) stops after the strength's iterations and never on the
    clock, so that no load changes its move; a strength set in seconds alone (TABLETOP_AI_BUDGETS) keeps them."""
    budget = config.budgets.get(strength, config.budgets["normal"])
    if reproducible and budget.iterations is not None:
        return Budget(iterations=budget.iterations)
    return capped(budget, config.interactive_seconds if interactive else config.bulk_seconds)
