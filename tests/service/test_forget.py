"""`tabletop forget-player` (issue 27 item 7, docs/archive.md *Forgetting a player*): after it, the player's id and
name are nowhere, neither in any table of the archive nor in any Redis key, while the other players' histories,
replays and ratings are as they were. Real Redis and PostgreSQL started by the tests; games played through the
service by signed-in players and archived by the real writer; the command run as a process."""

from __future__ import annotations

import dataclasses
import os
import secrets
import subprocess
import sys
import zlib

import grpc
import psycopg
import pytest
import redis

from service.archive.forget import PSEUDONYM_PREFIX, games_in_redis, unbind_in_redis, unbound_fields
from service.mine import player_games_key
from service.store import (
    GAME_KEYS,
    GameRecord,
    SeatRecord,
    events_key,
    game_id_of_key,
    game_key,
    read_stored,
    requests_key,
    seat_fields,
    state_key,
)
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, OPEN, ServerThread
from tests.service.test_archive import migrated, wait_for
from tests.service.test_history import archive_all, bearer, identity_config
from tests.service.test_identity import mint

ZELDA = "zelda-" + secrets.token_hex(4)  # the player who asks to be forgotten: an id and a name found nowhere else
ZELDA_NAME = "Zelda Quuxley"


def zelda() -> str:
    return mint(ZELDA, name=ZELDA_NAME)


def bob() -> str:
    return mint("bob", name="Bob")


def carol() -> str:
    return mint("carol", name="Carol")


@pytest.fixture
def service(redis_db_url, database_url, toy_game):
    thread = ServerThread(identity_config(redis_db_url, database_url=database_url)).start()
    channel = grpc.insecure_channel(thread.target)
    migrated(database_url)
    yield game_service_pb2_grpc.GameServiceStub(channel)
    channel.close()
    thread.stop()


def new_game(stub, creator, joiner, *, rated: bool = True, visibility=pb.VISIBILITY_PRIVATE) -> tuple[str, dict]:
    created = stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)], rated=rated, visibility=visibility),
        metadata=bearer(creator()), timeout=10)
    stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(joiner()), timeout=10)
    stub.StartGame(pb.StartGameRequest(game_id=created.game_id), metadata=bearer(creator()), timeout=10)
    return created.game_id, {0: creator, 1: joiner}


def play(stub, game_id: str, players: dict, moves: int | None = None) -> None:
    """Play the toy game (to its end, or `moves` moves), each seat by its player's identity."""
    state = stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state
    while state.status != pb.GAME_STATUS_FINISHED and moves != 0:
        seat = state.to_act[0]
        mine = stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=bearer(players[seat]()), timeout=10).state
        state = stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=sorted(m.id for m in mine.legal_moves)[0]),
                              metadata=bearer(players[seat]()), timeout=10).state
        moves = None if moves is None else moves - 1


