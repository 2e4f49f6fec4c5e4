"""Bounded memory (issue 14): Redis runs with a `maxmemory` and `noeviction`, and a full store answers
RESOURCE_EXHAUSTED (STORE_FULL), never a half-written game. The test starts its own small Redis (2 MB) and a real
game service on it, fills it by creating games until CreateGame is refused, then checks every game in Redis."""

from __future__ import annotations

import grpc
import pytest
import redis

from service.errors import error_info
from service.store import events_key, game_key, read_stored
from tabletop.stack.embedded_redis import EmbeddedRedis
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, OPEN, ServerThread, service_config

MAXMEMORY = 2 * 1024 * 1024
FULL = grpc.StatusCode.RESOURCE_EXHAUSTED

pytestmark = pytest.mark.integration  # small_redis starts a Redis of its own


@pytest.fixture
def small_redis(tmp_path):
    server = EmbeddedRedis(directory=tmp_path / "redis", appendonly=False, maxmemory="2mb").start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture
def stub(small_redis, toy_game):
    thread = ServerThread(service_config(small_redis.url)).start()
    channel = grpc.insecure_channel(thread.target)
    yield game_service_pb2_grpc.GameServiceStub(channel)
    channel.close()
    thread.stop()


def store_full(error: grpc.RpcError) -> bool:
    info = error_info(error)
    return error.code() == FULL and info is not None and info.reason == "STORE_FULL"


def check_whole(client: redis.Redis, game_id: str) -> int:
    """The game's hash and its events agree: events 1..version, contiguous; return the version."""
    record, events = read_stored(client, game_id)
    version = record.version
    versions = [e.version for e in events]
    assert versions == list(range(1, version + 1)), (game_id, version, versions)
    assert record.status in ("waiting", "in_progress", "finished")
    assert (record.state is not None) == (record.status != "waiting"), game_id
    return version


def test_the_embedded_redis_is_bounded_with_noeviction(small_redis, monkeypatch):
    client = redis.Redis(port=small_redis.port)
    assert int(client.config_get("maxmemory")["maxmemory"]) == MAXMEMORY
    assert client.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
    client.close()
    monkeypatch.delenv("TABLETOP_REDIS_MAXMEMORY", raising=False)
    default = EmbeddedRedis(appendonly=False)
    assert default.maxmemory == "512mb"  # make run's
    default.cleanup()
    monkeypatch.setenv("TABLETOP_REDIS_MAXMEMORY", "3mb")
    configured = EmbeddedRedis(appendonly=False).start()
    client = redis.Redis(port=configured.port)
    assert int(client.config_get("maxmemory")["maxmemory"]) == 3 * 1024 * 1024
    client.close()
    configured.cleanup()


def test_a_full_store_refuses_cleanly_and_keeps_every_acknowledged_game(small_redis, stub):
    client = redis.Redis(port=small_redis.port)
    playing = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2, start=True))
    token = playing.seat_tokens[0].token
    acknowledged: dict[str, int] = {}  # game id -> the version its answer showed
    refusal = None
    for i in range(50_000):
        public = pb.VISIBILITY_PUBLIC if i % 2 else pb.VISIBILITY_PRIVATE
        request = pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)],
                                       start=i % 3 == 0, visibility=public)
        try:
            created = stub.CreateGame(request, timeout=10)
        except grpc.RpcError as error:
            refusal = error
            break
        acknowledged[created.game_id] = created.state.version
    assert refusal is not None, "2 MB never filled"
    assert store_full(refusal), (refusal.code(), refusal.details(), error_info(refusal))
    assert "full" in refusal.details()
    assert len(acknowledged) >= 20

    # A move on the full store is refused too, and changes nothing.
    before = client.hgetall(game_key(playing.game_id)), client.xlen(events_key(playing.game_id))
    move = pb.MakeMoveRequest(game_id=playing.game_id, move_id=api_move(stub, playing.game_id, token),
                              request_id="move-on-a-full-store")
    with pytest.raises(grpc.RpcError) as caught:
        stub.MakeMove(move, metadata=[("authorization", f"Bearer {token}")])
    assert store_full(caught.value), (caught.value.code(), caught.value.details())
    assert (client.hgetall(game_key(playing.game_id)), client.xlen(events_key(playing.game_id))) == before

    # Every game in Redis is whole (an unacknowledged one too: a CreateGame with start may have created the game
    # and then been refused the start), and every acknowledged one reads as it was answered.
    game_ids = {key.decode()[len("game:{"):-1] for key in client.scan_iter("game:{*}", count=1000)}
    assert set(acknowledged) <= game_ids
    for game_id in game_ids:
        check_whole(client, game_id)
    for game_id, version in acknowledged.items():
        assert check_whole(client, game_id) == version
        assert stub.GetState(pb.GetStateRequest(game_id=game_id)).state.version == version
    sample = list(acknowledged.items())[:: max(1, len(acknowledged) // 20)]
    for game_id, version in sample:
        stream = stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=0), timeout=10)
        seen = [next(stream).event.version for _ in range(version)]
        stream.cancel()
        assert seen == list(range(1, version + 1))

    # Room again (this test's own Redis): the same service takes writes at once, the retried move included.
    client.config_set("maxmemory", str(64 * MAXMEMORY))
    moved = stub.MakeMove(move, metadata=[("authorization", f"Bearer {token}")])
    assert moved.state.version == int(before[0][b"version"]) + 1
    created = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2))
    check_whole(client, created.game_id)
    client.close()


def api_move(stub, game_id: str, token: str) -> str:
    state = stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=[("authorization", f"Bearer {token}")])
    return state.state.legal_moves[0].id
