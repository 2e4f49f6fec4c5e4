"""The archive (issue 27 items 2 and 5, docs/archive.md): every finished game is stored in PostgreSQL exactly once,
whoever dies midway: the writer (SIGKILL), PostgreSQL (SIGKILL and restart), or the service right after the end
commit. Real Redis and real PostgreSQL, both started by the tests; the writer as its own process where it is killed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import grpc
import psycopg
import psycopg_pool
import pytest
import redis
import redis.cluster
from prometheus_client import REGISTRY

from service.archive import db
from service.archive.writer import GROUP, Writer
from service.store import archive_stream, game_key, log_key, state_key, unpack_log
from tabletop.stack.embedded_redis import free_port
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, ServerThread, service_config

SHARDS = 2
RETENTION = 3600


def wait_for(condition, what: str, timeout: float = 120.0):
    """Wait for an event (not a duration): `condition()` true; the timeout only stops a hung test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def finish_by_resigning(stub, count: int, game_type: str = "naishi") -> list[str]:
    """`count` two-player games, each ended at once by a resignation; their ids."""
    ids = []
    for _ in range(count):
        created = stub.CreateGame(pb.CreateGameRequest(
            game_type=game_type, seats=[pb.SeatSpec(kind=HUMAN, name="Ann"), pb.SeatSpec(kind=HUMAN, name="Bob")],
            start=True), timeout=10)
        token = {t.seat: t.token for t in created.seat_tokens}[1]
        done = stub.Resign(pb.ResignRequest(game_id=created.game_id), metadata=auth(token), timeout=10)
        assert done.state.status == pb.GAME_STATUS_FINISHED
        ids.append(created.game_id)
    return ids


def archived(database_url: str) -> list[str]:
    with psycopg.connect(database_url) as conn:
        return [row[0] for row in conn.execute("SELECT game_id FROM games ORDER BY game_id")]


def pending(client: redis.Redis) -> int:
    """Entries on the archive streams not yet acknowledged and deleted."""
    return sum(client.xlen(archive_stream(shard)) for shard in range(SHARDS) if client.exists(archive_stream(shard)))


def migrated(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        db.migrate(conn)


@pytest.fixture
def archive_server(redis_db_url, database_url, toy_game):
    thread = ServerThread(service_config(redis_db_url, ai_job_shards=SHARDS, retention_seconds=RETENTION,
                                         database_url=database_url)).start()
    channel = grpc.insecure_channel(thread.target)
    yield game_service_pb2_grpc.GameServiceStub(channel)
    channel.close()
    thread.stop()


def in_process_writer(redis_url: str, database_url: str, **kwargs) -> tuple[Writer, redis.Redis, object]:
    client = redis.Redis.from_url(redis_url)
    pool = db.open_pool(database_url)
    pool.open()
    writer = Writer(client, pool, shards=SHARDS, retention_seconds=RETENTION, poll_seconds=0.05, **kwargs)
    writer.create_groups()
    return writer, client, pool


def test_migrations_apply_once_even_when_replicas_start_together(database_url):
    results = []

    def run():
        with psycopg.connect(database_url) as conn:
            results.append(db.migrate(conn))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    names = [m.name for m in db.migrations()]
    assert sorted(results, key=len) == [[], [], [], names]  # one applied them; the others found nothing to do
    with psycopg.connect(database_url) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY version")] == names
        assert db.migrate(conn) == []
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, '0999_future.sql')")
        conn.commit()
        with pytest.raises(db.SchemaTooNew):
            db.migrate(conn)


