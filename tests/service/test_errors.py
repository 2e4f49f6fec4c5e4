"""Every failure is a gRPC status code with an ErrorInfo reason (domain tabletop.dev); bad input never INTERNAL."""

from __future__ import annotations

import random

import grpc
import pytest
import redis
from grpc_health.v1 import health_pb2

from games import registry, wire
from games.base import Game
from games.hinode.moves import ChooseArea
from games.kungfur import GAME as KUNG_FUR
from games.kungfur.moves import Lead
from service.errors import error_info
from service.store import state_key, unpack_state
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import AI, AI_TOKEN, HUMAN, OPEN, Api, ServerThread, service_config
from tests.service.test_play import play_out
from tests.support.toygame import Commit
from tests.support.waiting import health_status, wait_until

C = grpc.StatusCode


def fails(code: grpc.StatusCode, reason: str, call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        result = call(*args, **kwargs)
        if hasattr(result, "__iter__") and not hasattr(result, "DESCRIPTOR"):
            list(result)  # a stream fails when read
    error = caught.value
    info = error_info(error)
    assert (error.code(), info and info.reason) == (code, reason), error.details()
    assert info.domain == "tabletop.dev"
    return error


@pytest.fixture
def toy(api, toy_game):
    created = api.create("toy", [HUMAN, HUMAN], start=True)
    return created, {t.seat: t.token for t in created.seat_tokens}


def test_unknown_games_and_game_types(api):
    fails(C.NOT_FOUND, "GAME_NOT_FOUND", api.state, "no-such-game")
    fails(C.NOT_FOUND, "GAME_NOT_FOUND", api.stub.WatchGame, pb.WatchGameRequest(game_id="no-such-game"))
    fails(C.INVALID_ARGUMENT, "INVALID_GAME_ID", api.state, "a{b}")
    fails(C.INVALID_ARGUMENT, "INVALID_GAME_ID", api.state, "")
    fails(C.INVALID_ARGUMENT, "UNKNOWN_GAME_TYPE", api.create, "chess", [HUMAN, HUMAN])


def test_malformed_creation_requests(api, toy_game):
    fails(C.INVALID_ARGUMENT, "INVALID_OPTIONS", api.create, "toy", [HUMAN, HUMAN], options_json="{not json")
    fails(C.INVALID_ARGUMENT, "INVALID_OPTIONS", api.create, "toy", [HUMAN, HUMAN], options_json="[1]")
    fails(C.INVALID_ARGUMENT, "INVALID_OPTIONS", api.create, "toy", [HUMAN, HUMAN], options_json='{"nope": 1}')
    fails(C.INVALID_ARGUMENT, "INVALID_OPTIONS", api.create, "toy", [HUMAN, HUMAN], options_json='{"double": 3}')
    fails(C.INVALID_ARGUMENT, "INVALID_OPTIONS", api.create, "toy", [HUMAN, HUMAN],
          options_json='{"double": false, "x": "' + "y" * 20000 + '"}')
    fails(C.INVALID_ARGUMENT, "INVALID_OPTIONS", api.create, "hinode", [HUMAN, HUMAN],
          options_json='{"start_player": "seat3"}')
    fails(C.INVALID_ARGUMENT, "INVALID_SEAT_COUNT", api.create, "toy", [HUMAN])
    fails(C.INVALID_ARGUMENT, "INVALID_SEAT_COUNT", api.create, "toy", [HUMAN] * 4)
    fails(C.INVALID_ARGUMENT, "INVALID_SEAT", api.create, "toy", [HUMAN, pb.SEAT_KIND_UNSPECIFIED])
    seats = [pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=AI, strength="godlike")]
    fails(C.INVALID_ARGUMENT, "INVALID_STRENGTH", api.stub.CreateGame,
          pb.CreateGameRequest(game_type="toy", seats=seats))
    seats = [pb.SeatSpec(kind=HUMAN, name="x" * 65), pb.SeatSpec(kind=HUMAN)]
    fails(C.INVALID_ARGUMENT, "INVALID_NAME", api.stub.CreateGame, pb.CreateGameRequest(game_type="toy", seats=seats))


