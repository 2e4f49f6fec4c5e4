"""The archive writer (`tabletop archive-writer`): drains the Redis archive streams into PostgreSQL, each finished
game exactly once (docs/archive.md).

The commit that finishes a game adds its id to its shard's archive stream, atomically with the end, and keeps the
game's keys from expiring (commit.lua). Writers share the consumer group `archive`: each reads a batch of entries,
reads those games from Redis, inserts them in one PostgreSQL transaction (`INSERT ... ON CONFLICT (game_id) DO
NOTHING`: a game stored before, by a writer that died before it acknowledged, is skipped, its row untouched), and
after the commit acknowledges each entry and lets the game's keys expire (archived.lua, atomically). A failure
before the commit leaves the entries pending: this writer retries them; a writer that died leaves them to the
others, which take them over (XAUTOCLAIM) once they have been idle `archive_claim_seconds`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import psycopg
import redis
import redis.exceptions
import structlog

from games.base import Score
from service import logs, validation
from service.archive import db, ratings
from service.archive import metrics as archive_metrics
from service.config import ConfigError
from service.store import (
    GameRecord,
    archive_stream,
    game_key,
    log_key,
    state_key,
    unpack_log,
)
from service.tables import ABANDONED, final_score, names
from tabletop import job_shards, redis_client
from tabletop.settings import env_reader

GROUP = "archive"
log = structlog.get_logger("archive")


@dataclass(frozen=True)
class Settings:
    """The writer's settings (docs/config.md). Its own, not the service's Config: the writer must start where the
    service's serving settings (its TLS certificate, its API keys) are not mounted."""

    database_url: str = ""
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_cluster: bool = False
    job_shards: int = job_shards.DEFAULT_SHARDS  # TABLETOP_AI_JOB_SHARDS: the archive streams are per job shard
    retention_seconds: int = 86400  # a game's Redis copy expires this long after it is archived
    batch: int = 100  # games per PostgreSQL transaction
    claim_seconds: float = 60.0  # another writer's entry idle this long (it died) is taken over
    poll_seconds: float = 1.0  # how long one read waits for a finished game
    host: str = "127.0.0.1"  # TABLETOP_GRPC_HOST: where the health service listens
    health_port: int = 50071  # the gRPC health service (plaintext, for probes); 0 = none
    metrics_port: int = 9103  # Prometheus metrics (HTTP /metrics); 0 = none
    lag_seconds: float = 5.0  # how often the backlog on the archive streams is measured for the metrics
    log_level: str = "info"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        get = env_reader(env)
        d = cls()
        try:
            cluster = redis_client.cluster_flag(env)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        return cls(
            database_url=get("DATABASE_URL", d.database_url),
            redis_url=get("REDIS_URL", d.redis_url),
            redis_cluster=cluster,
            job_shards=max(1, get("AI_JOB_SHARDS", d.job_shards)),
            retention_seconds=get("RETENTION_SECONDS", d.retention_seconds),
            batch=max(1, get("ARCHIVE_BATCH", d.batch)),
            claim_seconds=max(0.1, get("ARCHIVE_CLAIM_SECONDS", d.claim_seconds)),
            poll_seconds=max(0.01, get("ARCHIVE_POLL_SECONDS", d.poll_seconds)),
            host=get("GRPC_HOST", d.host),
            health_port=get("ARCHIVE_HEALTH_PORT", d.health_port),
            metrics_port=get("ARCHIVE_METRICS_PORT", d.metrics_port),
            lag_seconds=max(0.1, get("ARCHIVE_LAG_SECONDS", d.lag_seconds)),
            log_level=get("LOG_LEVEL", d.log_level),
        )


