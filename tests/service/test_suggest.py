"""SuggestMove is forwarded to the AI service with the caller's view and nothing more."""

from __future__ import annotations

import random
import threading
from concurrent import futures

import grpc
import pytest
import redis

from games import registry, wire
from service.errors import error_info
from service.store import read_stored
from tabletop.v1 import ai_service_pb2, ai_service_pb2_grpc, game_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import HUMAN, Api, ServerThread, service_config
from tests.support.waiting import wait_until

HINODE = registry.get("hinode")


class RecordingAI(ai_service_pb2_grpc.AIServiceServicer):
    """An AI service that answers with the first legal move of the view it got, and keeps the requests."""

    def __init__(self):
        self.requests: list[ai_service_pb2.AIServiceSuggestMoveRequest] = []

    def SuggestMove(self, request, context):
        self.requests.append(request)
        view = wire.view_from_any(HINODE, request.view)
        state = HINODE.sample(view, random.Random(0))
        moves = HINODE.legal_moves(state, request.seat)
        candidates = [pb.CandidateMove(move_id=m.id, label=m.label, visits=10 - i, mean_reward=0.5)
                      for i, m in enumerate(moves[:3])]
        return ai_service_pb2.AIServiceSuggestMoveResponse(
            best_move_id=moves[0].id, best_move_label=moves[0].label, candidates=candidates, iterations=27)


@pytest.fixture
def ai_service():
    ai = RecordingAI()
    server = grpc.server(futures.ThreadPoolExecutor(2))
    ai_service_pb2_grpc.add_AIServiceServicer_to_server(ai, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield ai, f"127.0.0.1:{port}"
    server.stop(0)


def test_a_suggestion_comes_from_the_callers_view(redis_url, ai_service):
    ai, target = ai_service
    thread = ServerThread(service_config(redis_url, ai_target=target)).start()
    channel = grpc.insecure_channel(thread.target)
    try:
        api = Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
        created = api.create("hinode", [HUMAN] * 3, options_json='{"start_player": "seat2"}', start=True)
        token = created.seat_tokens[2].token
        answer = api.stub.SuggestMove(pb.SuggestMoveRequest(game_id=created.game_id, strength="hard"),
                                      metadata=api.auth(token))
        state = api.state(created.game_id, token)
        assert answer.version == state.version
        assert answer.best_move_id in {m.id for m in state.legal_moves}
        assert [c.visits for c in answer.candidates] == [10, 9, 8][: len(answer.candidates)]
        (request,) = ai.requests
        assert (request.game_type, request.seat, request.version, request.strength) == ("hinode", 2, state.version,
                                                                                          "hard")
        client = redis.Redis.from_url(redis_url)
        stored = read_stored(client, created.game_id)[0]
        client.close()
        assert wire.view_from_any(HINODE, request.view) == HINODE.view(HINODE.load_state(stored.state), 2)
        # Only the seat to act may ask.
        with pytest.raises(grpc.RpcError) as caught:
            api.stub.SuggestMove(pb.SuggestMoveRequest(game_id=created.game_id),
                                 metadata=api.auth(created.seat_tokens[0].token))
        assert error_info(caught.value).reason == "NOT_YOUR_TURN"
    finally:
        channel.close()
        thread.stop()


class HeldAI(RecordingAI):
    """An AI service that holds each suggestion until the test lets it go."""

    def __init__(self):
        super().__init__()
        self.asked = threading.Event()
        self.gate = threading.Event()

    def SuggestMove(self, request, context):
        self.asked.set()
        self.gate.wait(30)
        return super().SuggestMove(request, context)


def test_a_graceful_stop_lets_the_call_in_flight_finish(redis_url):
    """SIGTERM's path: stop taking calls, let those in flight finish within the grace period."""
    ai_server = grpc.server(futures.ThreadPoolExecutor(2))
    ai = HeldAI()
    ai_service_pb2_grpc.add_AIServiceServicer_to_server(ai, ai_server)
    ai_port = ai_server.add_insecure_port("127.0.0.1:0")
    ai_server.start()
    thread = ServerThread(service_config(redis_url, ai_target=f"127.0.0.1:{ai_port}")).start()
    channel = grpc.insecure_channel(thread.target)
    try:
        api = Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
        created = api.create("hinode", [HUMAN, HUMAN], options_json='{"start_player": "seat0"}', start=True)
        call = api.stub.SuggestMove.future(pb.SuggestMoveRequest(game_id=created.game_id),
                                           metadata=api.auth(created.seat_tokens[0].token))
        assert ai.asked.wait(10)  # the call is in flight, waiting for the AI
        stopper = threading.Thread(target=thread.stop, kwargs={"grace": 5.0})
        stopper.start()

        def refused() -> bool:
            try:
                api.stub.ListGameTypes(pb.ListGameTypesRequest(), timeout=2)
            except grpc.RpcError as error:
                return error.code() == grpc.StatusCode.UNAVAILABLE
            return False

        wait_until(refused, 10, "the stopping server refusing new calls")  # nothing new is taken
        ai.gate.set()
        assert call.result(timeout=10).best_move_id  # the call in flight finishes during the grace period
        stopper.join(10)
    finally:
        channel.close()
        ai_server.stop(0)
