"""How a game is stored (docs/benchmarks.md, "How a game is stored"): small hash fields so Redis keeps the hash
compact, a finished game's events compacted into one log that WatchGame, GetState and retries read once the stream
has gone, and a replica's copy of a game that never answers for the stored game."""

from __future__ import annotations

import random

import grpc
import pytest
import redis

from service.store import STREAM_LINGER_SECONDS, events_key, game_key, log_key, read_stored, requests_key, state_key
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, Api, ServerThread, service_config
from tests.service.test_concurrency import _toy


def _finish(api, game_id: str, tokens: dict[int, str], rng: random.Random) -> list[pb.MakeMoveResponse]:
    """Play to the end with request ids; the answers in order."""
    answers = []
    while (spectator := api.state(game_id)).status != pb.GAME_STATUS_FINISHED:
        seat = rng.choice(list(spectator.to_act))
        mine = api.state(game_id, tokens[seat])
        answers.append(api.move(game_id, tokens[seat], rng.choice(list(mine.legal_moves)).id,
                                expected_version=mine.version, request_id=f"r{mine.version}"))
    return answers


def _watch(api, game_id: str, token: str | None, from_version: int = 0) -> list[bytes]:
    request = pb.WatchGameRequest(game_id=game_id, from_version=from_version)
    return [r.SerializeToString() for r in api.stub.WatchGame(request, metadata=api.auth(token), timeout=30)]


@pytest.fixture
def client(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def test_a_finished_game_is_its_hash_state_and_log_once_the_stream_has_gone(api, client):
    game_id, tokens = _toy(api, (HUMAN, HUMAN, HUMAN))
    answers = _finish(api, game_id, tokens, random.Random(7))
    record, events = read_stored(client, game_id)
    assert record.status == "finished" and [e.version for e in events] == list(range(1, record.version + 1))
    assert client.object("encoding", game_key(game_id)) == b"listpack"  # every field small
    assert 0 < client.ttl(events_key(game_id)) <= STREAM_LINGER_SECONDS  # kept a moment for live watchers
    assert client.ttl(log_key(game_id)) == client.ttl(state_key(game_id)) == client.ttl(game_key(game_id)) > 3600
    watched = {v: _watch(api, game_id, tokens[1], v) for v in (0, 3, record.version - 1)}
    state = api.state(game_id, tokens[1])
    retry = pb.MakeMoveRequest(game_id=game_id, move_id="whatever", request_id=f"r{record.version - 1}")
    last_mover = api.auth(tokens[int(events[-1].get("seat"))])
    first = api.stub.MakeMove(retry, metadata=last_mover)

    client.delete(events_key(game_id))  # as it expires: the log holds every event

    assert read_stored(client, game_id) == (record, events)
    for version, responses in watched.items():  # WatchGame from any version: the same updates, byte for byte
        assert _watch(api, game_id, tokens[1], version) == responses
        assert len(responses) == record.version - version
    assert api.state(game_id, tokens[1]) == state  # recent events from the log
    again = api.stub.MakeMove(retry, metadata=last_mover)
    assert again == first == answers[-1]  # a retry of the last move still gets its first answer


def test_request_ids_are_kept_while_a_retry_can_come_and_then_a_retry_is_a_new_request(api, client):
    game_id, tokens = _toy(api)
    state = api.state(game_id, tokens[0])
    seat = state.to_act[0]
    mine = api.state(game_id, tokens[seat])
    first = api.move(game_id, tokens[seat], mine.legal_moves[0].id, request_id="once")
    assert 0 < client.ttl(requests_key(game_id)) <= 600  # TABLETOP_REQUEST_ID_SECONDS after the last request
    assert api.move(game_id, tokens[seat], mine.legal_moves[0].id, request_id="once") == first
    client.delete(requests_key(game_id))  # as it expires: the id is new again, judged like any move
    with pytest.raises(grpc.RpcError) as refused:
        api.move(game_id, tokens[seat], mine.legal_moves[0].id, request_id="once", expected_version=mine.version)
    assert refused.value.code() == grpc.StatusCode.ABORTED


def test_a_replica_s_stale_copy_of_a_game_never_answers_for_the_stored_game(api, redis_url):
    other = ServerThread(service_config(redis_url)).start()
    channel = grpc.insecure_channel(other.target)
    try:
        replica = Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
        created = api.create("hinode", [HUMAN, HUMAN], start=True)
        game_id, tokens = created.game_id, {t.seat: t.token for t in created.seat_tokens}
        rng = random.Random(3)
        for i in range(8):
            # The player reads one replica and moves through the other, whose copy is a move or two behind.
            told, via = (api, replica) if i % 2 else (replica, api)
            seat = rng.choice(list(told.state(game_id).to_act))
            mine = told.state(game_id, tokens[seat])
            move = rng.choice(list(mine.legal_moves)).id
            moved = via.move(game_id, tokens[seat], move, expected_version=mine.version)
            assert moved.version == mine.version + 1
            assert moved.state.view == told.state(game_id, tokens[seat]).view
            # The same move on the version the player read is stale now, whichever copy a replica holds.
            for each in (api, replica):
                with pytest.raises(grpc.RpcError) as refused:
                    each.move(game_id, tokens[seat], move, expected_version=mine.version)
                assert refused.value.code() == grpc.StatusCode.ABORTED
        assert api.state(game_id).version == replica.state(game_id).version == created.state.version + 8
    finally:
        channel.close()
        other.stop()
