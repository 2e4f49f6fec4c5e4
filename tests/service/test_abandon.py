"""Abandoned games are archived too (issue 27 item 2, docs/archive.md "Abandoned games"): with a database, a started
game that nothing has changed for TABLETOP_ABANDONED_SECONDS does not expire from Redis; the timekeeper ends it with
an "abandoned" end commit, exactly once whoever races or dies, and the writer archives it with no result (no
ranking, no place, no rating moved) while its replay still works.

Real Redis and real PostgreSQL, both started by the tests. The service runs on virtual time: every module of
service/ that reads the time (`now_ms`: the commits' event times and abandonment times, the timekeeper's clock)
reads the test's clock, so days pass at once and nothing waits on the wall clock."""

from __future__ import annotations

import asyncio
import sys
import threading

import grpc
import psycopg
import pytest
import redis

import service.server  # noqa: F401 - every module of the service loaded, so the clock below reaches them all
from service import store as store_module
from service.auth import Credentials
from service.store import abandon_key, events_key, game_key, log_key, state_key, timekeeper_key, unpack_log
from service.tables import ABANDONED
from service.timekeeper import CLAIM_MS, Timekeeper
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, OPEN, ServerThread, service_config
from tests.service.test_archive import RETENTION, archived, migrated, pending, wait_for
from tests.service.test_errors import C, fails
from tests.service.test_history import SHARDS, alice, archive_all, bearer, bob, identity_config
from tests.service.test_timekeeper import Clock, on_loop

DAY_MS = 86_400_000
ABANDONED_MS = 7 * DAY_MS  # TABLETOP_ABANDONED_SECONDS' default, 604800


def virtual_time(monkeypatch, start: int) -> Clock:
    """Every module of service/ that reads the time as `now_ms` reads this clock instead."""
    clock = Clock(start)
    real = store_module.now_ms
    for name, module in list(sys.modules.items()):
        if (name == "service" or name.startswith("service.")) and getattr(module, "now_ms", None) is real:
            monkeypatch.setattr(module, "now_ms", clock)
    return clock


class Env:
    def __init__(self, server: ServerThread, redis_url: str, database_url: str, clock: Clock):
        self.server = server
        self.redis_url = redis_url
        self.database_url = database_url
        self.clock = clock
        self.channel = grpc.insecure_channel(server.target)
        self.stub = game_service_pb2_grpc.GameServiceStub(self.channel)
        self.client = redis.Redis.from_url(redis_url)

    def keeper(self, tables=None) -> Timekeeper:
        """A replica's timekeeper on the test's clock (the service's own is off: the test's are the only ones)."""
        play = self.server.running.servicer.play
        return Timekeeper(tables or play.tables, play.seats, SHARDS, clock=self.clock)

    def sweep(self, keeper: Timekeeper) -> int:
        return on_loop(self.server, keeper.sweep())

    def shard(self, game_id: str) -> int:
        return int(self.client.hget(game_key(game_id), "shard"))

    def abandoned_at(self, game_id: str) -> int | None:
        score = self.client.zscore(abandon_key(self.shard(game_id)), game_id)
        return None if score is None else int(score)

    def state(self, game_id: str, token: str | None = None) -> pb.GameState:
        metadata = bearer(token)
        return self.stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=metadata, timeout=10).state

    def move(self, game_id: str, token: str) -> pb.GameState:
        move = self.state(game_id, token).legal_moves[0].id
        return self.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=move), metadata=bearer(token),
                                  timeout=10).state

    def toy(self) -> tuple[str, dict[int, str]]:
        """A started toy game of two anonymous humans; its id and seat tokens."""
        created = self.stub.CreateGame(pb.CreateGameRequest(
            game_type="toy", seats=[pb.SeatSpec(kind=HUMAN, name="Ann"), pb.SeatSpec(kind=HUMAN, name="Bob")],
            start=True), timeout=10)
        return created.game_id, {t.seat: t.token for t in created.seat_tokens}

    def close(self) -> None:
        self.client.close()
        self.channel.close()


@pytest.fixture
def env(redis_db_url, database_url, toy_game, monkeypatch):
    migrated(database_url)
    server = ServerThread(identity_config(redis_db_url, database_url=database_url, retention_seconds=RETENTION,
                                          timekeeper=False)).start()
    clock = virtual_time(monkeypatch, store_module.now_ms())
    env = Env(server, redis_db_url, database_url, clock)
    try:
        yield env
    finally:
        env.close()
        server.stop()