def test_tokens(api, toy):
    created, tokens = toy
    game_id = created.game_id
    move_id = api.state(game_id, tokens[0]).legal_moves[0].id
    request = pb.MakeMoveRequest(game_id=game_id, move_id=move_id)
    fails(C.UNAUTHENTICATED, "MISSING_TOKEN", api.stub.MakeMove, request)
    fails(C.UNAUTHENTICATED, "MALFORMED_AUTHORIZATION", api.stub.MakeMove, request,
          metadata=[("authorization", "Basic abc")])
    fails(C.UNAUTHENTICATED, "INVALID_TOKEN", api.stub.MakeMove, request, metadata=api.auth("not-a-token"))
    other = api.create("toy", [HUMAN, HUMAN], start=True)
    fails(C.UNAUTHENTICATED, "INVALID_TOKEN", api.stub.MakeMove, request, metadata=api.auth(other.seat_tokens[0].token))
    fails(C.UNAUTHENTICATED, "INVALID_TOKEN", api.state, game_id, "not-a-token")
    fails(C.PERMISSION_DENIED, "NOT_A_SEAT", api.stub.MakeMove, request, metadata=api.auth(created.creator_token))
    fails(C.PERMISSION_DENIED, "NOT_AN_AI_SEAT", api.stub.MakeMove, request, metadata=api.auth(AI_TOKEN, 0))
    fails(C.INVALID_ARGUMENT, "MISSING_SEAT", api.stub.MakeMove, request, metadata=api.auth(AI_TOKEN))
    fails(C.INVALID_ARGUMENT, "MALFORMED_SEAT", api.stub.MakeMove, request,
          metadata=[*api.auth(AI_TOKEN), ("x-tabletop-seat", "zero")])


def test_the_ai_credential_acts_for_ai_seats_only(api, toy_game):
    created = api.create("toy", [HUMAN, AI], start=True)
    state = api.state(created.game_id, AI_TOKEN, seat=1)
    assert state.your_seat == 1 and state.legal_moves
    answer = api.stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=state.legal_moves[0].id),
                               metadata=api.auth(AI_TOKEN, 1))
    assert answer.state.your_seat == 1
    fails(C.PERMISSION_DENIED, "NOT_AN_AI_SEAT", api.state, created.game_id, AI_TOKEN, 0)


def test_lobby_rules(api, toy_game):
    created = api.create("toy", [HUMAN, OPEN, OPEN])
    game_id = created.game_id
    seat_token = created.seat_tokens[0].token
    join = pb.JoinGameRequest
    fails(C.INVALID_ARGUMENT, "MALFORMED_JOIN_CODE", api.stub.JoinGame, join(join_code="nonsense"))
    fails(C.PERMISSION_DENIED, "INVALID_JOIN_CODE", api.stub.JoinGame, join(join_code=f"{game_id}.wrong"))
    fails(C.NOT_FOUND, "GAME_NOT_FOUND", api.stub.JoinGame, join(join_code="nogame.secret"))
    fails(C.FAILED_PRECONDITION, "SEAT_TAKEN", api.stub.JoinGame, join(join_code=created.join_code, seat=0))
    fails(C.INVALID_ARGUMENT, "INVALID_SEAT", api.stub.JoinGame, join(join_code=created.join_code, seat=7))
    joined = api.stub.JoinGame(join(join_code=created.join_code, name="Ann", seat=2))
    assert joined.seat == 2 and joined.state.your_seat == 2 and joined.state.seats[2].name == "Ann"
    fails(C.FAILED_PRECONDITION, "GAME_NOT_STARTED", api.move, game_id, seat_token, "card:1")
    fails(C.FAILED_PRECONDITION, "GAME_NOT_STARTED", api.stub.GetScore, pb.GetScoreRequest(game_id=game_id))
    start = pb.StartGameRequest(game_id=game_id)
    fails(C.UNAUTHENTICATED, "MISSING_TOKEN", api.stub.StartGame, start)
    fails(C.PERMISSION_DENIED, "NOT_GAME_CREATOR", api.stub.StartGame, start, metadata=api.auth(seat_token))
    started = api.stub.StartGame(start, metadata=api.auth(created.creator_token)).state
    assert [s.kind for s in started.seats] == [HUMAN, AI, HUMAN]
    fails(C.FAILED_PRECONDITION, "GAME_ALREADY_STARTED", api.stub.StartGame, start,
          metadata=api.auth(created.creator_token))
    fails(C.FAILED_PRECONDITION, "GAME_ALREADY_STARTED", api.stub.JoinGame, join(join_code=created.join_code))
    full = api.create("toy", [HUMAN, HUMAN])
    fails(C.FAILED_PRECONDITION, "NO_OPEN_SEAT", api.stub.JoinGame, join(join_code=full.join_code))


