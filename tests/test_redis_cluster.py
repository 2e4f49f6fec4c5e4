"""Tabletop on a real three-master Redis Cluster: every key a commit touches is in the game's slot, games spread over
the masters, the AI worker reads every shard, and a whole Hinode game is played against the AI.

ARCHITECTURE.md: "Redis keys of one game share a hash tag ({game_id}) so the scripts also run on Redis Cluster";
"the job stream can be sharded".
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis.asyncio
from redis.crc import key_slot

from ai.worker_config import WorkerConfig, dead_letter_stream
from ai.worker_jobs import JobConsumer
from service.store import GameStore, abandon_key, active_key, events_key, game_key, mint_game_id, requests_key
from service.validation import GAME_ID
from tabletop import redis_client
from tabletop.job_shards import DEFAULT_SHARDS, job_stream, shard_slot
from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import wait_serving
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.ai.test_worker import _metric, _spawn, _stop
from tests.cluster_fixture import LocalCluster
from tests.support.waiting import await_turn, wait_until

TOKEN = "cluster-test-token-" + os.urandom(6).hex()
HUMAN = pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN)
EASY_AI = pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")


def test_every_key_a_commit_touches_hashes_to_the_slot_of_the_game_s_shard():
    """What keeps commit.lua single-slot: the keys the store hands it, for every shard."""
    store = GameStore(redis.asyncio.Redis(), retention_seconds=60, abandoned_seconds=60, job_shards=DEFAULT_SHARDS)
    seen: list[list[str]] = []

    async def record(script, keys, args):
        assert script is store._commit
        seen.append(keys)
        return b"OK", b"1"

    store._run = record
    for shard in range(DEFAULT_SHARDS):
        game_id = mint_game_id(shard)
        job = {"game_id": game_id, "seat": "1", "version": "2", "job_id": f"{game_id}:2:1"}
        asyncio.run(store.commit(game_id, "hinode", 1, {"status": "in_progress"}, {"kind": "move"},
                                 playing=True, request=(0, "r-1", b"2"), jobs=[job], shard=shard))
        keys = seen[-1]
        assert set(keys) >= {game_key(game_id), events_key(game_id), requests_key(game_id),
                             active_key(shard, "hinode"), job_stream(shard), abandon_key(shard)}
        assert {key_slot(k.encode()) for k in keys} == {shard_slot(shard)}
        assert key_slot(dead_letter_stream(job_stream(shard)).encode()) == shard_slot(shard)


def test_minted_ids_are_fresh_valid_game_ids_in_their_shard_s_slot():
    for shard in range(DEFAULT_SHARDS):
        ids = {mint_game_id(shard) for _ in range(200)}
        assert len(ids) == 200
        assert all(GAME_ID.match(i) and len(i) == 14 and not i.startswith("-") for i in ids)
        assert {key_slot(i.encode()) for i in ids} == {shard_slot(shard)}


# --- on a real cluster -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    local = LocalCluster(masters=3).start()
    yield local
    local.stop()


def _env(cluster: LocalCluster, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(TABLETOP_REDIS_URL=cluster.url, TABLETOP_REDIS_CLUSTER="true", TABLETOP_AI_SERVICE_TOKEN=TOKEN,
               TABLETOP_LOG_LEVEL="warning", TABLETOP_SHUTDOWN_GRACE_SECONDS="2",
               TABLETOP_AI_JOB_SHARDS=str(DEFAULT_SHARDS), **extra)
    return env


@dataclasses.dataclass
class Stack:
    target: str  # the game service
    worker_metrics_ports: list[int]


@pytest.fixture(scope="module")
def stack(cluster, tmp_path_factory):
    """`tabletop serve` and two `tabletop ai-worker`s on the cluster."""
    logs = tmp_path_factory.mktemp("cluster-stack")
    metrics_ports = []
    port = free_port()
    service = _spawn(["serve"], _env(cluster, TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT="0"),
                     logs / "service.log")
    procs = [service]
    try:
        wait_serving(f"127.0.0.1:{port}", service, "game service", service="tabletop.v1.GameService")
        for name in ("w1", "w2"):
            ai_port = free_port()
            metrics_ports.append(free_port())
            worker = _spawn(["ai-worker"], _env(cluster, TABLETOP_SERVICE_TARGET=f"127.0.0.1:{port}",
                                                TABLETOP_AI_GRPC_PORT=str(ai_port),
                                                TABLETOP_AI_METRICS_PORT=str(metrics_ports[-1]),
                                                TABLETOP_AI_CONSUMER=name), logs / f"{name}.log")
            procs.append(worker)
            wait_serving(f"127.0.0.1:{ai_port}", worker, f"AI worker {name}", service="tabletop.v1.AIService")
        yield Stack(f"127.0.0.1:{port}", metrics_ports)
    finally:
        for proc in procs:
            _stop(proc)
        assert all(p.returncode == 0 for p in procs), [(p.args, p.returncode) for p in procs]


@pytest.fixture
def stub(stack):
    with grpc.insecure_channel(stack.target) as channel:
        yield game_service_pb2_grpc.GameServiceStub(channel)


def _auth(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


def _play_human_moves(stub, game_id: str, token: str, rng: random.Random, moves: int | None = None,
                      timeout: float = 50) -> pb.GameState:
    """Play the human seat's turns (random legal moves) until the game ends or `moves` were made."""
    deadline = time.monotonic() + timeout
    made = 0
    while time.monotonic() < deadline:
        state = await_turn(stub, game_id, _auth(token), deadline - time.monotonic())
        if state.status == pb.GAME_STATUS_FINISHED or made == moves:
            return state
        stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=rng.choice(state.legal_moves).id,
                                         expected_version=state.version), metadata=_auth(token), timeout=10)
        made += 1
    raise AssertionError(f"game {game_id} stuck at version {state.version} ({state.status})")