class Watcher(threading.Thread):
    """A player's WatchGame stream, read until the game is over."""

    def __init__(self, stub, game_id: str, token: str):
        super().__init__(daemon=True)
        self.updates: list[pb.WatchGameResponse] = []
        self.call = stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=bearer(token), timeout=60)

    def run(self) -> None:
        for update in self.call:
            self.updates.append(update)
            if update.event.game_over:
                return


def rows(database_url: str, sql: str, *args) -> list[tuple]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(sql, args).fetchall()


def test_an_unfinished_game_past_the_threshold_ends_abandoned_and_is_archived_once(env):
    stub, client, clock = env.stub, env.client, env.clock
    game_id, tokens = env.toy()
    clock.now += 3_600_000
    env.move(game_id, tokens[0])  # the game's last change; then nobody plays on
    last = clock.now
    assert env.abandoned_at(game_id) == last + ABANDONED_MS
    keys = (game_key(game_id), state_key(game_id), events_key(game_id))
    assert [client.ttl(k) for k in keys] == [-1, -1, -1], "kept until it is swept, however late that is"
    watcher = Watcher(stub, game_id, tokens[1])
    watcher.start()
    version = env.state(game_id).version
    wait_for(lambda: watcher.updates and watcher.updates[-1].event.version == version, "the watcher to follow")
    timekeeper = env.keeper()

    clock.now = last + ABANDONED_MS - 1
    assert env.sweep(timekeeper) == 0
    assert env.state(game_id).status == pb.GAME_STATUS_IN_PROGRESS
    clock.now += 1
    assert env.sweep(timekeeper) == 1

    final = env.state(game_id, tokens[1])
    assert (final.status, list(final.to_act), list(final.legal_moves)) == (pb.GAME_STATUS_FINISHED, [], [])
    end = final.recent_events[-1]
    assert (end.kind, end.game_over, end.version, end.time_unix_ms) == (
        pb.GameEvent.KIND_ABANDONED, True, version + 1, clock.now)
    watcher.join(30)
    seen = watcher.updates[-1]
    assert (seen.event.kind, seen.event.game_over, seen.state.status) == (
        pb.GameEvent.KIND_ABANDONED, True, pb.GAME_STATUS_FINISHED)
    score = stub.GetScore(pb.GetScoreRequest(game_id=game_id), metadata=bearer(tokens[0]), timeout=10)
    assert (score.final, list(score.ranking), score.decided_by, len(score.seats)) == (False, [], ABANDONED, 2)
    fails(C.FAILED_PRECONDITION, "GAME_OVER", stub.MakeMove,
          pb.MakeMoveRequest(game_id=game_id, move_id="card:1"), metadata=bearer(tokens[1]), timeout=10)
    assert env.abandoned_at(game_id) is None and pending(client) == 1
    clock.now += 2 * CLAIM_MS
    assert env.sweep(timekeeper) == 0 and pending(client) == 1, "ended once"

    archive_all(env.redis_url, env.database_url)
    archive_all(env.redis_url, env.database_url)
    assert archived(env.database_url) == [game_id] and pending(client) == 0
    assert all(0 < client.ttl(k) <= RETENTION for k in (game_key(game_id), state_key(game_id), log_key(game_id)))
    (row,) = rows(env.database_url, "SELECT outcome, ranking, score, decided_by, final_version, rated, "
                                    "extract(epoch FROM ended_at) * 1000 FROM games")
    assert row[:6] == ("abandoned", [], {}, ABANDONED, version + 1, False) and int(row[6]) == clock.now - 2 * CLAIM_MS
    assert rows(env.database_url, "SELECT seat, total, place FROM game_seats ORDER BY seat") == [(0, 0, 0), (1, 0, 0)]
    (log,) = rows(env.database_url, "SELECT events FROM game_logs")
    assert [e.fields["kind"] for e in unpack_log(bytes(log[0]))][-2:] == ["move", "abandoned"]

    replay = stub.GetReplay(pb.GetReplayRequest(game_id=game_id), metadata=bearer(tokens[0]), timeout=10)
    assert (replay.game.outcome, list(replay.game.ranking), replay.game.decided_by) == (
        pb.GAME_OUTCOME_ABANDONED, [], ABANDONED)
    assert [(s.total, s.place) for s in replay.game.seats] == [(0, 0), (0, 0)]
    assert [step.event.version for step in replay.steps] == list(range(1, version + 2))
    assert (replay.steps[-1].event.kind, replay.steps[-1].status) == (pb.GameEvent.KIND_ABANDONED,
                                                                      pb.GAME_STATUS_FINISHED)
    assert replay.steps[-2].status == pb.GAME_STATUS_IN_PROGRESS and len(replay.steps[-1].seat_views) == 2
    assert (replay.score.final, list(replay.score.ranking), replay.score.decided_by) == (False, [], ABANDONED)


