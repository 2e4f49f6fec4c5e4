"""The AI worker end to end: real Redis, a real game service process and real worker processes."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager

import grpc
import pytest
import redis

from ai.worker_config import WorkerConfig
from ai.worker_jobs import BULK as BULK_LANE
from ai.worker_jobs import JobConsumer
from games import registry, wire
from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import wait_serving
from tabletop.v1 import ai_service_pb2, ai_service_pb2_grpc, game_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb
from tests.support.waiting import await_turn, wait_until

TOKEN = "worker-test-token-" + os.urandom(6).hex()
JOBS = "ai:jobs:{j0}"  # the only shard: these tests run with TABLETOP_AI_JOB_SHARDS=1
BULK = "ai:bulk:{j0}"  # the jobs of games only the AI plays
DEAD = "ai:dead:{j0}"
GAME_TIMEOUT = 240


def _env(redis_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(TABLETOP_REDIS_URL=redis_url, TABLETOP_AI_SERVICE_TOKEN=TOKEN, TABLETOP_LOG_LEVEL="warning",
               TABLETOP_SHUTDOWN_GRACE_SECONDS="2", TABLETOP_AI_JOB_SHARDS="1")
    env.update(extra)
    return env


def _spawn(args: list[str], env: dict[str, str], log_path) -> subprocess.Popen:
    with open(log_path, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "commands.cli", *args], env=env, stdout=log, stderr=log,
                                start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def _service(redis_url: str, tmp_path, ai_target: str = "127.0.0.1:1", **extra: str):
    port = free_port()
    env = _env(redis_url, TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT="0", TABLETOP_AI_TARGET=ai_target,
               **extra)
    proc = _spawn(["serve"], env, tmp_path / "service.log")
    try:
        wait_serving(f"127.0.0.1:{port}", proc, "game service")
        yield f"127.0.0.1:{port}"
    finally:
        _stop(proc)


def _worker(redis_url: str, target: str, tmp_path, name: str, ai_port: int | None = None, **extra: str):
    ai_port = ai_port or free_port()
    metrics_port = free_port()
    env = _env(redis_url, TABLETOP_SERVICE_TARGET=target, TABLETOP_AI_GRPC_PORT=str(ai_port),
               TABLETOP_AI_METRICS_PORT=str(metrics_port), TABLETOP_AI_CONSUMER=name, **extra)
    proc = _spawn(["ai-worker"], env, tmp_path / f"{name}.log")
    wait_serving(f"127.0.0.1:{ai_port}", proc, f"AI worker {name}")
    return proc, metrics_port


def _metric(port: int, name: str) -> float:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


def _create(stub, seats: list[pb.SeatSpec]) -> pb.CreateGameResponse:
    return stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=seats, start=True), timeout=10)


def _wait_finished(stub, game_id: str, timeout: float = GAME_TIMEOUT) -> pb.GameState:
    """The game's state once finished: its watch stream ends with its last event."""
    updates = list(stub.WatchGame(pb.WatchGameRequest(game_id=game_id), timeout=timeout))
    assert updates and updates[-1].state.status == pb.GAME_STATUS_FINISHED, f"game {game_id} did not finish"
    return updates[-1].state