def test_a_human_plays_hinode_against_three_ai_seats_beside_other_games(stub, stack):
    created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[HUMAN, EASY_AI, EASY_AI, EASY_AI],
                                                   start=True), timeout=10)
    # Meanwhile other tables play: four humans each, a few moves on every table, from threads.
    others = [stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[HUMAN] * 4, start=True), timeout=10)
              for _ in range(4)]

    def play_other(game: pb.CreateGameResponse) -> int:
        rng = random.Random(game.game_id)
        for _ in range(12):
            state = stub.GetState(pb.GetStateRequest(game_id=game.game_id), timeout=10).state
            token = next(t.token for t in game.seat_tokens if t.seat == min(state.to_act))
            mine = stub.GetState(pb.GetStateRequest(game_id=game.game_id), metadata=_auth(token), timeout=10).state
            stub.MakeMove(pb.MakeMoveRequest(game_id=game.game_id, move_id=rng.choice(mine.legal_moves).id,
                                             expected_version=mine.version), metadata=_auth(token), timeout=10)
        return stub.GetState(pb.GetStateRequest(game_id=game.game_id), timeout=10).state.version

    with ThreadPoolExecutor(len(others)) as pool:
        versions = pool.map(play_other, others)
        final = _play_human_moves(stub, created.game_id, created.seat_tokens[0].token, random.Random(7))
        assert [v for v in versions] == [others[0].state.version + 12] * len(others)
    assert final.status == pb.GAME_STATUS_FINISHED
    score = stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10)
    assert score.final and len(score.seats) == 4
    ai_moves = [e for e in stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id), timeout=20)
                if e.event.kind == pb.GameEvent.KIND_MOVE and e.event.seat != 0]
    # Exactly one move per AI turn, all made by the two workers (the only holders of the AI credential), and
    # both took their share: they read the same consumer group on every shard. A worker counts a move once its
    # MakeMove has returned, a moment after the game's log has it.
    def counted() -> list[float]:
        return [_metric(port, 'tabletop_ai_jobs_total{outcome="moved"}') for port in stack.worker_metrics_ports]

    wait_until(lambda: sum(counted()) >= len(ai_moves), 10, "the workers counting their moves")
    moved = counted()
    assert sum(moved) == len(ai_moves) > 0
    assert all(n > 0 for n in moved), moved