def test_a_finished_game_is_archived_once_with_every_event_its_score_and_seats(archive_server, redis_db_url,
                                                                             database_url):
    """The toy game played to its end: its record holds every event (the hidden commits too), the final score and
    places; the Redis copy does not expire before the writer has stored it, and expires after."""
    stub = archive_server
    created = stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN, name="Ann"), pb.SeatSpec(kind=HUMAN, name="Bob")],
        start=True), timeout=10)
    game_id = created.game_id
    tokens = {t.seat: t.token for t in created.seat_tokens}
    state = created.state
    while state.status != pb.GAME_STATUS_FINISHED:
        seat = state.to_act[0]
        mine = stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=auth(tokens[seat]), timeout=10).state
        moved = stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=mine.legal_moves[0].id),
                              metadata=auth(tokens[seat]), timeout=10)
        state = moved.state
    client = redis.Redis.from_url(redis_db_url)
    assert pending(client) == 1
    assert [client.ttl(k) for k in (game_key(game_id), state_key(game_id), log_key(game_id))] == [-1, -1, -1]
    writer, _, pool = in_process_writer(redis_db_url, database_url)
    try:
        migrated(database_url)
        assert writer.step() == 1 and writer.archived == 1
        assert pending(client) == 0
        assert all(0 < client.ttl(k) <= RETENTION for k in (game_key(game_id), state_key(game_id), log_key(game_id)))
        # The same game on the stream again (a duplicate entry): acknowledged, not stored twice.
        client.xadd(archive_stream(int(client.hget(game_key(game_id), "shard"))), {"game": game_id})
        assert writer.step() == 1 and writer.archived == 1
    finally:
        pool.close()
    with psycopg.connect(database_url) as conn:
        game = conn.execute("SELECT game_type, outcome, ranking, score, final_version, created_at <= started_at, "
                            "started_at <= ended_at, options, visibility, rated FROM games").fetchall()
        seats = conn.execute("SELECT seat, kind, name, player_id, ai_strength, total, place FROM game_seats "
                             "ORDER BY seat").fetchall()
        fmt, log = conn.execute("SELECT format, events FROM game_logs WHERE game_id = %s", (game_id,)).fetchone()
    assert fmt == 1
    events = [{"version": e.version, **e.fields} for e in unpack_log(bytes(log))]
    assert len(game) == 1
    game_type, outcome, ranking, score, final_version, created_first, started_first, options, visibility, rated = \
        game[0]
    assert (game_type, outcome, created_first, started_first, rated) == ("toy", "finished", True, True, False)
    assert final_version == state.version and visibility == "private" and isinstance(options, dict)
    assert [e["version"] for e in events] == list(range(1, state.version + 1))
    moves = [e for e in events if e["kind"] == "move"]
    assert len(moves) == 6 and all(e["move_id"].startswith("card:") for e in moves)  # hidden commits included
    assert events[0]["kind"] == "created" and any(e["kind"] == "started" and e.get("state") for e in events)
    totals = {s["seat"]: s["total"] for s in score["seats"]}
    assert [(s[0], s[1], s[2], s[3], s[4], s[5]) for s in seats] == [
        (0, "human", "Ann", None, None, totals[0]), (1, "human", "Bob", None, None, totals[1])]
    place = {seat: 1 + sum(len(g) for g in ranking[:i]) for i, group in enumerate(ranking) for seat in group}
    assert [s[6] for s in seats] == [place[0], place[1]]


def test_without_a_database_live_play_works_and_finished_games_expire_as_before(redis_db_url, toy_game):
    thread = ServerThread(service_config(redis_db_url, ai_job_shards=SHARDS, retention_seconds=RETENTION)).start()
    channel = grpc.insecure_channel(thread.target)
    client = redis.Redis.from_url(redis_db_url)
    try:
        (game_id,) = finish_by_resigning(game_service_pb2_grpc.GameServiceStub(channel), 1)
        assert pending(client) == 0 and not any(client.exists(archive_stream(s)) for s in range(SHARDS))
        assert 0 < client.ttl(game_key(game_id)) <= RETENTION
        assert client.hget(game_key(game_id), "archive") is None
    finally:
        channel.close()
        thread.stop()