def test_a_human_plays_three_ai_seats_to_the_end(redis_db_url, tmp_path):
    ai_port = free_port()
    with _service(redis_db_url, tmp_path, ai_target=f"127.0.0.1:{ai_port}") as target:
        worker, metrics_port = _worker(redis_db_url, target, tmp_path, "solo", ai_port=ai_port)
        # A second worker side by side: both read the same consumer group.
        other, other_metrics = _worker(redis_db_url, target, tmp_path, "side-by-side")
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                ai = pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")
                created = _create(stub, [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann"), ai, ai, ai])
                me = created.seat_tokens[0]
                auth = (("authorization", f"Bearer {me.token}"),)
                rng = random.Random(1)
                suggested = False
                deadline = time.monotonic() + GAME_TIMEOUT
                while time.monotonic() < deadline:
                    state = await_turn(stub, created.game_id, auth, deadline - time.monotonic())
                    if state.status == pb.GAME_STATUS_FINISHED:
                        break
                    legal = [m.id for m in state.legal_moves]
                    if not suggested and len(legal) > 1:
                        # On demand: the service forwards to the worker's AIService, which answers in time.
                        answer = stub.SuggestMove(pb.SuggestMoveRequest(game_id=created.game_id, strength="easy"),
                                                  metadata=auth, timeout=10)
                        assert answer.best_move_id in legal
                        assert {c.move_id for c in answer.candidates} == set(legal)
                        assert sum(c.visits for c in answer.candidates) > 0
                        suggested = True
                    stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=rng.choice(legal),
                                                     expected_version=state.version), metadata=auth, timeout=10)
                assert state.status == pb.GAME_STATUS_FINISHED
                assert suggested
                score = stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10)
                assert score.final
            ports = (metrics_port, other_metrics)
            assert sum(_metric(p, 'tabletop_ai_jobs_total{outcome="moved"}') for p in ports) > 0
            assert sum(_metric(p, "tabletop_ai_think_seconds_count") for p in ports) > 0
        finally:
            _stop(worker)
            _stop(other)
        assert worker.returncode == 0 and other.returncode == 0  # SIGTERM: a clean, graceful stop


def test_a_killed_worker_s_job_is_reclaimed_and_another_worker_finishes_the_game(redis_db_url, tmp_path):
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    with _service(redis_db_url, tmp_path) as target:
        # The first worker thinks long (3000 iterations a move), so it is killed in the middle of a job.
        slow, _ = _worker(redis_db_url, target, tmp_path, "slow", TABLETOP_AI_BUDGETS="easy=3000",
                          TABLETOP_AI_CLAIM_IDLE_SECONDS="600")
        with grpc.insecure_channel(target) as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            ai = pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")
            created = _create(stub, [ai, ai, ai, ai])
            wait_until(lambda: any(c["name"] == "slow" and c["pending"]
                                   for c in client.xinfo_consumers(BULK, "ai-workers")), 60, "the slow worker's job")
            os.kill(slow.pid, signal.SIGKILL)
            slow.wait()
            fast, metrics_port = _worker(redis_db_url, target, tmp_path, "fast", TABLETOP_AI_BUDGETS="easy=30",
                                         TABLETOP_AI_CLAIM_IDLE_SECONDS="1")
            try:
                state = _wait_finished(stub, created.game_id)
                assert state.status == pb.GAME_STATUS_FINISHED
                assert _metric(metrics_port, "tabletop_ai_reclaimed_jobs_total") >= 1
            finally:
                _stop(fast)
    assert client.xlen(DEAD) == 0 if client.exists(DEAD) else True
    client.close()


def test_sigterm_finishes_the_job_in_hand(redis_db_url, tmp_path):
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "term", TABLETOP_AI_BUDGETS="easy=1500")
        with grpc.insecure_channel(target) as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            ai = pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")
            created = _create(stub, [ai, ai, ai, ai])
            [in_hand] = wait_until(  # a job in the worker's hand, read in one call
                lambda: client.xpending_range(BULK, "ai-workers", min="-", max="+", count=10, consumername="term"),
                60, "a job in the worker's hand")
            [(_, job)] = client.xrange(BULK, in_hand["message_id"], in_hand["message_id"])
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=30) == 0
            after = stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state.version
        assert after > int(job["version"])  # the job in hand was done (its move made) before the worker left
        assert client.xpending(BULK, "ai-workers")["pending"] == 0
    client.close()