def test_a_game_with_recent_activity_is_not_abandoned_and_only_started_games_are_kept_for_it(env):
    client, clock = env.client, env.clock
    game_id, tokens = env.toy()
    first = env.abandoned_at(game_id)
    clock.now += 6 * DAY_MS
    env.move(game_id, tokens[0])
    moved = clock.now
    timekeeper = env.keeper()
    clock.now = first + 1  # past the time it would have been abandoned at, had it not moved
    assert env.sweep(timekeeper) == 0
    assert env.state(game_id).status == pb.GAME_STATUS_IN_PROGRESS
    assert env.abandoned_at(game_id) == moved + ABANDONED_MS

    # An entry that says the game is due when its last change is recent (an older release's replica committed a
    # change without moving it): the game's own last change decides, and the entry goes back to its true time.
    client.zadd(abandon_key(env.shard(game_id)), {game_id: 0})
    assert env.sweep(timekeeper) == 1
    assert env.state(game_id).status == pb.GAME_STATUS_IN_PROGRESS
    assert env.abandoned_at(game_id) == moved + ABANDONED_MS

    # A move that lands after the sweeper read the game and before its end commit: the end loses the
    # compare-and-set, and the game, read again, is active.
    clock.now = moved + ABANDONED_MS
    play = env.server.running.servicer.play
    load = play.tables.load
    raced = []

    async def read_then_a_player_moves(*args):
        table = await load(*args)
        if not raced:
            raced.append(True)
            move = table.game.legal_moves(table.state, 1)[0]
            await play.make_move(game_id, Credentials(tokens[1]), move.id, None, "")
        return table

    play.tables.load = read_then_a_player_moves
    try:
        assert env.sweep(timekeeper) == 1
    finally:
        play.tables.load = load
    assert raced and env.state(game_id).status == pb.GAME_STATUS_IN_PROGRESS
    assert env.abandoned_at(game_id) == clock.now + ABANDONED_MS and pending(client) == 0

    # A game not started yet is not kept for the sweep (it expires as before); a finished one leaves the set.
    waiting = env.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=HUMAN)]), timeout=10).game_id
    assert env.abandoned_at(waiting) is None and 0 < client.ttl(game_key(waiting)) <= ABANDONED_MS // 1000
    env.stub.Resign(pb.ResignRequest(game_id=game_id), metadata=bearer(tokens[0]), timeout=10)
    assert env.abandoned_at(game_id) is None and pending(client) == 1
    clock.now += 30 * DAY_MS
    assert env.sweep(timekeeper) == 0
    archive_all(env.redis_url, env.database_url)
    assert rows(env.database_url, "SELECT outcome FROM games") == [("finished",)]


class Racing:
    """The service's Tables for two timekeepers that each read the game before either commits (two replicas both
    sweeping a shard: one whose lease ran out mid-sweep, and the next holder)."""

    def __init__(self, tables, readers: int):
        self.tables = tables
        self.store = tables.store
        self.waiting = readers
        self.all_read = asyncio.Event()

    async def load(self, *args):
        table = await self.tables.load(*args)
        self.waiting -= 1
        if self.waiting <= 0:
            self.all_read.set()
        await self.all_read.wait()
        return table