def forget(redis_url: str, database_url: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, TABLETOP_REDIS_URL=redis_url, TABLETOP_DATABASE_URL=database_url)
    return subprocess.run([sys.executable, "-m", "commands.cli", "forget-player", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def found_in_archive(database_url: str, needles: tuple[str, ...]) -> list[str]:
    """Every place of every table (every column, as text; a log decompressed) where a needle occurs."""
    hits = []
    with psycopg.connect(database_url) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")]
        assert {"games", "game_seats", "game_logs", "ratings", "rating_changes"} <= set(tables)
        for table in tables:
            columns = conn.execute("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                   "table_name = %s ORDER BY ordinal_position", (table,)).fetchall()
            for row in conn.execute(f"SELECT * FROM {table}"):  # noqa: S608 - the schema's own table names
                for (column, kind), value in zip(columns, row, strict=True):
                    text = zlib.decompress(bytes(value)).decode() if kind == "bytea" else str(value)
                    hits += [f"{table}.{column}: {needle}" for needle in needles if needle in text]
    return hits


def found_in_redis(client: redis.Redis, needles: tuple[str, ...]) -> list[str]:
    """Every key of Redis whose name or value (any type; compressed strings decompressed) holds a needle."""
    hits = []
    for key in client.scan_iter(count=1000):
        kind = client.type(key).decode()
        if kind == "string":
            values = [client.get(key)]
        elif kind == "hash":
            values = [k + b"=" + v for k, v in client.hgetall(key).items()]
        elif kind == "stream":
            values = [b"%s" % repr(fields).encode() for _, fields in client.xrange(key)]
        elif kind == "zset":
            values = client.zrange(key, 0, -1)
        elif kind == "set":
            values = list(client.smembers(key))
        else:
            values = [repr(client.dump(key)).encode()]
        texts = [key.decode()]
        for value in values:
            try:
                texts.append(zlib.decompress(value).decode(errors="replace"))
            except zlib.error:
                texts.append(value.decode(errors="replace"))
        hits += [f"{key.decode()}: {needle}" for needle in needles for text in texts if needle in text]
    return hits


def snapshot(database_url: str, exclude: str) -> dict:
    """The ratings and rating changes of every key but `exclude` and the pseudonyms."""
    with psycopg.connect(database_url) as conn:
        return {
            "ratings": conn.execute("SELECT player_key, game_type, mu, sigma, games FROM ratings "
                                    "WHERE player_key <> %s AND player_key NOT LIKE 'forgotten:%%' ORDER BY 1, 2",
                                    (exclude,)).fetchall(),
            "changes": conn.execute("SELECT game_id, seat, player_key, mu_before, sigma_before, mu_after, "
                                    "sigma_after FROM rating_changes WHERE player_key <> %s AND player_key NOT LIKE "
                                    "'forgotten:%%' ORDER BY 1, 2",
                                    (exclude,)).fetchall(),
        }


def test_a_forgotten_player_is_nowhere_and_the_others_keep_their_games_replays_and_ratings(
        service, redis_db_url, database_url):
    stub = service
    archived_rated, players = new_game(stub, zelda, bob)  # rated, played and archived
    play(stub, archived_rated, players)
    archived_public, players = new_game(stub, bob, zelda, rated=False, visibility=pb.VISIBILITY_PUBLIC)
    play(stub, archived_public, players, moves=1)
    # She resigns it: "Zelda Quuxley resigned" is in the score's text (games.decided_by, games.score).
    stub.Resign(pb.ResignRequest(game_id=archived_public), metadata=bearer(zelda()), timeout=10)
    archive_all(redis_db_url, database_url)
    waiting, players = new_game(stub, carol, zelda)  # finished, not archived yet
    play(stub, waiting, players)
    live, live_players = new_game(stub, zelda, bob)  # still being played
    play(stub, live, live_players, moves=2)
    needles = (ZELDA, ZELDA_NAME)
    client = redis.Redis.from_url(redis_db_url)
    assert found_in_archive(database_url, needles) and found_in_redis(client, needles)
    assert {"games.decided_by: Zelda Quuxley", "games.score: Zelda Quuxley"} <= set(
        found_in_archive(database_url, needles))
    before = snapshot(database_url, ZELDA)
    bob_replay = stub.GetReplay(pb.GetReplayRequest(game_id=archived_rated), metadata=bearer(bob()), timeout=10)

    # Without --yes: says what it would do, changes nothing.
    dry = forget(redis_db_url, database_url, ZELDA)
    assert dry.returncode == 0, dry.stderr
    assert "would forget" in dry.stdout and "run again with --yes" in dry.stdout
    assert "archived games anonymised: 2 (2 seats" in dry.stdout and "games in Redis unbound: 4" in dry.stdout
    assert snapshot(database_url, "") != snapshot(database_url, ZELDA)  # Zelda's rating is still there

    done = forget(redis_db_url, database_url, ZELDA, "--yes")
    assert done.returncode == 0, done.stderr
    assert "forgot player" in done.stdout and "ratings removed: 1" in done.stdout
    assert not found_in_archive(database_url, needles)
    assert not found_in_redis(client, needles)
    assert not client.exists(player_games_key(ZELDA))
    assert snapshot(database_url, ZELDA) == before  # the others' ratings and rating changes, exactly
    with psycopg.connect(database_url) as conn:
        seats = conn.execute("SELECT game_id, seat, player_id, name FROM game_seats WHERE player_id LIKE %s "
                             "ORDER BY game_id", (PSEUDONYM_PREFIX + "%",)).fetchall()
        changes = conn.execute("SELECT game_id, player_key FROM rating_changes WHERE player_key LIKE %s",
                               (PSEUDONYM_PREFIX + "%",)).fetchall()
    assert sorted(g for g, *_ in seats) == sorted([archived_rated, archived_public])
    assert len({p for _, _, p, _ in seats}) == 2, "a pseudonym per game: the games cannot be linked to each other"
    assert {(g, s, n) for g, s, _, n in seats} == {(archived_rated, 0, "Player 1"), (archived_public, 1, "Player 2")}
    assert changes == [(archived_rated, next(p for g, _, p, _ in seats if g == archived_rated))]

    # Bob's history and replay still work, with the seat anonymised and every move as it was.
    page = stub.ListFinishedGames(pb.ListFinishedGamesRequest(), metadata=bearer(bob()), timeout=10)
    assert sorted(g.game_id for g in page.games) == sorted([archived_rated, archived_public])
    replay = stub.GetReplay(pb.GetReplayRequest(game_id=archived_rated), metadata=bearer(bob()), timeout=10)
    assert [(s.event.seat, s.event.move_id) for s in replay.steps] == [
        (s.event.seat, s.event.move_id) for s in bob_replay.steps]
    assert [s.name for s in replay.game.seats] == ["Player 1", "Bob"]
    assert list(replay.game.ranking) == list(bob_replay.game.ranking)
    # A public game's replay is anyone's, still.
    assert stub.GetReplay(pb.GetReplayRequest(game_id=archived_public), timeout=10).game.game_id == archived_public

    # The live game goes on: Bob plays on, the unbound seat is no longer Zelda's to play by her identity.
    state = stub.GetState(pb.GetStateRequest(game_id=live), timeout=10).state
    assert [s.name for s in state.seats][0] == "Player 1"
    with pytest.raises(grpc.RpcError) as refused:
        stub.MakeMove(pb.MakeMoveRequest(game_id=live, move_id="x"), metadata=bearer(zelda()), timeout=10)
    assert refused.value.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.FAILED_PRECONDITION)
    # The game that waited for the archive is archived without her; nothing of hers comes back.
    archive_all(redis_db_url, database_url)
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT player_id, name FROM game_seats WHERE game_id = %s ORDER BY seat",
                            (waiting,)).fetchall() == [("carol", "Carol"), (None, "Player 2")]
    assert not found_in_archive(database_url, needles) and not found_in_redis(client, needles)

    # Again: nothing left to do, nothing changed.
    after = snapshot(database_url, "")
    again = forget(redis_db_url, database_url, ZELDA, "--yes")
    assert again.returncode == 0 and "nothing holds player" in again.stdout and "nothing changed" in again.stdout
    assert snapshot(database_url, "") == after
    client.close()


def test_a_game_key_gives_back_its_game_id_and_no_other_key_gives_one():
    for game_id in ("Ab3-_x9ZQ", "game0000xyz", "a"):
        assert game_id_of_key(game_key(game_id)) == game_id == game_id_of_key(game_key(game_id).encode())
    for other in (events_key("abc"), state_key("abc"), requests_key("abc"), "tabletop:player:{abc}:games", ""):
        with pytest.raises(ValueError):
            game_id_of_key(other)


def test_unbinding_rewrites_the_hash_as_the_store_lays_it_out():
    """unbound_fields applied to a hash the store's own seat_fields wrote: read back by GameRecord.from_hash, the
    player's seats are unbound and renamed, the other seats and the tokens are as they were."""
    seats = (SeatRecord("human", ZELDA_NAME, token_hash="t0", player_id=ZELDA), SeatRecord("ai", "AI 2", "hard"),
             SeatRecord("human", "Bob", token_hash="t2", player_id="bob"),
             SeatRecord("human", ZELDA_NAME, state="away", misses=2, player_id=ZELDA))
    doc = {k.encode(): v.encode() for k, v in {**seat_fields(seats), "type": "toy", "creator_player": ZELDA}.items()}
    before = GameRecord.from_hash("g1", doc)
    assert before.seats == seats and before.creator_player == ZELDA
    remove, write, names = unbound_fields(before, ZELDA)
    assert names == {0: ZELDA_NAME, 3: ZELDA_NAME}
    for name in remove:
        del doc[name.encode()]
    doc.update({k.encode(): v.encode() for k, v in write.items()})
    after = GameRecord.from_hash("g1", doc)
    assert after.seats == (dataclasses.replace(seats[0], name="Player 1", player_id=""), seats[1], seats[2],
                           dataclasses.replace(seats[3], name="Player 4", player_id=""))
    assert after == dataclasses.replace(before, seats=after.seats, creator_player="")
    assert ZELDA not in repr(doc) and ZELDA_NAME not in repr(doc)
    assert unbound_fields(after, ZELDA) == ([], {}, {})


def test_a_game_the_player_s_list_misses_is_found_by_its_key_and_unbound(service, redis_db_url):
    """The SCAN of the game hashes (GAME_KEYS, game_id_of_key) finds a game the player's "my games" list no longer
    names, among the keys the service writes, and the unbinding leaves the record as the service reads it: the
    player's seat unbound, everything else as it was."""
    game_id, players = new_game(service, zelda, bob)
    state = service.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state
    seat = state.to_act[0]
    mine = service.GetState(pb.GetStateRequest(game_id=game_id), metadata=bearer(players[seat]()), timeout=10).state
    service.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=sorted(m.id for m in mine.legal_moves)[0],
                                        request_id="r1"), metadata=bearer(players[seat]()), timeout=10)
    client = redis.Redis.from_url(redis_db_url)
    try:
        assert client.exists(requests_key(game_id), events_key(game_id), state_key(game_id)) == 3
        keys = list(client.scan_iter(match=GAME_KEYS, _type="hash"))
        assert game_key(game_id).encode() in keys  # and none of the game's other keys, the requests hash included
        assert all(game_key(game_id_of_key(key)).encode() == key for key in keys)
        client.delete(player_games_key(ZELDA))
        assert games_in_redis(client, ZELDA) == [game_id]
        before, _ = read_stored(client, game_id)
        assert before.seats[0].player_id == ZELDA and before.creator_player == ZELDA

        assert unbind_in_redis(client, game_id, ZELDA) == 1
        after, _ = read_stored(client, game_id)
        assert after.seats == (dataclasses.replace(before.seats[0], name="Player 1", player_id=""), before.seats[1])
        assert after.stamp != before.stamp
        assert after == dataclasses.replace(before, seats=after.seats, creator_player="", stamp=after.stamp)
        assert games_in_redis(client, ZELDA) == [] and not found_in_redis(client, (ZELDA, ZELDA_NAME))
        assert service.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state.seats[0].name == "Player 1"
    finally:
        client.close()