def test_a_job_that_keeps_failing_goes_to_the_dead_letter_stream(redis_db_url, tmp_path):
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    # No game service at all: the job is malformed (no seat), so every attempt fails before any call.
    worker, metrics_port = _worker(redis_db_url, "127.0.0.1:1", tmp_path, "dlq", TABLETOP_AI_CLAIM_IDLE_SECONDS="0.3",
                                   TABLETOP_AI_MAX_ATTEMPTS="2")
    try:
        client.xadd(JOBS, {"game_id": "no-such-game", "job_id": "broken-1"})
        wait_until(lambda: client.exists(DEAD), 30, "the dead-letter stream")
        [(_, fields)] = client.xrange(DEAD)
        assert fields["job_id"] == "broken-1" and "KeyError" in fields["error"]
        assert client.xpending(JOBS, "ai-workers")["pending"] == 0
        assert _metric(metrics_port, 'tabletop_ai_jobs_total{outcome="failed"}') == 2
        assert _metric(metrics_port, 'tabletop_ai_jobs_total{outcome="dead_lettered"}') == 1
    finally:
        _stop(worker)
        client.close()


def test_suggest_move_answers_within_the_callers_deadline(redis_db_url, tmp_path):
    game = registry.get("hinode")
    state = game.new_game(4, {}, 5)
    seat = min(game.to_act(state))
    view = game.view(state, seat)
    worker, _ = _worker(redis_db_url, "127.0.0.1:1", tmp_path, "suggest", ai_port=(port := free_port()),
                        TABLETOP_AI_SUGGEST_MAX_SECONDS="60")  # so that only the caller's deadline cuts the search
    try:
        # Readiness: AIService turns SERVING once Redis answers (the liveness name "" is SERVING at once).
        wait_serving(f"127.0.0.1:{port}", worker, "AI worker", service="tabletop.v1.AIService")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = ai_service_pb2_grpc.AIServiceStub(channel)
            request = ai_service_pb2.AIServiceSuggestMoveRequest(
                game_type="hinode", seat=seat, version=1, view=wire.view_to_any(game, view),
                time_budget_seconds=30, seed=3,
            )
            started = time.monotonic()
            answer = stub.SuggestMove(request, timeout=4)  # the 30 s budget is cut to the deadline, less a fifth
            assert time.monotonic() - started < 4
            legal = {m.id for m in game.legal_moves(state, seat)}
            assert answer.best_move_id in legal and {c.move_id for c in answer.candidates} == legal
            assert answer.iterations > 0
            same = stub.SuggestMove(ai_service_pb2.AIServiceSuggestMoveRequest(
                game_type="hinode", seat=seat, version=1, view=request.view, iterations=50, seed=3), timeout=10)
            again = stub.SuggestMove(ai_service_pb2.AIServiceSuggestMoveRequest(
                game_type="hinode", seat=seat, version=1, view=request.view, iterations=50, seed=3), timeout=10)
            assert same == again and same.iterations == 50  # a seeded, iteration-bound suggestion is reproducible
            with pytest.raises(grpc.RpcError) as err:
                stub.SuggestMove(ai_service_pb2.AIServiceSuggestMoveRequest(game_type="chess", seat=0), timeout=5)
            assert err.value.code() == grpc.StatusCode.NOT_FOUND
    finally:
        _stop(worker)