def test_two_sweepers_racing_end_a_game_once(env):
    client, clock = env.client, env.clock
    game_id, _ = env.toy()
    clock.now = env.abandoned_at(game_id)
    shard, now = env.shard(game_id), clock.now

    async def race():
        tables = Racing(env.server.running.servicer.play.tables, 2)
        first, second = env.keeper(tables), env.keeper(tables)
        return await asyncio.gather(first.abandon(shard, game_id, now, now + CLAIM_MS),
                                    second.abandon(shard, game_id, now, now + CLAIM_MS))

    assert sorted(on_loop(env.server, race())) == ["abandoned", "over"]
    events = [e.event for e in env.stub.WatchGame(pb.WatchGameRequest(game_id=game_id), timeout=10)]
    assert [e.kind for e in events].count(pb.GameEvent.KIND_ABANDONED) == 1 and events[-1].game_over
    assert pending(client) == 1

    # Two replicas sweeping at once: one holds the shard's lease and ends the game, the other claims nothing.
    other, _ = env.toy()
    clock.now = env.abandoned_at(other)
    first, second = env.keeper(), env.keeper()

    async def both():
        return await asyncio.gather(first.sweep(), second.sweep())

    assert sorted(on_loop(env.server, both())) == [0, 1]
    assert env.state(other).status == pb.GAME_STATUS_FINISHED and pending(client) == 2
    archive_all(env.redis_url, env.database_url)
    assert archived(env.database_url) == sorted([game_id, other])
    assert rows(env.database_url, "SELECT DISTINCT outcome FROM games") == [("abandoned",)]


def test_an_abandoned_rated_game_moves_no_rating_and_is_listed_as_abandoned(env):
    stub, clock = env.stub, env.clock
    created = stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)], rated=True),
        metadata=bearer(alice()), timeout=10)
    game_id = created.game_id
    stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(bob()), timeout=10)
    stub.StartGame(pb.StartGameRequest(game_id=game_id), metadata=bearer(alice()), timeout=10)
    env.move(game_id, alice())  # Alice has committed a card, Bob never does
    clock.now = env.abandoned_at(game_id)
    assert env.sweep(env.keeper()) == 1
    archive_all(env.redis_url, env.database_url)
    assert rows(env.database_url, "SELECT rated, outcome, ranking FROM games") == [(True, "abandoned", [])]
    assert rows(env.database_url, "SELECT count(*) FROM rating_changes") == [(0,)]
    assert rows(env.database_url, "SELECT count(*) FROM ratings") == [(0,)]
    ratings = stub.GetRatings(pb.GetRatingsRequest(player_id="alice"), timeout=10)
    assert list(ratings.ratings) == []
    listed = stub.ListFinishedGames(pb.ListFinishedGamesRequest(), metadata=bearer(alice()), timeout=10).games
    assert [(g.game_id, g.outcome, list(g.ranking), [s.place for s in g.seats]) for g in listed] == [
        (game_id, pb.GAME_OUTCOME_ABANDONED, [], [0, 0])]


def test_a_sweeper_killed_midway_loses_nothing(env):
    """A replica dies after it claimed an abandoned game and before its end commit: the game waits, in Redis and
    in the set, until the claim runs out, and the next holder of the shard ends it, once."""
    client, clock = env.client, env.clock
    game_id, tokens = env.toy()
    due = env.abandoned_at(game_id)
    clock.now = due
    play = env.server.running.servicer.play

    class Hangs:
        store = play.tables.store

        async def load(self, *args):
            await asyncio.Event().wait()  # never: the process dies here

    dying = env.keeper(Hangs())
    sweeping = asyncio.run_coroutine_threadsafe(dying.sweep(), env.server.loop)
    wait_for(lambda: env.abandoned_at(game_id) == due + CLAIM_MS, "the dying replica to claim the game")
    sweeping.cancel()  # killed: no end commit, no lease handed back
    assert env.state(game_id).status == pb.GAME_STATUS_IN_PROGRESS and pending(client) == 0
    assert client.ttl(game_key(game_id)) == -1
    client.delete(timekeeper_key(env.shard(game_id)))  # its lease runs out (LEASE_MS)

    heir = env.keeper()
    clock.now = due + CLAIM_MS - 1
    assert env.sweep(heir) == 0, "claimed by the dead replica until the claim runs out"
    clock.now += 1
    assert env.sweep(heir) == 1
    final = env.state(game_id, tokens[0])
    assert final.status == pb.GAME_STATUS_FINISHED and final.recent_events[-1].kind == pb.GameEvent.KIND_ABANDONED
    archive_all(env.redis_url, env.database_url)
    assert archived(env.database_url) == [game_id]