def test_bad_input_is_refused_clearly_and_changes_nothing(redis_db_url, database_url, tmp_path):
    migrated(database_url)
    bad_id = forget(redis_db_url, database_url, "has space", "--yes")
    assert bad_id.returncode == 2 and "printable ASCII characters, no spaces" in bad_id.stderr
    ai = forget(redis_db_url, database_url, "ai:easy", "--yes")
    assert ai.returncode == 2 and "AI strength" in ai.stderr
    no_db = forget(redis_db_url, "", "bob", "--yes")
    assert no_db.returncode == 2 and "TABLETOP_DATABASE_URL" in no_db.stderr
    unreachable = forget(redis_db_url, "postgresql://nobody@127.0.0.1:1/none", "bob", "--yes")
    assert unreachable.returncode == 1 and "cannot use the database" in unreachable.stderr
    assert "Traceback" not in unreachable.stderr
    no_redis = forget("redis://127.0.0.1:1/0", database_url, "bob", "--yes")
    assert no_redis.returncode == 1 and "cannot use Redis" in no_redis.stderr and "Traceback" not in no_redis.stderr


def test_it_waits_for_an_archive_batch_under_way_after_unbinding_in_redis(service, redis_db_url, database_url):
    """An archive batch holds ARCHIVE_LOCK shared from its Redis reads to its commit: forget-player, which takes it
    exclusively after the Redis step, waits for such a batch, so the id cannot come back with a game archived at
    that moment."""
    from service.archive.writer import ARCHIVE_LOCK

    game_id, players = new_game(service, zelda, bob)
    play(service, game_id, players)
    archive_all(redis_db_url, database_url)
    client = redis.Redis.from_url(redis_db_url)
    batch = psycopg.connect(database_url)  # a writer's batch under way
    batch.execute("SELECT pg_advisory_xact_lock_shared(%s)", (ARCHIVE_LOCK,))
    env = dict(os.environ, TABLETOP_REDIS_URL=redis_db_url, TABLETOP_DATABASE_URL=database_url)
    proc = subprocess.Popen([sys.executable, "-m", "commands.cli", "forget-player", ZELDA, "--yes"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        def waiting_on_the_lock() -> bool:
            with psycopg.connect(database_url) as conn:
                return bool(conn.execute("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND "
                                         "wait_event_type = 'Lock' AND wait_event = 'advisory'").fetchone())

        wait_for(waiting_on_the_lock, "forget-player to wait for the batch's lock")
        assert not found_in_redis(client, (ZELDA,))  # Redis first
        assert found_in_archive(database_url, (ZELDA,))  # PostgreSQL once the batch has committed
        batch.commit()
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    finally:
        if proc.poll() is None:
            proc.kill()
        batch.close()
        client.close()
    assert not found_in_archive(database_url, (ZELDA, ZELDA_NAME))


@pytest.mark.integration  # it starts a Redis Cluster
def test_on_a_redis_cluster_the_games_are_found_on_every_master_and_unbound():
    """One SCAN per master finds the games, and each is rewritten in its slot (WATCH / MULTI on its master)."""
    import json

    import redis.cluster

    from service.store import Event, log_key, pack_log
    from tests.cluster_fixture import LocalCluster

    cluster = LocalCluster(masters=3).start()
    try:
        client = redis.cluster.RedisCluster.from_url(cluster.url)
        ids = [f"game{n:04d}xyz" for n in range(12)]  # spread over the masters' slots
        bound = {"kind": "human", "name": ZELDA_NAME, "player_id": ZELDA}
        for game_id in ids:
            client.hset(game_key(game_id), mapping={
                **seat_fields((SeatRecord("human", ZELDA_NAME, player_id=ZELDA),)), "stamp": "before"})
            client.xadd(events_key(game_id), {"kind": "joined", "seats": json.dumps([bound])}, id="2-1")
            client.set(log_key(game_id), pack_log([Event(1, {"kind": "created", "seats": json.dumps([bound])})]))
        assert len({client.keyslot(game_key(g)) for g in ids}) > 1
        assert games_in_redis(client, ZELDA) == sorted(ids)
        assert [unbind_in_redis(client, g, ZELDA) for g in ids] == [1] * len(ids)
        assert games_in_redis(client, ZELDA) == [] and not found_in_cluster(client, ids, (ZELDA, ZELDA_NAME))
        client.close()
    finally:
        cluster.stop()


def found_in_cluster(client, ids: list[str], needles: tuple[str, ...]) -> list[str]:
    from service.store import log_key

    texts = []
    for game_id in ids:
        texts.append(repr(client.hgetall(game_key(game_id))))
        texts.append(repr(client.xrange(events_key(game_id))))
        texts.append(zlib.decompress(client.get(log_key(game_id))).decode())
    return [needle for needle in needles for text in texts if needle in text]