def test_games_land_on_every_master_and_racing_moves_give_exactly_one_ok(stub, cluster):
    masters: dict[int, pb.CreateGameResponse] = {}
    for _ in range(60):  # each game is on a random shard; sixteen shards spread over three masters
        created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[HUMAN] * 4, start=True),
                                  timeout=10)
        masters.setdefault(cluster.master_of_slot(key_slot(created.game_id.encode())), created)
        if len(masters) == 3:
            break
    assert sorted(masters) == sorted(cluster.ports)
    for port, created in masters.items():  # the game's keys live on that master itself (no redirect)
        node = redis_client.connect(f"redis://127.0.0.1:{port}/0", cluster=False)
        assert node.exists(game_key(created.game_id), events_key(created.game_id)) == 2
        node.close()

    for created in masters.values():  # a race on a game of each master
        token = next(t.token for t in created.seat_tokens if t.seat == min(created.state.to_act))
        state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=_auth(token), timeout=10).state
        request = pb.MakeMoveRequest(game_id=created.game_id, move_id=state.legal_moves[0].id,
                                     expected_version=state.version)
        barrier = threading.Barrier(16)

        def race(_: int, barrier=barrier, request=request, token=token):
            barrier.wait()
            try:
                return stub.MakeMove(request, metadata=_auth(token), timeout=10).version
            except grpc.RpcError as error:
                return error.code()

        with ThreadPoolExecutor(16) as pool:
            results = list(pool.map(race, range(16)))
        assert results.count(state.version + 1) == 1
        assert results.count(grpc.StatusCode.ABORTED) == 15


def test_the_active_games_gauge_sums_every_shard(stack, cluster):
    async def count() -> int:
        store = GameStore.from_url(cluster.url, cluster=True, retention_seconds=60, abandoned_seconds=60,
                                   job_shards=DEFAULT_SHARDS)
        try:
            return await store.active_games("hinode")
        finally:
            await store.close()

    before = asyncio.run(count())
    with grpc.insecure_channel(stack.target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        for _ in range(5):
            stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[HUMAN] * 4, start=True), timeout=10)
    assert asyncio.run(count()) == before + 5


def test_the_worker_reclaims_and_dead_letters_per_shard_on_a_cluster(cluster):
    """A job that keeps failing goes to its shard's dead-letter stream, in one MULTI of one slot."""
    client = redis_client.connect(cluster.url, cluster=True, decode_responses=True)
    config = dataclasses.replace(WorkerConfig(), redis_url=cluster.url, redis_cluster=True, job_shards=DEFAULT_SHARDS,
                                 group="dlq-test", claim_idle_seconds=0, max_attempts=1)
    nowhere = grpc.insecure_channel("127.0.0.1:1")  # never called: the job fails before any RPC
    first = JobConsumer(dataclasses.replace(config, consumer="first"), client, nowhere, threading.Event())
    second = JobConsumer(dataclasses.replace(config, consumer="second"), client, nowhere, threading.Event())
    try:
        for b in range(DEFAULT_SHARDS):  # a group of our own, from now on: the jobs of other tests are not ours
            client.xgroup_create(job_stream(b), "dlq-test", id="$", mkstream=True)
        first.ensure_groups()
        shard = 5
        client.xadd(job_stream(shard), {"game_id": "gone", "job_id": "broken-2"})  # no seat: every attempt fails
        [(stream, [(entry_id, fields)])] = first.read()
        assert stream == job_stream(shard)
        second.reclaim()  # `first` holds it without an answer: `second` takes it over, fails, dead-letters it
        [(_, dead)] = client.xrange(dead_letter_stream(job_stream(shard)))
        assert dead["job_id"] == "broken-2" and dead["consumer"] == "second"
        assert client.xpending(job_stream(shard), "dlq-test")["pending"] == 0
    finally:
        for b in range(DEFAULT_SHARDS):
            client.delete(dead_letter_stream(job_stream(b)))
            client.xgroup_destroy(job_stream(b), "dlq-test")
        client.close()
        nowhere.close()