def test_without_a_database_an_unfinished_game_expires_as_before_and_is_never_swept(redis_db_url, toy_game):
    server = ServerThread(service_config(redis_db_url, ai_job_shards=SHARDS, timekeeper=False)).start()
    channel = grpc.insecure_channel(server.target)
    client = redis.Redis.from_url(redis_db_url)
    try:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        game_id = stub.CreateGame(pb.CreateGameRequest(
            game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=HUMAN)], start=True),
            timeout=10).game_id
        shard = int(client.hget(game_key(game_id), "shard"))
        assert 0 < client.ttl(game_key(game_id)) <= ABANDONED_MS // 1000
        assert 0 < client.ttl(events_key(game_id)) <= ABANDONED_MS // 1000
        assert client.zscore(abandon_key(shard), game_id) is None
        play = server.running.servicer.play
        keeper = Timekeeper(play.tables, play.seats, SHARDS, clock=Clock(store_module.now_ms() + 30 * DAY_MS))
        assert on_loop(server, keeper.sweep()) == 0
        state = stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state
        assert state.status == pb.GAME_STATUS_IN_PROGRESS
    finally:
        client.close()
        channel.close()
        server.stop()


def test_on_a_redis_cluster_abandoned_games_of_every_shard_are_ended_and_archived_once(database_url, toy_game,
                                                                                       monkeypatch):
    """The abandonment set is in its shard's slot, as the game's keys are: the commits that keep it, the claim (with
    the lease and the deadlines) and the end commit each touch one slot, on whichever master holds it."""
    import redis.cluster

    from service.archive import db
    from service.archive.writer import Writer
    from tests.cluster_fixture import LocalCluster

    migrated(database_url)
    shards = 16
    cluster = LocalCluster(masters=3).start()
    server = None
    client = redis.cluster.RedisCluster.from_url(cluster.url)
    try:
        server = ServerThread(service_config(cluster.url, redis_cluster=True, ai_job_shards=shards,
                                             database_url=database_url, timekeeper=False)).start()
        clock = virtual_time(monkeypatch, store_module.now_ms())
        with grpc.insecure_channel(server.target) as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            ids = [stub.CreateGame(pb.CreateGameRequest(
                game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=HUMAN)], start=True),
                timeout=10).game_id for _ in range(12)]
            on = {g: int(client.hget(game_key(g), "shard")) for g in ids}
            assert len({client.keyslot(game_key(g)) for g in ids}) > 1, "games on several slots"
            due = {g: int(client.zscore(abandon_key(on[g]), g)) for g in ids}
            play = server.running.servicer.play
            keeper = Timekeeper(play.tables, play.seats, shards, clock=clock)
            clock.now = max(due.values())
            assert on_loop(server, keeper.sweep()) == len(ids)
            assert on_loop(server, keeper.sweep()) == 0
            states = [stub.GetState(pb.GetStateRequest(game_id=g), timeout=10).state for g in ids]
            assert {(s.status, s.recent_events[-1].kind) for s in states} == {
                (pb.GAME_STATUS_FINISHED, pb.GameEvent.KIND_ABANDONED)}
        pool = db.open_pool(database_url)
        pool.open()
        try:
            writer = Writer(client, pool, shards=shards, retention_seconds=RETENTION, poll_seconds=0.05, cluster=True)
            writer.create_groups()
            while writer.step(block=False):
                pass
        finally:
            pool.close()
        assert archived(database_url) == sorted(ids)
        assert rows(database_url, "SELECT DISTINCT outcome FROM games") == [("abandoned",)]
    finally:
        if server is not None:
            server.stop()
        client.close()
        cluster.stop()


def test_a_game_kept_for_the_sweep_when_the_database_is_turned_off_is_still_ended_and_then_expires(env):
    """The set is read whether or not there is a database: a game a service with a database kept (no expiry) is
    ended when due by a service that has none now, and then expires after the retention, not archived."""
    client, clock = env.client, env.clock
    game_id, _ = env.toy()
    clock.now = env.abandoned_at(game_id)
    store = env.server.running.servicer.play.tables.store
    store.archive = False  # restarted without TABLETOP_DATABASE_URL
    assert env.sweep(env.keeper()) == 1
    assert env.state(game_id).recent_events[-1].kind == pb.GameEvent.KIND_ABANDONED
    assert env.abandoned_at(game_id) is None and pending(client) == 0
    assert all(0 < client.ttl(k) <= RETENTION for k in (game_key(game_id), state_key(game_id), log_key(game_id)))