def test_a_writer_that_dies_after_its_insert_and_before_it_acknowledges_loses_nor_doubles_a_game(
        archive_server, redis_db_url, database_url):
    ids = finish_by_resigning(archive_server, 6)
    migrated(database_url)
    first, client, pool = in_process_writer(redis_db_url, database_url, consumer="first")
    second, _, pool2 = in_process_writer(redis_db_url, database_url, consumer="second", claim_seconds=0.01)
    try:
        taken = []
        while len(taken) < 6:
            taken += first.take(block=False, claim=False)
        first.store(taken)  # committed in PostgreSQL; then "first" dies: never acknowledged
        assert archived(database_url) == sorted(ids) and pending(client) == 6
        wait_for(lambda: second.step(block=False) == 0 and pending(client) == 0, "the second writer to take over")
        assert second.archived == 0 and second.acknowledged == 6  # stored already: skipped, acknowledged
    finally:
        pool.close()
        pool2.close()
    assert archived(database_url) == sorted(ids)
    assert all(0 < client.ttl(game_key(g)) <= RETENTION for g in ids)


def writer_process(redis_url: str, database_url: str) -> subprocess.Popen:
    env = dict(os.environ, TABLETOP_REDIS_URL=redis_url, TABLETOP_DATABASE_URL=database_url,
               TABLETOP_AI_JOB_SHARDS=str(SHARDS), TABLETOP_RETENTION_SECONDS=str(RETENTION),
               TABLETOP_ARCHIVE_CLAIM_SECONDS="0.5", TABLETOP_ARCHIVE_POLL_SECONDS="0.1", TABLETOP_LOG_LEVEL="warning",
               TABLETOP_ARCHIVE_HEALTH_PORT=str(free_port()), TABLETOP_ARCHIVE_METRICS_PORT="0")
    return subprocess.Popen([sys.executable, "-m", "commands.cli", "archive-writer"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stopped(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


def waiting_insert(database_url: str) -> bool:
    """A writer's INSERT INTO games is waiting on a lock (mid-transaction)."""
    with psycopg.connect(database_url) as conn:
        return bool(conn.execute("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND "
                                 "wait_event_type = 'Lock' AND query LIKE '%INSERT INTO games%'").fetchone())


def test_a_writer_killed_mid_write_loses_no_game_and_doubles_none(archive_server, redis_db_url, database_url):
    ids = finish_by_resigning(archive_server, 10)
    migrated(database_url)
    client = redis.Redis.from_url(redis_db_url)
    blocker = psycopg.connect(database_url)
    blocker.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # the writer's insert waits: mid-write
    first = writer_process(redis_db_url, database_url)
    try:
        wait_for(lambda: waiting_insert(database_url), "the writer's insert to be under way")
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        blocker.rollback()
        blocker.close()
        assert archived(database_url) == [] and pending(client) == 10
        second = writer_process(redis_db_url, database_url)
        try:
            wait_for(lambda: pending(client) == 0, "the second writer to archive every game")
        finally:
            stopped(second)
    finally:
        stopped(first)
    assert archived(database_url) == sorted(ids)
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM game_logs").fetchone()[0] == 10
        assert conn.execute("SELECT count(*) FROM game_seats").fetchone()[0] == 20


def test_postgres_killed_mid_write_and_restarted_loses_no_game_and_doubles_none(archive_server, redis_db_url,
                                                                                own_postgres):
    url = own_postgres.url
    migrated(url)
    ids = finish_by_resigning(archive_server, 10)
    client = redis.Redis.from_url(redis_db_url)
    blocker = psycopg.connect(url)
    blocker.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
    writer = writer_process(redis_db_url, url)
    try:
        wait_for(lambda: waiting_insert(url), "the writer's insert to be under way")
        own_postgres.stop(kill=True)  # SIGKILL: a crash, mid-transaction
        blocker.close()
        more = finish_by_resigning(archive_server, 3)  # games keep finishing while the database is down
        own_postgres.start()
        wait_for(lambda: pending(client) == 0, "the writer to archive every game after the restart")
    finally:
        stopped(writer)
    assert archived(url) == sorted(ids + more)


def test_the_service_killed_right_after_the_end_commit_loses_no_game(redis_db_url, database_url):
    """The end and the archive entry are one Lua script: a service killed (SIGKILL) right after a game's end
    commit has already put it on the stream."""
    port = free_port()
    env = dict(os.environ, TABLETOP_REDIS_URL=redis_db_url, TABLETOP_DATABASE_URL=database_url,
               TABLETOP_AI_JOB_SHARDS=str(SHARDS), TABLETOP_GRPC_HOST="127.0.0.1", TABLETOP_GRPC_PORT=str(port),
               TABLETOP_METRICS_PORT="0", TABLETOP_LOG_LEVEL="warning", TABLETOP_AI_SERVICE_TOKEN="x" * 32)
    service = subprocess.Popen([sys.executable, "-m", "commands.cli", "serve"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis.from_url(redis_db_url)
    try:
        from tabletop.stack.launcher import wait_serving

        wait_serving(f"127.0.0.1:{port}", service, "game service")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            ids = finish_by_resigning(game_service_pb2_grpc.GameServiceStub(channel), 5)
        service.send_signal(signal.SIGKILL)
        service.wait(30)
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()
    assert pending(client) == 5
    migrated(database_url)
    writer = writer_process(redis_db_url, database_url)
    try:
        wait_for(lambda: pending(client) == 0, "the writer to archive every game")
    finally:
        stopped(writer)
    assert archived(database_url) == sorted(ids)
    assert json.loads(client.hget(game_key(ids[0]), "resigned")) == [1]
    assert not client.xpending(archive_stream(0), GROUP)["pending"]


def test_the_writer_migrates_only_when_asked_and_exits(database_url):
    env = dict(os.environ, TABLETOP_DATABASE_URL=database_url, TABLETOP_REDIS_URL="redis://127.0.0.1:1/0",
               TABLETOP_ARCHIVE_HEALTH_PORT="0", TABLETOP_LOG_LEVEL="warning")
    done = subprocess.run([sys.executable, "-m", "commands.cli", "archive-writer", "--migrate-only"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(database_url) as conn:
        assert db.schema_version(conn) == len(db.migrations())
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)


@pytest.mark.integration  # it starts a process
def test_the_writer_needs_a_database_and_none_of_the_services_serving_settings():
    """It says so when no database is set; and it starts where the service's TLS certificate and API keys are not
    mounted (the TLS overlay sets them in the ConfigMap every pod reads)."""
    from service.archive.writer import Settings

    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}
    done = subprocess.run([sys.executable, "-m", "commands.cli", "archive-writer"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "TABLETOP_DATABASE_URL is not set" in done.stderr
    settings = Settings.from_env({"TABLETOP_TLS_CERT_FILE": "/nonexistent/tls.crt", "TABLETOP_API_KEYS": "bad",
                                  "TABLETOP_DATABASE_URL": "postgresql://db/x", "TABLETOP_AI_JOB_SHARDS": "4"})
    assert (settings.database_url, settings.job_shards, settings.health_port) == ("postgresql://db/x", 4, 50071)


def test_on_a_redis_cluster_every_finished_game_is_archived_once(database_url):
    """The archive stream is in the slot of its shard, as the game's keys are: the end commit and archived.lua each
    touch one slot, and the writer reads every shard's stream on whichever master holds it."""
    from tests.cluster_fixture import LocalCluster

    cluster = LocalCluster(masters=3).start()
    port = free_port()
    env = dict(os.environ, TABLETOP_REDIS_URL=cluster.url, TABLETOP_REDIS_CLUSTER="true",
               TABLETOP_DATABASE_URL=database_url, TABLETOP_AI_JOB_SHARDS="16", TABLETOP_GRPC_HOST="127.0.0.1",
               TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT="0", TABLETOP_LOG_LEVEL="warning",
               TABLETOP_AI_SERVICE_TOKEN="x" * 32, TABLETOP_ARCHIVE_HEALTH_PORT=str(free_port()),
               TABLETOP_ARCHIVE_METRICS_PORT="0", TABLETOP_ARCHIVE_POLL_SECONDS="0.1")
    service = subprocess.Popen([sys.executable, "-m", "commands.cli", "serve"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    writer = subprocess.Popen([sys.executable, "-m", "commands.cli", "archive-writer"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        from tabletop.stack.launcher import wait_serving

        wait_serving(f"127.0.0.1:{port}", service, "game service")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            ids = finish_by_resigning(game_service_pb2_grpc.GameServiceStub(channel), 12)
        wait_for(lambda: archived(database_url) == sorted(ids), "every game archived")
        client = redis.cluster.RedisCluster.from_url(cluster.url)
        try:
            wait_for(lambda: sum(client.xlen(archive_stream(s)) for s in range(16)) == 0, "every entry acknowledged")
            assert all(0 < client.ttl(game_key(g)) for g in ids)
        finally:
            client.close()
    finally:
        for proc in (writer, service):
            stopped(proc)
        cluster.stop()
    assert archived(database_url) == sorted(ids)


def test_a_change_after_the_end_does_not_let_a_game_expire_before_it_is_archived(archive_server, redis_db_url,
                                                                                 database_url):
    """A commit after the end (an away seat's player returning to the finished game) sets the game's expiry as
    every commit does; while the game waits for the writer, its keys still do not expire."""
    import asyncio

    from service.store import GameStore

    (game_id,) = finish_by_resigning(archive_server, 1)
    client = redis.Redis.from_url(redis_db_url)
    keys = (game_key(game_id), state_key(game_id), log_key(game_id))

    async def change_after_the_end():
        store = GameStore.from_url(redis_db_url, retention_seconds=RETENTION, abandoned_seconds=RETENTION,
                                   job_shards=SHARDS, archive=True)
        try:
            record, _ = await store.load(game_id)
            result = await store.commit(game_id, record.game_type, record.version, {},
                                        {"kind": "returned", "seat": "0"}, shard=record.shard)
            assert result.outcome == "OK"
        finally:
            await store.close()

    asyncio.run(change_after_the_end())
    assert [client.ttl(k) for k in keys] == [-1, -1, -1] and pending(client) == 1
    migrated(database_url)
    writer, _, pool = in_process_writer(redis_db_url, database_url)
    try:
        assert writer.step() == 1 and archived(database_url) == [game_id]
    finally:
        pool.close()
    assert all(0 < client.ttl(k) <= RETENTION for k in keys)


# ---- the writer's metrics (issue 27 item 6, docs/archive.md "Watching the writer") ----

def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_the_writer_measures_its_backlog_and_counts_the_games_by_outcome(archive_server, redis_db_url,
                                                                         database_url):
    migrated(database_url)
    writer, client, pool = in_process_writer(redis_db_url, database_url)
    try:
        assert writer.lag() == (0, 0.0)
        ids = finish_by_resigning(archive_server, 3)
        waiting, oldest = writer.lag()
        assert waiting == 3 and oldest >= 0
        # The oldest game's age runs on Redis's clock while it waits.
        start = client.time()
        wait_for(lambda: (lambda now: (now[0] - start[0]) * 10**6 + now[1] - start[1] > 20_000)(client.time()),
                 "Redis's clock to move on")
        assert writer.lag()[1] > oldest
        writer.measure_lag()
        assert sample("tabletop_archive_backlog_games") == 3
        assert sample("tabletop_archive_oldest_waiting_seconds") > 0

        before = {o: sample("tabletop_archive_games_total", outcome=o) for o in ("archived", "duplicate")}
        batches = sample("tabletop_archive_batch_seconds_count")
        entries = []
        while len(entries) < 3:
            entries += writer.take(block=False, claim=False)
        writer.store(entries)
        writer.store(entries)  # delivered again (a writer that died before acknowledging): found, not stored twice
        writer.acknowledge(entries)
        assert sample("tabletop_archive_games_total", outcome="archived") - before["archived"] == 3
        assert sample("tabletop_archive_games_total", outcome="duplicate") - before["duplicate"] == 3
        # A game whose keys are gone is acknowledged and counted as missing.
        missing = sample("tabletop_archive_games_total", outcome="missing")
        shard = int(client.hget(game_key(ids[0]), "shard"))
        client.delete(game_key(ids[0]))
        client.xadd(archive_stream(shard), {"game": ids[0]})
        assert writer.step(block=False) == 1
        assert sample("tabletop_archive_games_total", outcome="missing") - missing == 1
        assert sample("tabletop_archive_batch_seconds_count") - batches == 1
        writer.measure_lag()
        assert writer.lag() == (0, 0.0)
        assert sample("tabletop_archive_backlog_games") == 0 and sample("tabletop_archive_oldest_waiting_seconds") == 0
    finally:
        pool.close()


def test_a_writer_whose_database_is_unreachable_counts_its_retries(archive_server, redis_db_url):
    """PostgreSQL away: each failed batch is counted by its cause, the game stays waiting (and is measured so)."""
    finish_by_resigning(archive_server, 1)
    client = redis.Redis.from_url(redis_db_url)
    pool = psycopg_pool.ConnectionPool("postgresql://nobody@127.0.0.1:1/none", min_size=1, max_size=1, open=False,
                                       timeout=0.5, kwargs={"connect_timeout": 1})
    pool.open(wait=False)
    writer = Writer(client, pool, shards=SHARDS, retention_seconds=60, poll_seconds=0.05)
    writer.create_groups()
    before = sample("tabletop_archive_retries_total", cause="database")
    stop = threading.Event()
    thread = threading.Thread(target=writer.run, args=(stop,), daemon=True)
    thread.start()
    try:
        wait_for(lambda: sample("tabletop_archive_retries_total", cause="database") - before >= 2,
                 "the writer to retry its batch")
    finally:
        stop.set()
        thread.join(30)
        pool.close()
    assert writer.lag()[0] == 1


def test_a_batch_holds_at_most_archive_batch_games_whichever_shards_they_wait_on(archive_server, redis_db_url,
                                                                                 database_url):
    """XREADGROUP's COUNT holds per stream: the writer reads stream after stream so that one transaction holds
    TABLETOP_ARCHIVE_BATCH games at most, not that many per shard; and no shard waits behind another's backlog."""
    migrated(database_url)
    writer, client, pool = in_process_writer(redis_db_url, database_url, batch=2)
    ids: list[str] = []
    while len(ids) < 7 or len({int(client.hget(game_key(g), "shard")) for g in ids}) < SHARDS:
        ids += finish_by_resigning(archive_server, 1)  # until both shards have games waiting
    try:
        sizes = []
        while n := writer.step(block=False):
            sizes.append(n)
        assert sizes == [2] * (len(ids) // 2) + [1] * (len(ids) % 2) and writer.archived == len(ids)
        assert archived(database_url) == sorted(ids)
    finally:
        pool.close()


def test_the_archived_score_is_the_score_as_asdict_makes_it():
    """The writer writes the final Score out by hand (asdict's deep copies were a fifth of its CPU): the same
    document, for every registered game's final scores."""
    import dataclasses
    import random

    from games import registry
    from service.archive.writer import score_json

    for name in registry.names():
        game = registry.get(name)
        for seed in range(5):
            rng = random.Random(seed)
            state = game.new_game(rng.randint(game.info.min_seats, game.info.max_seats), {}, seed)
            while not game.is_over(state):
                seat = rng.choice(sorted(game.to_act(state)))
                state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
            score = game.score(state)
            assert json.dumps(score_json(score)) == json.dumps(dataclasses.asdict(score)), name
            resigned = dataclasses.replace(score, decided_by="Ann resigned", tie_breaks=("most gold",))
            assert json.dumps(score_json(resigned)) == json.dumps(dataclasses.asdict(resigned)), name


def test_the_writers_score_document_is_the_scores_asdict():
    """service.archive.writer.score_json writes asdict out by hand (for speed): every field of Score and SeatScore
    must be in it, as asdict gives it once made JSON."""
    import dataclasses

    from games import registry
    from service.archive.writer import score_json

    for game in registry.all_games():
        n, options = game.variants()[0]
        state = game.new_game(n, options, 3)
        for score in (game.score(state), dataclasses.replace(game.score(state), estimated=True, tie_breaks=("x",))):
            assert json.loads(json.dumps(score_json(score))) == json.loads(json.dumps(dataclasses.asdict(score)))
