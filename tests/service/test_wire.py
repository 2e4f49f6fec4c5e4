"""tabletop.wire maps engine objects to each game's public messages and back exactly, for every registered game.

The AI worker rebuilds the engine view from what GetState returns and samples from it, so
`view_from_any(view_to_any(v)) == v` must hold for every view of every position, through real bytes.
"""

from __future__ import annotations

import itertools
import random

import pytest
from google.protobuf import (
    any_pb2,
    descriptor_pb2,
    descriptor_pool,
    json_format,
    message_factory,
    struct_pb2,
    symbol_database,
)

from games import registry, wire
from games.base import Game, Words
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire import WireError
from tests.support import toygame
from tests.support.toygame import GAME as TOY

GAMES = [TOY, *registry.all_games()]
pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game is hosted while these tests run
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
        names = tuple(f"Player {i + 1}" for i in range(game.num_seats(state)))
        for observer in [*range(game.num_seats(state)), None]:
            view = game.view(state, observer)
            raw = wire.view_to_any(game, view).SerializeToString()
            assert wire.view_from_any(game, any_pb2.Any.FromString(raw)) == view
            # The bytes the service answers with (built from parts a game may serialise once) say the same.
            fast = any_pb2.Any.FromString(wire.view_to_any_bytes(game, view))
            message = wire.wire_of(game).view_message
            assert fast.type_url == any_pb2.Any.FromString(raw).type_url
            assert message.FromString(fast.value) == message.FromString(any_pb2.Any.FromString(raw).value)
            checked += 1
        for seat in game.to_act(state):
            moves = game.legal_moves(state, seat)
            words = Words(names, seat, seat)
            for original, legal in zip(moves, wire.legal_moves_to_proto(game, moves, words), strict=True):
                again = pb.LegalMove.FromString(legal.SerializeToString())
                move = wire.move_from_any(game, again.move)
                assert move == original and (move.id, move.describe(words)) == (legal.id, legal.label)
    assert checked > 50


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_view_of_another_game_or_garbage_is_refused(game: Game):
    other = next(g for g in GAMES if g is not game)
    view = other.view(other.new_game(other.info.min_seats, {}, 1), None)
    with pytest.raises(WireError):
        wire.view_from_any(game, wire.view_to_any(other, view))
    with pytest.raises(WireError):
        wire.view_from_any(game, any_pb2.Any())
    with pytest.raises(WireError):
        wire.move_from_any(game, any_pb2.Any())
    garbage = any_pb2.Any(type_url=wire.view_to_any(game, game.view(game.new_game(game.info.min_seats, {}, 1), None))
                          .type_url, value=b"\xff\xff\xff")
    with pytest.raises(WireError):
        wire.view_from_any(game, garbage)


def test_a_game_without_a_wire_travels_as_a_struct():
    state = TOY.new_game(2, {}, 3)
    packed = wire.view_to_any(TOY, TOY.view(state, 0))
    assert packed.type_url == "type.googleapis.com/google.protobuf.Struct"
    data = struct_pb2.Struct()
    packed.Unpack(data)
    assert [int(c) for c in data["hand"]] == list(state.hands[0])
    assert wire.move_from_any(TOY, wire.move_to_any(TOY, toygame.Commit(7))) == toygame.Commit(7)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_client_with_only_the_descriptors_of_list_game_types_reads_every_message(game):
    """GameType.file_descriptor_set is all a client without the game's generated code needs: each file comes after
    the files it imports, the named types are in it, and views, moves and score breakdowns parse to what they say."""
    message = wire.game_type_to_proto(game)
    files = descriptor_pb2.FileDescriptorSet.FromString(message.file_descriptor_set).file
    names = [f.name for f in files]
    assert len(set(names)) == len(names)
    for i, file in enumerate(files):
        assert set(file.dependency) <= set(names[:i]), f"{file.name} comes before a file it imports"
    pool = descriptor_pool.DescriptorPool()
    for file in files:
        pool.Add(file)

    def read(packed: any_pb2.Any, type_name: str) -> dict:
        assert packed.type_url == "type.googleapis.com/" + type_name
        dynamic = message_factory.GetMessageClass(pool.FindMessageTypeByName(type_name))()
        assert packed.Unpack(dynamic)
        return json_format.MessageToDict(dynamic)

    def generated(packed: any_pb2.Any) -> dict:
        return json_format.MessageToDict(symbol_database.Default().GetSymbol(packed.type_url.split("/")[-1])
                                         .FromString(packed.value))

    for state in itertools.islice(_positions(game, games=2), 0, None, 7):
        for seat in (None, *sorted(game.to_act(state))):
            view = wire.view_to_any(game, game.view(state, seat))
            assert read(view, message.view_type) == generated(view)
            for move in game.legal_moves(state, seat) if seat is not None else ():
                packed = wire.move_to_any(game, move)
                assert read(packed, message.move_type) == generated(packed)
        for seat in wire.score_to_proto(game, game.score(state), 1).seats if message.score_type else ():
            assert read(seat.typed_breakdown, message.score_type) == generated(seat.typed_breakdown)


def test_a_descriptor_set_holds_the_files_a_message_imports_before_it():
    files = descriptor_pb2.FileDescriptorSet.FromString(wire.file_descriptor_set(pb.GameState)).file
    assert [f.name for f in files] == ["google/protobuf/any.proto", "google/protobuf/struct.proto",
                                       "tabletop/v1/game_service.proto"]
    pool = descriptor_pool.DescriptorPool()
    for file in files:
        pool.Add(file)
    assert pool.FindMessageTypeByName("tabletop.v1.GameState").fields_by_name["view"].message_type.full_name == (
        "google.protobuf.Any")


def test_a_games_descriptors_carry_its_proto_comments_which_tell_what_a_card_does():
    """The generated code has no comments; ListGameTypes sends the game's own with its descriptors (make protos
    keeps them in tabletop/v1/comments.binpb), so a client shows a card's effect in the game's words."""
    message = wire.game_type_to_proto(registry.get("kung-fur-fight"))
    files = {f.name: f for f in descriptor_pb2.FileDescriptorSet.FromString(message.file_descriptor_set).file}
    kungfur = files["tabletop/v1/kungfur.proto"]
    (card_enum,) = [i for i, e in enumerate(kungfur.enum_type) if e.name == "KungFurCard"]
    values = [v.name for v in kungfur.enum_type[card_enum].value]
    path = [5, card_enum, 2, values.index("KUNG_FUR_CARD_KOGA_GENIN")]
    (location,) = [loc for loc in kungfur.source_code_info.location if list(loc.path) == path]
    assert location.leading_comments.strip() == "Kōga Genin (cats): no ability."
    # Files of others (the well-known types) go as before, without comments of ours.
    api = {f.name: f for f in descriptor_pb2.FileDescriptorSet.FromString(wire.file_descriptor_set(pb.GameState)).file}
    assert not api["google/protobuf/any.proto"].HasField("source_code_info")
    assert api["tabletop/v1/game_service.proto"].HasField("source_code_info")


def test_game_types_list_their_options_and_message_types(toy_game):
    message = wire.game_type_to_proto(TOY)
    assert (message.name, message.min_seats, message.max_seats) == ("toy", 2, 3)
    (option,) = message.options
    assert option.kind == pb.OPTION_KIND_BOOL and option.default_value.bool_value is False
    assert message.view_type == message.move_type == "google.protobuf.Struct"
    hinode = wire.game_type_to_proto(registry.get("hinode"))
    assert (hinode.view_type, hinode.move_type) == ("tabletop.v1.HinodeView", "tabletop.v1.HinodeMove")