@dataclass(frozen=True)
class Entry:
    shard: int
    entry_id: str
    game_id: str


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game as the archive stores it (one row of each table; see migrations/0001_games.sql)."""

    game: dict[str, Any]
    seats: list[dict[str, Any]]
    log: bytes  # every event: game_logs format 1 (service/store.py pack_log)


def _time(ms: int | str | None) -> datetime | None:
    return datetime.fromtimestamp(int(ms) / 1000, UTC) if ms not in (None, "", 0) else None


def score_json(score: Score) -> dict[str, Any]:
    """`dataclasses.asdict(score)` written out (asdict deep-copies every value: it was a fifth of the writer's CPU).
    tests/service/test_archive.py checks it against asdict, so a field added to Score or SeatScore fails a test
    rather than being left out."""
    return {
        "seats": [{"seat": s.seat, "total": s.total, "breakdown": [list(item) for item in s.breakdown]}
                  for s in score.seats],
        "ranking": [list(group) for group in score.ranking], "final": score.final,
        "tie_breaks": list(score.tie_breaks), "decided_by": score.decided_by, "estimated": score.estimated,
    }


def archived_game(game_id: str, doc: dict[bytes, bytes], state: bytes | None, log_raw: bytes | None
                  ) -> ArchivedGame | None:
    """A finished game's record from its Redis keys (hash, state, log); None when it is not a finished game (its
    keys gone, or never finished). The log holds every event up to the end (the finishing commit wrote it); a seat
    leaving afterwards is no part of the game. An abandoned game (hash field outcome = "abandoned", written by its
    end commit) is stored with outcome "abandoned" and no result: an empty ranking and score, totals and places 0."""
    if not doc or not log_raw:
        return None
    record = GameRecord.from_hash(game_id, doc, state)
    events = unpack_log(log_raw)
    game = validation.engine(record.game_type)
    seat_names = names(record.seats)
    outcome = "abandoned" if record.outcome == "abandoned" else "finished"
    if outcome == "abandoned":  # no result: no ranking, no place, no total, no final Score (ratings skip it)
        ranking, totals, score_doc = [], {}, {}
    elif record.state:
        score = final_score(game, game.load_state(record.state), None, "finished", record.resigned, seat_names)
        ranking = [list(group) for group in score.ranking]
        totals = {s.seat: s.total for s in score.seats}
        score_doc = score_json(score)
    else:  # ended before it started: no score
        ranking, totals, score_doc = [], {}, {}
    place = {}  # 1 = first; tied seats share a place; 0 = none (an abandoned game)
    before = 0
    for group in ranking:
        for seat in group:
            place[seat] = before + 1
        before += len(group)
    started = next((e for e in events if e.get("kind") == "started"), None)
    extra = {k.decode(): v.decode() for k, v in doc.items()}
    seats = [
        {
            "game_id": game_id, "seat": i, "kind": s.kind, "name": s.name,
            "player_id": extra.get(f"player{i}") or None,  # bound by a signed identity (issue 27 item 1)
            "ai_strength": s.strength if s.kind == "ai" else None,
            "final_state": s.state, "total": totals.get(i, 0),
            "place": place.get(i, 0 if outcome == "abandoned" else len(record.seats)),
        }
        for i, s in enumerate(record.seats)
    ]
    row = {
        "game_id": game_id, "game_type": record.game_type, "options": record.options,
        "visibility": record.visibility, "rated": extra.get("rated") == "1", "outcome": outcome,
        "resigned": list(record.resigned),
        "decided_by": ABANDONED if outcome == "abandoned" else score_doc.get("decided_by", ""),
        "ranking": json.dumps(ranking), "score": json.dumps(score_doc),
        "final_version": events[-1].version,
        "created_at": _time(record.created_ms), "started_at": _time(started.get("at") if started else None),
        "ended_at": _time(events[-1].get("at")) or datetime.now(UTC),
    }
    return ArchivedGame(row, seats, log_raw)


INSERT_GAME = """
INSERT INTO games (game_id, game_type, options, visibility, rated, outcome, resigned, decided_by, ranking, score,
                   final_version, created_at, started_at, ended_at)
VALUES (%(game_id)s, %(game_type)s, %(options)s::jsonb, %(visibility)s, %(rated)s, %(outcome)s, %(resigned)s,
        %(decided_by)s, %(ranking)s::jsonb, %(score)s::jsonb, %(final_version)s, %(created_at)s, %(started_at)s,
        %(ended_at)s)