def test_illegal_moves_say_why(api, toy, toy_game):
    created, tokens = toy
    game_id = created.game_id
    state = api.state(game_id, tokens[0])
    hand = wire.view_from_any(toy_game, state.view).hand
    missing = next(c for c in range(1, 10) if c not in hand)
    error = fails(C.FAILED_PRECONDITION, "UNKNOWN_MOVE", api.move, game_id, tokens[0], f"card:{missing}")
    assert f"card:{missing}" in error.details()
    typed = wire.move_to_any(toy_game, Commit(missing))
    fails(C.FAILED_PRECONDITION, "ILLEGAL_MOVE", api.stub.MakeMove,
          pb.MakeMoveRequest(game_id=game_id, typed_move=typed), metadata=api.auth(tokens[0]))
    fails(C.INVALID_ARGUMENT, "INVALID_MOVE", api.stub.MakeMove,
          pb.MakeMoveRequest(game_id=game_id, typed_move=wire.move_to_any(registry.get("hinode"), ChooseArea(1))),
          metadata=api.auth(tokens[0]))
    fails(C.INVALID_ARGUMENT, "INVALID_MOVE", api.move, game_id, tokens[0], "")
    fails(C.INVALID_ARGUMENT, "INVALID_REQUEST_ID", api.move, game_id, tokens[0], f"card:{hand[0]}",
          request_id="r" * 129)
    fails(C.ABORTED, "VERSION_MISMATCH", api.move, game_id, tokens[0], f"card:{hand[0]}",
          expected_version=state.version - 1)
    api.move(game_id, tokens[0], f"card:{hand[0]}")
    fails(C.FAILED_PRECONDITION, "NOT_YOUR_TURN", api.move, game_id, tokens[0], f"card:{hand[1]}")
    error = fails(C.FAILED_PRECONDITION, "NOT_YOUR_TURN", api.stub.MakeMove,
                  pb.MakeMoveRequest(game_id=game_id, typed_move=wire.move_to_any(toy_game, Commit(hand[1]))),
                  metadata=api.auth(tokens[0]))
    assert "not to act" in error.details()


def test_the_rules_own_reason_for_an_illegal_move_reaches_the_caller(api, redis_url):
    """A move the rules refuse is FAILED_PRECONDITION with the engine's own words (Game.apply's reason), whether
    sent as a typed move or by an id."""
    created = api.create("kung-fur-fight", [HUMAN, HUMAN], start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    game_id = created.game_id
    client = redis.Redis.from_url(redis_url)
    try:
        state = KUNG_FUR.load_state(unpack_state(client.get(state_key(game_id))))
    finally:
        client.close()
    legal = KUNG_FUR.legal_moves(state, 0)
    absent = next(Lead(0, card) for card in range(64) if Lead(0, card) not in legal)
    why = KUNG_FUR.why_illegal(state, 0, absent)
    assert why != Game.why_illegal(KUNG_FUR, state, 0, absent), "the game says more than the base's default"
    error = fails(C.FAILED_PRECONDITION, "ILLEGAL_MOVE", api.stub.MakeMove,
                  pb.MakeMoveRequest(game_id=game_id, typed_move=wire.move_to_any(KUNG_FUR, absent)),
                  metadata=api.auth(tokens[0]))
    assert error.details() == why
    error = fails(C.FAILED_PRECONDITION, "UNKNOWN_MOVE", api.move, game_id, tokens[0], absent.id)
    assert absent.id in error.details()


def test_a_finished_game_refuses_moves(api, toy_game):
    created = api.create("toy", [HUMAN, HUMAN], start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    play_out(api, created.game_id, tokens, random.Random(1))
    fails(C.FAILED_PRECONDITION, "GAME_OVER", api.move, created.game_id, tokens[0], "card:1")


def test_suggestions_without_an_ai_service_are_unavailable(api, toy):
    created, tokens = toy
    request = pb.SuggestMoveRequest(game_id=created.game_id)
    error = fails(C.UNAVAILABLE, "AI_UNAVAILABLE", api.stub.SuggestMove, request, metadata=api.auth(tokens[0]))
    assert "not reachable" in error.details()
    fails(C.UNAUTHENTICATED, "MISSING_TOKEN", api.stub.SuggestMove, request)


def test_oversized_messages_are_refused(api):
    request = pb.CreateGameRequest(game_type="toy", options_json="x" * (2 << 20))
    with pytest.raises(grpc.RpcError) as caught:
        api.stub.CreateGame(request)
    assert caught.value.code() == C.RESOURCE_EXHAUSTED


def _readiness(channel: grpc.Channel, wanted: int) -> None:
    """Wait until the readiness check of GameService reports `wanted`."""
    wait_until(lambda: health_status(channel, "tabletop.v1.GameService") == wanted, 10,
               f"GameService {health_pb2.HealthCheckResponse.ServingStatus.Name(wanted)}")


def test_redis_down_is_unavailable_and_recovers_by_itself(own_redis, toy_game):
    server = ServerThread(service_config(own_redis.url)).start()
    channel = grpc.insecure_channel(server.target)
    try:
        api = Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
        created = api.create("toy", [HUMAN, HUMAN], start=True)
        own_redis.stop()
        fails(C.UNAVAILABLE, "REDIS_UNAVAILABLE", api.state, created.game_id)
        fails(C.UNAVAILABLE, "REDIS_UNAVAILABLE", api.create, "toy", [HUMAN, HUMAN])
        _readiness(channel, health_pb2.HealthCheckResponse.NOT_SERVING)
        own_redis.start()
        _readiness(channel, health_pb2.HealthCheckResponse.SERVING)
        assert api.state(created.game_id).version == created.state.version  # AOF brought it back
    finally:
        channel.close()
        server.stop()