@pytest.mark.integration  # it starts processes
def test_a_master_fails_over_and_play_goes_on(tmp_path):
    """Three masters with a replica each; the master that the Redis URL names dies. Until its replica takes over,
    calls on its games fail with UNAVAILABLE (never INTERNAL) and the other games go on; then its games play again,
    new games are created and the worker finishes them, and watchers follow them."""
    local = LocalCluster(3, replicas=1, options=("--cluster-node-timeout", "1000")).start()
    port = free_port()
    service = _spawn(["serve"], _env(local, TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT="0"),
                     tmp_path / "service.log")
    procs = [service]
    try:
        wait_serving(f"127.0.0.1:{port}", service, "game service")
        ai_port = free_port()
        worker = _spawn(["ai-worker"], _env(local, TABLETOP_SERVICE_TARGET=f"127.0.0.1:{port}",
                                            TABLETOP_AI_GRPC_PORT=str(ai_port), TABLETOP_AI_METRICS_PORT="0",
                                            TABLETOP_AI_CLAIM_IDLE_SECONDS="2"), tmp_path / "worker.log")
        procs.append(worker)
        wait_serving(f"127.0.0.1:{ai_port}", worker, "AI worker")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            down = local.ports[0]  # the node in TABLETOP_REDIS_URL, a master
            games = {}
            for _ in range(80):  # a four-human game on the master that will die, and one elsewhere
                created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[HUMAN] * 4, start=True),
                                          timeout=10)
                games.setdefault(local.master_of_slot(key_slot(created.game_id.encode())) == down, created)
                if len(games) == 2:
                    break
            local.replicated(down)  # replication is asynchronous: the replica has every write before the crash
            local.kill(down)

            codes = set()
            deadline = time.monotonic() + 30
            while True:  # the moved game plays again once a replica has taken over
                try:
                    _move(stub, games[True])
                    break
                except grpc.RpcError as error:
                    codes.add(error.code())
                assert time.monotonic() < deadline, f"no failover: {codes}"
                time.sleep(0.2)
            assert codes <= {grpc.StatusCode.UNAVAILABLE}, codes
            assert local.master_of_slot(key_slot(games[True].game_id.encode())) != down
            _move(stub, games[False])

            for _ in range(2):  # new all-AI games, played to the end by the worker, followed by a watcher
                created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[EASY_AI] * 4, start=True),
                                          timeout=30)
                watched = [r.event.version for r in stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id),
                                                                   timeout=60)]
                final = stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state
                assert final.status == pb.GAME_STATUS_FINISHED
                assert watched == list(range(1, final.version + 1))
    finally:
        for proc in procs:
            _stop(proc)
        local.stop()
    assert all(p.returncode == 0 for p in procs), [(p.args, p.returncode) for p in procs]


def _move(stub, game: pb.CreateGameResponse) -> int:
    """One move by the seat to act (the first legal move); the new version."""
    state = stub.GetState(pb.GetStateRequest(game_id=game.game_id), timeout=10).state
    token = next(t.token for t in game.seat_tokens if t.seat == min(state.to_act))
    mine = stub.GetState(pb.GetStateRequest(game_id=game.game_id), metadata=_auth(token), timeout=10).state
    return stub.MakeMove(pb.MakeMoveRequest(game_id=game.game_id, move_id=mine.legal_moves[0].id,
                                            expected_version=mine.version), metadata=_auth(token), timeout=10).version