ON CONFLICT (game_id) DO NOTHING
RETURNING game_id
"""
INSERT_SEAT = """
INSERT INTO game_seats (game_id, seat, kind, name, player_id, ai_strength, final_state, total, place)
VALUES (%(game_id)s, %(seat)s, %(kind)s, %(name)s, %(player_id)s, %(ai_strength)s, %(final_state)s, %(total)s,
        %(place)s)
"""
INSERT_LOG = "INSERT INTO game_logs (game_id, format, events) VALUES (%s, 1, %s)"


# pg_advisory_xact_lock key ("archive" in ASCII, as a bigint). Each batch of a writer holds it shared, from before
# it reads its games from Redis to its commit; `tabletop forget-player` takes it exclusively after it has unbound
# the player in Redis, so no batch that read the player's id before that can commit after it (service/archive/
# forget.py).
ARCHIVE_LOCK = 0x61726368697665


def store_games(conn: psycopg.Connection, games: list[ArchivedGame]) -> int:
    """Insert the games in one transaction (nested in the caller's, when it holds one: a savepoint); a game already
    archived is left as it is. The number inserted."""
    with conn.transaction(), conn.cursor() as cur:
        return insert_games(cur, games)


def insert_games(cur: psycopg.Cursor, games: list[ArchivedGame]) -> int:
    """Insert the games within the caller's transaction; a game already archived is left as it is (its rows
    untouched, its players not rated again). The number inserted. A few round trips for the whole batch
    (executemany runs in pipeline mode): the games' rows, then the seats and logs of those inserted now, then the
    ratings of those, in the batch's order (service/archive/ratings.py rate_games)."""
    if not games:
        return 0
    cur.executemany(INSERT_GAME, [g.game for g in games], returning=True)
    new = []
    for n, game in enumerate(games):  # one result per game, in order: a row when it was inserted now
        if cur.fetchone() is not None:
            new.append(game)
        if n + 1 < len(games):
            cur.nextset()
    if new:
        cur.executemany(INSERT_SEAT, [seat for game in new for seat in game.seats])
        cur.executemany(INSERT_LOG, [(game.game["game_id"], game.log) for game in new])
        ratings.rate_games(cur, [(game.game, game.seats) for game in new])  # once: only with a game's first insert
    return len(new)


