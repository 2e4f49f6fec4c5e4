"""tabletop.wire maps engine objects to proto messages and back exactly, for every registered game.

The AI worker rebuilds the engine view from what GetState returns and samples from it, so
`view_from_proto(view_to_proto(v)) == v` must hold for every view of every position, through real bytes.
"""

from __future__ import annotations

import random

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from games import registry
from games.base import Game
from tabletop import wire
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire.messages import WireError, from_message, to_message
from tests.support import toygame
from tests.support.toygame import GAME as TOY

GAMES = [TOY, *registry.all_games()]
IDS = [g.info.name for g in GAMES]


def _positions(game: Game, games: int = 12, seed: int = 7):
    """States along random games of every variant."""
    rng = random.Random(seed)
    variants = game.variants()
    for g in range(games):
        n, options = variants[g % len(variants)]
        state = game.new_game(n, options, rng.getrandbits(32))
        while True:
            yield state
            acting = sorted(game.to_act(state))
            if not acting:
                break
            seat = rng.choice(acting)
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_views_and_moves_round_trip_exactly(game: Game):
    checked = 0
    for state in _positions(game):
        for observer in [*range(game.num_seats(state)), None]:
            view = game.view(state, observer)
            raw = wire.view_to_proto(game, view).SerializeToString()
            assert wire.view_from_proto(game, pb.GameView.FromString(raw)) == view
            checked += 1
        for seat in game.to_act(state):
            moves = game.legal_moves(state, seat)
            for original, legal in zip(moves, wire.legal_moves_to_proto(game, moves), strict=True):
                again = pb.LegalMove.FromString(legal.SerializeToString())
                move = wire.move_from_proto(game, again.move)
                assert move == original and (move.id, move.label) == (legal.id, legal.label)
    assert checked > 50


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_view_of_another_game_is_refused(game: Game):
    with pytest.raises(WireError):
        wire.view_from_proto(game, pb.GameView(view_json='{"game":"nope","kind":"view","schema":1,"data":{}}'))
    with pytest.raises(WireError):
        wire.view_from_proto(game, pb.GameView())
    with pytest.raises(WireError):
        wire.move_from_proto(game, pb.TypedMove())


def _toy_messages():
    """Typed messages mirroring the toy game's dataclasses, built at run time (the toy has no .proto)."""
    fd = descriptor_pb2.FileDescriptorProto(name="toy_test.proto", package="toytest", syntax="proto3")
    F = descriptor_pb2.FieldDescriptorProto

    def message(name, fields, oneof=None):
        m = fd.message_type.add(name=name)
        if oneof:
            m.oneof_decl.add(name=oneof)
        for i, (fname, ftype, label, type_name, optional) in enumerate(fields, 1):
            f = m.field.add(name=fname, number=i, type=ftype, label=label)
            if type_name:
                f.type_name = f".toytest.{type_name}"
            if optional:
                m.oneof_decl.add(name=f"_{fname}")
                f.oneof_index = len(m.oneof_decl) - 1
                f.proto3_optional = True
            elif oneof:
                f.oneof_index = 0

    one, rep = F.LABEL_OPTIONAL, F.LABEL_REPEATED
    message("IntList", [("values", F.TYPE_INT32, rep, None, False)])
    message("View", [
        ("seat", F.TYPE_INT32, one, None, True),
        ("hand", F.TYPE_INT32, rep, None, False),
        ("hand_sizes", F.TYPE_INT32, rep, None, False),
        ("committed", F.TYPE_BOOL, rep, None, False),
        ("own_commit", F.TYPE_INT32, one, None, True),
        ("revealed", F.TYPE_MESSAGE, rep, "IntList", False),
        ("points", F.TYPE_INT32, rep, None, False),
        ("double", F.TYPE_BOOL, one, None, False),
    ])
    message("Commit", [("card", F.TYPE_INT32, one, None, False)])
    message("Move", [("commit", F.TYPE_MESSAGE, one, "Commit", False)], oneof="kind")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    return tuple(message_factory.GetMessageClass(pool.FindMessageTypeByName(f"toytest.{n}")) for n in ("View", "Move"))


def test_typed_messages_mirror_dataclasses_field_by_field():
    view_type, move_type = _toy_messages()
    for state in _positions(TOY, games=20):
        for observer in [*range(TOY.num_seats(state)), None]:
            view = TOY.view(state, observer)
            message = view_type.FromString(to_message(view, view_type).SerializeToString())
            assert from_message(message, toygame.View) == view
            assert message.HasField("seat") == (observer is not None)
    move = toygame.Commit(7)
    message = to_message(move, move_type)
    assert message.WhichOneof("kind") == "commit" and message.commit.card == 7
    assert from_message(message, toygame.Commit) == move


def test_a_drifted_schema_is_an_error_not_a_silent_loss():
    view_type, _ = _toy_messages()
    state = TOY.new_game(2, {}, 3)
    # A dataclass field the message lacks.
    with pytest.raises(WireError):
        to_message(TOY.view(state, 0), pb.SeatInfo)
    # A message field the dataclass lacks.
    with pytest.raises(WireError):
        from_message(pb.SeatInfo(seat=1), toygame.View)


def test_game_types_list_their_options():
    message = wire.game_type_to_proto(TOY)
    assert (message.name, message.min_seats, message.max_seats) == ("toy", 2, 3)
    (option,) = message.options
    assert option.kind == pb.OPTION_KIND_BOOL and option.default_value.bool_value is False
