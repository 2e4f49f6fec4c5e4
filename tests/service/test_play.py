"""Whole games played through the API, and the event stream that replays them."""

from __future__ import annotations

import random

import redis
from google.protobuf import descriptor_pb2

from games import registry, wire
from service.store import GameRecord, pack_state, read_stored, unpack_state
from service.tables import Replay
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import HUMAN

HINODE = registry.get("hinode")


def play_out(api, game_id: str, tokens: dict[int, str], rng: random.Random) -> list[pb.MakeMoveResponse]:
    """Every seat to act picks a random legal move by id, with the version it saw and a fresh request id."""
    answers = []
    for step in range(5000):
        spectator = api.state(game_id)
        if spectator.status == pb.GAME_STATUS_FINISHED:
            return answers
        seat = rng.choice(list(spectator.to_act))
        mine = api.state(game_id, tokens[seat])
        assert mine.your_seat == seat and mine.legal_moves
        move = rng.choice(list(mine.legal_moves))
        answer = api.move(game_id, tokens[seat], move.id, expected_version=mine.version, request_id=f"r{step}")
        assert answer.version == mine.version + 1
        answers.append(answer)
    raise AssertionError("the game did not end")


def stored(redis_url: str, game_id: str) -> GameRecord:
    client = redis.Redis.from_url(redis_url)
    try:
        return read_stored(client, game_id)[0]
    finally:
        client.close()


def test_four_humans_play_a_whole_hinode_game(api, redis_url):
    created = api.create("hinode", [HUMAN] * 4, options_json='{"advanced": true}')
    game_id = created.game_id
    tokens = {t.seat: t.token for t in created.seat_tokens}
    assert sorted(tokens) == [0, 1, 2, 3] and len(set(tokens.values())) == 4
    assert created.state.status == pb.GAME_STATUS_WAITING_FOR_PLAYERS
    api.stub.StartGame(pb.StartGameRequest(game_id=game_id), metadata=api.auth(created.creator_token))
    answers = play_out(api, game_id, tokens, random.Random(4))
    assert answers[-1].state.status == pb.GAME_STATUS_FINISHED
    assert list(answers[-1].state.to_act) == []
    score = api.stub.GetScore(pb.GetScoreRequest(game_id=game_id))
    assert score.final and len(score.seats) == 4
    assert sorted(s for group in score.ranking for s in group.seats) == [0, 1, 2, 3]
    for seat in score.seats:
        assert seat.total == sum(item.points for item in seat.breakdown)
    # Every seat's final view is the engine's view of the stored state, exactly.
    state = HINODE.load_state(stored(redis_url, game_id).state)
    for seat in range(4):
        view = api.state(game_id, tokens[seat]).view
        assert view.type_url == "type.googleapis.com/tabletop.v1.HinodeView"
        assert wire.view_from_any(HINODE, view) == HINODE.view(state, seat)


def test_the_event_stream_replays_to_the_stored_state(api, redis_url, toy_game):
    created = api.create("toy", [HUMAN, HUMAN, HUMAN], start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    play_out(api, created.game_id, tokens, random.Random(9))
    client = redis.Redis.from_url(redis_url)
    try:
        events = read_stored(client, created.game_id)[1]
    finally:
        client.close()
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    rebuilt = Replay(toy_game)
    for event in events:
        rebuilt.step(event)
    record = stored(redis_url, created.game_id)
    assert rebuilt.state == toy_game.load_state(record.state)
    assert rebuilt.status == record.status == "finished"
    assert record.version == events[-1].version


def test_a_state_is_stored_deflated():
    state = '{"codec":1,"state":{"seed":7}}'
    assert pack_state(state) != state.encode() and unpack_state(pack_state(state)) == state.encode()


def test_game_types_are_listed_with_their_options(api):
    types = {t.name: t for t in api.stub.ListGameTypes(pb.ListGameTypesRequest()).game_types}
    hinode = types["hinode"]
    assert (hinode.min_seats, hinode.max_seats) == (1, 4)
    options = {o.name: o for o in hinode.options}
    assert options["advanced"].kind == pb.OPTION_KIND_BOOL
    assert options["start_player"].kind == pb.OPTION_KIND_CHOICE and "random" in options["start_player"].choices
    files = descriptor_pb2.FileDescriptorSet.FromString(hinode.file_descriptor_set).file
    assert files[-1].name == "tabletop/v1/hinode.proto" and hinode.view_type == "tabletop.v1.HinodeView"


def test_options_as_a_struct(api):
    from google.protobuf import struct_pb2

    options = struct_pb2.Struct()
    options.update({"advanced": True, "start_player": "seat1"})
    created = api.create("hinode", [HUMAN, HUMAN], options_struct=options, start=True)
    assert '"advanced":true' in created.state.options_json
    assert list(created.state.to_act) == [1]