class Writer:
    """One archive writer: a consumer of the group `archive` on every shard's archive stream."""

    def __init__(self, client: Any, pool: Any, *, shards: int, retention_seconds: int, consumer: str | None = None,
                 batch: int = 100, claim_seconds: float = 60.0, poll_seconds: float = 1.0, cluster: bool = False):
        self.redis = client
        self.pool = pool
        self.shards = shards
        self.retention_seconds = retention_seconds
        self.consumer = consumer or f"{socket.gethostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.batch = batch
        self.claim_ms = int(claim_seconds * 1000)
        self.poll_ms = int(poll_seconds * 1000)
        self.cluster = cluster
        self._archived = client.register_script(
            resources.files("service.archive").joinpath("archived.lua").read_text())
        self._retry_own = False  # entries delivered to this writer and not yet stored: read them again first
        self._claim_cursor = {shard: "0-0" for shard in range(shards)}
        self._next_shard = 0  # the shard a batch is read from first (each batch starts one further)
        self.archived = 0  # games this writer inserted
        self.acknowledged = 0  # entries this writer acknowledged

    def create_groups(self) -> None:
        for shard in range(self.shards):
            try:
                self.redis.xgroup_create(archive_stream(shard), GROUP, id="0", mkstream=True)
            except redis.exceptions.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def _entries(self, reply: Any, shard_of: dict[str, int]) -> list[Entry]:
        found = []
        for stream, items in reply or ():
            key = stream.decode() if isinstance(stream, bytes) else stream
            for entry_id, fields in items:
                if fields is None:  # deleted meanwhile
                    continue
                found.append(Entry(shard_of[key], entry_id.decode(), fields[b"game"].decode()))
        return found

    def claim(self) -> list[Entry]:
        """Entries another writer took and left idle for claim_seconds (it died): now this writer's; a batch at most
        (the shards whose turn did not come are looked at the next time)."""
        found: list[Entry] = []
        for shard in self._shard_order():
            want = self.batch - len(found)
            if want <= 0:
                break
            cursor, items = self.redis.xautoclaim(archive_stream(shard), GROUP, self.consumer, self.claim_ms,
                                                  start_id=self._claim_cursor[shard], count=want)[:2]
            self._claim_cursor[shard] = cursor.decode() if isinstance(cursor, bytes) else cursor
            found += [Entry(shard, i.decode(), f[b"game"].decode()) for i, f in items if f]
        if found:
            archive_metrics.CLAIMED.inc(len(found))
        return found

    def _shard_order(self) -> list[int]:
        """Every shard, starting from the next in turn: a shard with a long backlog cannot keep the others
        waiting."""
        first = self._next_shard
        self._next_shard = (first + 1) % self.shards
        return [(first + n) % self.shards for n in range(self.shards)]

    def read(self, block: bool) -> list[Entry]:
        """This writer's own pending entries (after a failed batch), else new ones: TABLETOP_ARCHIVE_BATCH at most,
        read stream after stream (XREADGROUP's COUNT holds per stream), and when there are none, a wait of up to
        poll_seconds for the next."""
        start = "0" if self._retry_own else ">"
        found: list[Entry] = []
        for shard in self._shard_order():
            want = self.batch - len(found)
            if want <= 0:
                break
            stream = archive_stream(shard)
            found += self._entries(self.redis.xreadgroup(GROUP, self.consumer, {stream: start}, count=want),
                                   {stream: shard})
        if self._retry_own and not found:
            self._retry_own = False
            return self.read(block)
        if found or not block:
            return found
        if not self.cluster:  # one wait on every stream; a few entries each at most, if many arrive at once
            streams = {archive_stream(shard): shard for shard in range(self.shards)}
            reply = self.redis.xreadgroup(GROUP, self.consumer, {s: ">" for s in streams},
                                          count=max(1, self.batch // self.shards), block=self.poll_ms)
            return self._entries(reply, streams)
        # On a Cluster one read names one slot: wait on one shard's stream in turn, briefly, so that an idle writer
        # neither spins nor leaves the other shards unread for long.
        shard = self._shard_order()[0]
        stream = archive_stream(shard)
        return self._entries(self.redis.xreadgroup(GROUP, self.consumer, {stream: ">"},
                                                   count=self.batch, block=min(self.poll_ms, 100)), {stream: shard})

    def step(self, block: bool = True, claim: bool = True) -> int:
        """Archive one batch: claimed entries of dead writers first, then this writer's own. The entries taken."""
        entries = self.take(block, claim)
        if entries:
            started = time.perf_counter()
            self.acknowledge(self.store(entries))
            archive_metrics.BATCH_SECONDS.observe(time.perf_counter() - started)
            self._retry_own = False
        return len(entries)

    def take(self, block: bool = True, claim: bool = True) -> list[Entry]:
        """The next batch: entries of dead writers (when `claim`), else this writer's own pending, else new ones.
        They are this writer's (pending) until acknowledged."""
        entries = self.claim() if claim else []
        if not entries:
            entries = self.read(block)
        if entries:
            self._retry_own = True  # until this batch is acknowledged
        return entries

    def store(self, entries: list[Entry]) -> list[Entry]:
        """Read the entries' games from Redis and insert them in PostgreSQL (one transaction); the entries done
        (stored now or before, or whose game is gone), to acknowledge. The games are read from Redis inside the
        transaction, under ARCHIVE_LOCK held shared: `tabletop forget-player` waits for this batch to commit, and
        a batch after it reads the games as it left them."""
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock_shared(%s)", (ARCHIVE_LOCK,))
            games, done = self.read_games(entries)
            if games:
                inserted = insert_games(cur, games)
                self.archived += inserted
        if games:
            archive_metrics.GAMES.labels("archived").inc(inserted)
            archive_metrics.GAMES.labels("duplicate").inc(len(games) - inserted)
        return done

    def read_games(self, entries: list[Entry]) -> tuple[list[ArchivedGame], list[Entry]]:
        """The entries' games as the archive stores them (one pipelined read), and the entries done with: read, or
        whose game is gone (logged). An entry whose game cannot be read is in neither: it stays pending."""
        pipe = self.redis.pipeline(transaction=False)
        for e in entries:
            pipe.hgetall(game_key(e.game_id))
            pipe.get(state_key(e.game_id))
            pipe.get(log_key(e.game_id))
        raw = pipe.execute()
        games = []
        done = []
        for n, e in enumerate(entries):
            try:
                game = archived_game(e.game_id, *raw[3 * n:3 * n + 3])
            except Exception as exc:  # noqa: BLE001 - e.g. a game type this writer does not host
                # Left pending, not acknowledged: taken up again (XAUTOCLAIM) every claim_seconds until it can be.
                log.error("archive_game_unreadable", game_id=e.game_id, error=type(exc).__name__,
                          detail=str(exc)[:200])
                archive_metrics.GAMES.labels("unreadable").inc()
                continue
            if game is None:
                log.warning("archive_game_missing", game_id=e.game_id,
                            reason="its keys are gone from Redis (a Redis that lost its data?)")
                archive_metrics.GAMES.labels("missing").inc()
            else:
                games.append(game)
            done.append(e)
        return games, done

    def acknowledge(self, entries: list[Entry]) -> None:
        """The games are in PostgreSQL: acknowledge their entries, then let their keys expire (archived.lua): one
        pipelined round trip on a single Redis; on a Cluster, one script call each (each in its game's slot)."""
        def keys(e: Entry) -> list[str]:
            return [archive_stream(e.shard), game_key(e.game_id), state_key(e.game_id), log_key(e.game_id)]

        if self.cluster:
            for e in entries:
                self.acknowledged += int(self._archived(keys=keys(e), args=[GROUP, e.entry_id,
                                                                            self.retention_seconds]))
            return
        pipe = self.redis.pipeline(transaction=False)
        for e in entries:
            self._archived(keys=keys(e), args=[GROUP, e.entry_id, self.retention_seconds], client=pipe)
        self.acknowledged += sum(int(n) for n in pipe.execute())

    def lag(self) -> tuple[int, float]:
        """The games waiting on the archive streams (pending with a writer, or not yet delivered: an entry is
        deleted once its game is archived) and the age in seconds of the oldest (0 when none), by Redis's clock."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.xlen(archive_stream(shard))
            pipe.xrange(archive_stream(shard), count=1)
        replies = pipe.execute()
        now_s, now_us = self.redis.time()
        now_ms = now_s * 1000 + now_us // 1000
        waiting = sum(int(n) for n in replies[0::2])
        oldest = [int((items[0][0].decode() if isinstance(items[0][0], bytes) else items[0][0]).split("-")[0])
                  for items in replies[1::2] if items]
        return waiting, max(0.0, (now_ms - min(oldest)) / 1000) if oldest else 0.0

    def measure_lag(self) -> None:
        waiting, oldest = self.lag()
        archive_metrics.BACKLOG.set(waiting)
        archive_metrics.OLDEST_SECONDS.set(oldest)

    def run(self, stop: threading.Event) -> None:
        """Archive until `stop` is set; a failure (Redis or PostgreSQL unreachable) is retried after a pause."""
        pause = 0.1
        claimed_at = 0.0
        while not stop.is_set():
            try:
                now = time.monotonic()
                claim = now - claimed_at >= max(0.05, self.claim_ms / 2000)
                if claim:
                    claimed_at = now
                self.step(block=True, claim=claim)
                pause = 0.1
            except (psycopg.Error, redis.exceptions.RedisError, OSError) as exc:
                archive_metrics.RETRIES.labels("redis" if isinstance(exc, redis.exceptions.RedisError) else
                                                "database").inc()
                if "NOGROUP" in str(exc):  # a stream or its group gone (deleted by hand): made again
                    with contextlib.suppress(redis.exceptions.RedisError, OSError):
                        self.create_groups()
                log.warning("archive_retry", error=type(exc).__name__, detail=str(exc)[:200], pause=pause)
                stop.wait(pause)
                pause = min(5.0, pause * 2)


def watch_lag(writer: Writer, stop: threading.Event, every: float) -> threading.Thread:
    """Measure the backlog on the archive streams every `every` seconds for the metrics (a thread of its own, so a
    batch stalled on PostgreSQL does not stall the measure of what waits meanwhile)."""
    def run() -> None:
        while not stop.is_set():
            try:
                writer.measure_lag()
            except (redis.exceptions.RedisError, OSError) as exc:
                log.warning("archive_lag_unmeasured", error=type(exc).__name__, detail=str(exc)[:200])
            stop.wait(every)

    thread = threading.Thread(target=run, name="archive-lag", daemon=True)
    thread.start()
    return thread


def connect_database(pool: Any, stop: threading.Event) -> None:
    """Migrate the schema, waiting for the database to be reachable."""
    pause = 0.2
    while not stop.is_set():
        try:
            with pool.connection() as conn:
                applied = db.migrate(conn)
                log.info("archive_schema", version=db.schema_version(conn), applied=applied)
                return
        except (psycopg.OperationalError, psycopg.errors.AdminShutdown, TimeoutError) as exc:
            log.warning("archive_database_unreachable", detail=str(exc)[:200], pause=pause)
        except Exception as exc:  # noqa: BLE001 - psycopg_pool.PoolTimeout: the database is not there yet
            if type(exc).__name__ != "PoolTimeout":
                raise
            log.warning("archive_database_unreachable", detail=str(exc)[:200], pause=pause)
        stop.wait(pause)
        pause = min(5.0, pause * 2)


def health_server(host: str, port: int) -> tuple[Any, Any]:
    """The writer's gRPC health service on `port` (plaintext, for the kubelet's probes): NOT_SERVING until the
    schema is migrated and the consumer groups exist, SERVING while it archives."""
    from concurrent.futures import ThreadPoolExecutor

    import grpc
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc

    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    checker = health.HealthServicer()
    checker.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    server.add_insecure_port(f"{host}:{port}")
    server.start()
    return server, checker


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop archive-writer",
                                     description="Store finished games in PostgreSQL, each exactly once.")
    parser.add_argument("--migrate-only", action="store_true", help="apply the schema's migrations and exit")
    args = parser.parse_args(argv)
    try:
        config = Settings.from_env()
    except ConfigError as exc:
        parser.error(str(exc))
    if not config.database_url:
        parser.error("TABLETOP_DATABASE_URL is not set: there is no archive to write to")
    logs.configure(config.log_level)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if config.metrics_port and not args.migrate_only:
        from prometheus_client import start_http_server

        from tabletop import transport

        try:  # a port in use: said, not a traceback
            transport.check_bindable(f"{config.host}:{config.metrics_port}")
        except transport.CannotListen as exc:
            print(f"tabletop archive-writer: {exc}", file=sys.stderr, flush=True)
            return 1
        start_http_server(config.metrics_port, addr=config.host)
    health = None
    if config.health_port:
        from grpc_health.v1 import health_pb2

        health = health_server(config.host, config.health_port)
    pool = db.open_pool(config.database_url, max_size=2, name="archive-writer")
    pool.open(wait=False)
    client = redis_client.connect(config.redis_url, cluster=config.redis_cluster, socket_timeout=10,
                                  socket_connect_timeout=2, health_check_interval=10)
    try:
        connect_database(pool, stop)
        if args.migrate_only or stop.is_set():
            return 0
        writer = Writer(client, pool, shards=config.job_shards, retention_seconds=config.retention_seconds,
                        batch=config.batch, claim_seconds=config.claim_seconds, poll_seconds=config.poll_seconds,
                        cluster=config.redis_cluster)
        while not stop.is_set():
            try:
                writer.create_groups()
                break
            except (redis.exceptions.RedisError, OSError) as exc:
                log.warning("archive_redis_unreachable", detail=str(exc)[:200])
                stop.wait(1.0)
        log.info("archive_writer_started", consumer=writer.consumer, shards=config.job_shards)
        watch_lag(writer, stop, config.lag_seconds)
        if health is not None:
            health[1].set("", health_pb2.HealthCheckResponse.SERVING)
        writer.run(stop)
        log.info("archive_writer_stopped", archived=writer.archived)
    finally:
        if health is not None:
            health[0].stop(grace=None)
        pool.close()
        client.close()
    return 0