def test_a_person_waiting_is_served_before_a_backlog_of_all_ai_games(redis_db_url, tmp_path):
    """Fair AI capacity: jobs of games a person plays in (ai:jobs) go before those of games only the AI plays
    (ai:bulk). With a backlog of all-AI games queued first, the human's game gets its AI move while older bulk jobs
    are still waiting."""
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "fair", TABLETOP_AI_BUDGETS="easy=0.2s,normal=0.2s")
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                ai = pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")
                for _ in range(8):  # 16 gifts queued at once, then a job after every move: a long backlog
                    stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[ai, ai], start=True), timeout=10)
                wait_until(lambda: any(g["pending"] for g in client.xinfo_groups(BULK)), 30, "the backlog taken up")
                human = stub.CreateGame(pb.CreateGameRequest(
                    game_type="naishi", seats=[pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann"), ai], start=True),
                    timeout=10)
                [(job_id, job)] = [(i, f) for i, f in client.xrange(JOBS) if f["game_id"] == human.game_id]
                # The AI seat's move: the first event after the job's version.
                next(stub.WatchGame(pb.WatchGameRequest(game_id=human.game_id, from_version=int(job["version"])),
                                    timeout=30))
                [group] = client.xinfo_groups(BULK)
                older_waiting = client.xrange(BULK, f"({group['last-delivered-id']}", f"({job_id}")
                assert older_waiting, "bulk jobs queued before the human's were still waiting when it was served"
        finally:
            _stop(worker)
    client.close()


def test_gone_workers_leave_the_consumer_groups(redis_db_url):
    """A consumer idle past dead_consumer_seconds with nothing pending (a worker that is gone) is removed; one
    with a job pending, and the worker itself, stay."""
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    config = dataclasses.replace(WorkerConfig(), redis_url=redis_db_url, job_shards=1, consumer="alive",
                                 dead_consumer_seconds=0.0)
    consumer = JobConsumer(config, client, grpc.insecure_channel("127.0.0.1:1"), threading.Event())
    try:
        consumer.ensure_groups()
        for job in ("held", "done", "mine"):
            client.xadd(JOBS, {"game_id": "g", "job_id": job})
        client.xreadgroup("ai-workers", "holder", {JOBS: ">"}, count=1)  # holds a job: must stay
        [(_, [(done, _)])] = client.xreadgroup("ai-workers", "ghost", {JOBS: ">"}, count=1)
        client.xack(JOBS, "ai-workers", done)  # the ghost finished its job and went away: nothing pending
        client.xreadgroup("ai-workers", "alive", {JOBS: ">"}, count=1)
        patient = JobConsumer(dataclasses.replace(config, dead_consumer_seconds=3600.0), client,
                              grpc.insecure_channel("127.0.0.1:1"), threading.Event())
        assert patient.prune_consumers() == 0, "nobody has been idle for an hour"
        assert consumer.prune_consumers() == 1
        names = {c["name"] for c in client.xinfo_consumers(JOBS, "ai-workers")}
        assert names == {"holder", "alive"}
    finally:
        client.close()


def test_a_consumer_takes_one_job_at_a_time_from_many_shards(redis_db_url):
    """A read of many job streams at once hands over one entry per stream: a worker of the flood benchmark so took
    a dozen all-AI jobs in one read and played them all (13 s) before it read the next person's job. Each read
    now takes one job, from the shards in turn; each lane reads only its own streams."""
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    config = dataclasses.replace(WorkerConfig(), redis_url=redis_db_url, job_shards=4, consumer="one-at-a-time",
                                 group="one-at-a-time")
    nowhere = grpc.insecure_channel("127.0.0.1:1")
    interactive = JobConsumer(config, client, nowhere, threading.Event())
    bulk = JobConsumer(config, client, nowhere, threading.Event(), BULK_LANE)
    try:
        interactive.ensure_groups()
        bulk.ensure_groups()
        for stream in config.bulk_streams():
            client.xadd(stream, {"game_id": f"all-ai-{stream}", "job_id": "x"})
        client.xadd(config.streams()[2], {"game_id": "with-a-person", "job_id": "y"})
        [(stream, [(_, job)])] = interactive.read()
        assert job["game_id"] == "with-a-person"
        taken = []
        for _ in config.bulk_streams():
            [(stream, [(_, job)])] = bulk.read()
            taken.append(stream)
        assert sorted(taken) == sorted(config.bulk_streams())  # one each, every shard in turn
        assert not bulk.read()  # all taken: an empty wait
    finally:
        for stream in config.streams() + config.bulk_streams():
            client.delete(stream)
        nowhere.close()
        client.close()
