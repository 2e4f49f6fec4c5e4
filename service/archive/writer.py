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
import dataclasses
import json
import os
import signal
import socket
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

from service import logs, validation
from service.archive import db, ratings
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
        score_doc = dataclasses.asdict(score)
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


def store_games(conn: psycopg.Connection, games: list[ArchivedGame]) -> int:
    """Insert the games in one transaction; a game already archived is left as it is. The number inserted."""
    inserted = 0
    with conn.transaction(), conn.cursor() as cur:
        for game in games:
            cur.execute(INSERT_GAME, game.game)
            if cur.fetchone() is None:
                continue  # archived before (by a writer that died before it acknowledged)
            cur.executemany(INSERT_SEAT, game.seats)
            cur.execute(INSERT_LOG, (game.game["game_id"], game.log))
            ratings.rate_game(cur, game.game, game.seats)  # once: only with the game's first insert
            inserted += 1
    return inserted


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
        """Entries another writer took and left idle for claim_seconds (it died): now this writer's."""
        found = []
        pipe = self.redis.pipeline(transaction=False)
        for shard in range(self.shards):
            pipe.xautoclaim(archive_stream(shard), GROUP, self.consumer, self.claim_ms,
                            start_id=self._claim_cursor[shard], count=self.batch)
        for shard, reply in enumerate(pipe.execute()):
            cursor, items = reply[0], reply[1]
            self._claim_cursor[shard] = cursor.decode() if isinstance(cursor, bytes) else cursor
            found += [Entry(shard, i.decode(), f[b"game"].decode()) for i, f in items if f]
        return found

    def read(self, block: bool) -> list[Entry]:
        """This writer's own pending entries (after a failed batch), else new ones (waiting up to poll_seconds)."""
        streams = {archive_stream(shard): shard for shard in range(self.shards)}
        start = "0" if self._retry_own else ">"
        if not self.cluster:
            reply = self.redis.xreadgroup(GROUP, self.consumer, {s: start for s in streams}, count=self.batch,
                                          block=self.poll_ms if block and start == ">" else None)
            found = self._entries(reply, streams)
        else:  # the shards' streams are in different slots: one read each
            pipe = self.redis.pipeline(transaction=False)
            for stream in streams:
                pipe.xreadgroup(GROUP, self.consumer, {stream: start}, count=self.batch)
            found = [e for reply in pipe.execute() for e in self._entries(reply, streams)]
        if self._retry_own and not found:
            self._retry_own = False
            return self.read(block)
        return found

    def step(self, block: bool = True, claim: bool = True) -> int:
        """Archive one batch: claimed entries of dead writers first, then this writer's own. The entries taken."""
        entries = self.take(block, claim)
        if entries:
            self.acknowledge(self.store(entries))
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
        (stored now or before, or whose game is gone), to acknowledge."""
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
                continue
            if game is None:
                log.warning("archive_game_missing", game_id=e.game_id,
                            reason="its keys are gone from Redis (a Redis that lost its data?)")
            else:
                games.append(game)
            done.append(e)
        if games:
            with self.pool.connection() as conn:
                self.archived += store_games(conn, games)
        return done

    def acknowledge(self, entries: list[Entry]) -> None:
        """The games are in PostgreSQL: acknowledge their entries, then let their keys expire (archived.lua)."""
        for e in entries:
            keys = [archive_stream(e.shard), game_key(e.game_id), state_key(e.game_id), log_key(e.game_id)]
            self.acknowledged += int(self._archived(keys=keys, args=[GROUP, e.entry_id, self.retention_seconds]))

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
                if "NOGROUP" in str(exc):  # a stream or its group gone (deleted by hand): made again
                    with contextlib.suppress(redis.exceptions.RedisError, OSError):
                        self.create_groups()
                log.warning("archive_retry", error=type(exc).__name__, detail=str(exc)[:200], pause=pause)
                stop.wait(pause)
                pause = min(5.0, pause * 2)


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
