"""Engine objects <-> tabletop.v1 messages, shared by the game service and the AI worker.

A game's public messages (its view, its moves, its score breakdown) are its own, in its own words, defined in its
own .proto file; they travel packed in `google.protobuf.Any`. The mapping between them and the engine's
dataclasses is the game's `GameWire`, named by its registry descriptor (`wire="games.x.wire:WIRE"`). The mapping
is exact both ways, `view_from_proto(view_to_proto(v)) == v`, which the AI worker relies on to rebuild the engine
view it samples from (tests/service/test_wire.py checks it over random positions of every game). A game without a
wire travels as `google.protobuf.Struct`: the engine's own data as JSON (games.codec).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from google.protobuf import any_pb2, descriptor_pb2, json_format, struct_pb2
from google.protobuf.descriptor import FileDescriptor
from google.protobuf.message import DecodeError, Message

from games import codec, registry
from games.base import Game, Move, Score, Words
from tabletop.v1 import game_service_pb2 as pb

__all__ = [
    "GameWire", "WireError", "file_descriptor_set", "game_type_to_proto", "legal_moves_to_proto", "move_from_any",
    "move_to_any", "score_to_proto", "view_from_any", "view_to_any", "wire_of",
]

TYPE_URL_PREFIX = "type.googleapis.com/"


class WireError(ValueError):
    """An engine object and a proto message do not match (malformed input, or a schema drift)."""


class GameWire:
    """A game's public messages and their exact mapping to and from its engine objects. Subclass per game."""

    view_message: type[Message]
    move_message: type[Message]
    score_message: type[Message] | None = None  # one int64 field per scoring category, by its lower_snake name

    def view_to_proto(self, view: Any) -> Message:
        raise NotImplementedError

    def view_bytes(self, view: Any) -> bytes:
        """The view's message, serialised. A game may build it faster from parts it serialised before (see
        field_bytes); the result must parse to the same message as view_to_proto's."""
        return self.view_to_proto(view).SerializeToString()

    def view_from_proto(self, message: Message) -> Any:
        raise NotImplementedError

    def move_to_proto(self, move: Move) -> Message:
        raise NotImplementedError

    def move_from_proto(self, message: Message) -> Move:
        raise NotImplementedError

    def breakdown_to_proto(self, breakdown: Iterable[tuple[str, int]]) -> Message | None:
        """A seat's breakdown as `score_message`: each category's points in the field named after it."""
        if self.score_message is None:
            return None
        message = self.score_message()
        fields = message.DESCRIPTOR.fields_by_name
        for category, points in breakdown:
            name = category.lower().replace(" ", "_").replace("-", "_")
            if name not in fields:
                raise WireError(f"{message.DESCRIPTOR.full_name} has no field for the category {category!r}")
            setattr(message, name, points)
        return message


class JsonWire(GameWire):
    """The wire of a game without typed messages: its view and moves as google.protobuf.Struct (codec JSON)."""

    view_message = struct_pb2.Struct
    move_message = struct_pb2.Struct

    def __init__(self, game: Game):
        self.game = game

    def view_to_proto(self, view: Any) -> Message:
        return _struct(codec.encode(view))

    def view_from_proto(self, message: Message) -> Any:
        return codec.decode(self.game.view_type, _plain(json_format.MessageToDict(message)))

    def move_to_proto(self, move: Move) -> Message:
        return _struct({"type": type(move).__name__, "move": codec.encode(move)})

    def move_from_proto(self, message: Message) -> Move:
        doc = _plain(json_format.MessageToDict(message))
        types = {t.__name__: t for t in self.game.move_types}
        if not isinstance(doc, dict) or doc.get("type") not in types:
            raise WireError(f"not a {self.game.info.name} move: give {{'type': one of {sorted(types)}, 'move': ...}}")
        return codec.decode(types[doc["type"]], doc.get("move"))


def _struct(data: dict[str, Any]) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    message.update(data)
    return message


def _plain(value: Any) -> Any:
    """Struct numbers are doubles: integral ones become ints again."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@cache
def wire_of(game: Game) -> GameWire:
    """The wire of a registered game (or the JSON wire when it names none)."""
    reference = registry.descriptor(game.info.name).wire
    return registry.resolve(reference) if reference else JsonWire(game)


# What decoding untrusted input may raise besides WireError (RecursionError: absurdly deep nesting).
_BAD_INPUT = (codec.CodecError, RecursionError, ValueError, TypeError, KeyError, IndexError, DecodeError)


def _pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def _unpack(packed: any_pb2.Any, message_type: type[Message], what: str) -> Message:
    expected = TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name
    if packed.type_url != expected:
        raise WireError(f"expected {what} of type {expected}, got {packed.type_url or 'nothing'}")
    message = message_type()
    try:
        message.ParseFromString(packed.value)
    except DecodeError as exc:
        raise WireError(f"{what} is not a valid {message_type.DESCRIPTOR.full_name}: {exc}") from None
    return message


def view_to_any(game: Game, view: Any) -> any_pb2.Any:
    return _pack(wire_of(game).view_to_proto(view))


def view_from_any(game: Game, packed: any_pb2.Any) -> Any:
    """Rebuild the engine view; raise WireError when `packed` does not hold a view of this game."""
    wire = wire_of(game)
    message = _unpack(packed, wire.view_message, f"a {game.info.name} view")
    try:
        return wire.view_from_proto(message)
    except WireError:
        raise
    except _BAD_INPUT as exc:
        raise WireError(f"not a valid {game.info.name} view: {exc}") from None


def move_to_any(game: Game, move: Move) -> any_pb2.Any:
    return _pack(wire_of(game).move_to_proto(move))


def move_from_any(game: Game, packed: any_pb2.Any) -> Move:
    """Rebuild the engine move; raise WireError when `packed` does not hold a move of this game."""
    wire = wire_of(game)
    message = _unpack(packed, wire.move_message, f"a {game.info.name} move")
    try:
        return wire.move_from_proto(message)
    except WireError:
        raise
    except _BAD_INPUT as exc:
        raise WireError(f"not a valid {game.info.name} move: {exc}") from None


def legal_moves_to_proto(game: Game, moves: Iterable[Move], words: Words) -> list[pb.LegalMove]:
    return [pb.LegalMove.FromString(legal_move_bytes(game, m, words)) for m in moves]


def view_to_any_bytes(game: Game, view: Any) -> bytes:
    """The view's message packed in an Any, serialised."""
    wire = wire_of(game)
    return field_bytes(1, _type_url(wire.view_message)) + field_bytes(2, wire.view_bytes(view))


@cache
def _type_url(message_type: type[Message]) -> bytes:
    return (TYPE_URL_PREFIX + message_type.DESCRIPTOR.full_name).encode()


def field_bytes(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field (a message, a string or bytes), serialised: messages may be built from
    parts serialised before, since a parser takes the fields of a message in any order."""
    return varint_bytes(number << 3 | 2) + varint_bytes(len(payload)) + payload


def varint_bytes(value: int) -> bytes:
    """A non-negative integer as a protobuf varint."""
    if value < 0x80:
        return _ONE_BYTE[value]
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_ONE_BYTE = [bytes((value,)) for value in range(0x80)]


@lru_cache(maxsize=16384)
def legal_move_bytes(game: Game, move: Move, words: Words) -> bytes:
    """A legal move's message, built once per (move, reader) (moves are immutable and hashable), kept as bytes so
    that no caller can change the cached one."""
    return pb.LegalMove(id=move.id, label=move.describe(words), move=move_to_any(game, move)).SerializeToString()


def score_to_proto(game: Game, score: Score, version: int) -> pb.GetScoreResponse:
    wire = wire_of(game)
    seats = []
    for s in score.seats:
        seat = pb.SeatScore(seat=s.seat, total=s.total, breakdown=[pb.ScoreItem(category=c, points=p)
                                                                   for c, p in s.breakdown])
        typed = wire.breakdown_to_proto(s.breakdown)
        if typed is not None:
            seat.typed_breakdown.Pack(typed)
        seats.append(seat)
    return pb.GetScoreResponse(
        version=version,
        final=score.final,
        seats=seats,
        ranking=[pb.RankGroup(seats=group) for group in score.ranking],
        tie_breaks=score.tie_breaks,
        decided_by=score.decided_by,
    )


_OPTION_KINDS = {
    "bool": pb.OPTION_KIND_BOOL,
    "int": pb.OPTION_KIND_INT,
    "choice": pb.OPTION_KIND_CHOICE,
    "json": pb.OPTION_KIND_JSON,
}


def game_type_to_proto(game: Game) -> pb.GameType:
    info = game.info
    wire = wire_of(game)
    options = []
    for spec in info.options:
        default = struct_pb2.Value()
        json_format.Parse(json.dumps(codec.encode(spec.default)), default)
        options.append(
            pb.GameOption(
                name=spec.name,
                kind=_OPTION_KINDS.get(spec.kind, pb.OPTION_KIND_UNSPECIFIED),
                default_value=default,
                description=spec.description,
                choices=spec.choices,
                minimum=spec.minimum,
                maximum=spec.maximum,
            )
        )
    return pb.GameType(
        name=info.name,
        title=info.title,
        description=info.description,
        min_seats=info.min_seats,
        max_seats=info.max_seats,
        options=options,
        view_type=wire.view_message.DESCRIPTOR.full_name,
        move_type=wire.move_message.DESCRIPTOR.full_name,
        score_type=wire.score_message.DESCRIPTOR.full_name if wire.score_message else "",
        file_descriptor_set=file_descriptor_set(
            *(m for m in (wire.view_message, wire.move_message, wire.score_message) if m is not None)),
    )


@cache
def file_descriptor_set(*messages: type[Message]) -> bytes:
    """The .proto files that define `messages` and every file they import, each after its imports, as a serialized
    google.protobuf.FileDescriptorSet: what lets a client with no generated code of a game decode its messages."""
    ordered: dict[str, FileDescriptor] = {}

    def add(file: FileDescriptor) -> None:
        if file.name not in ordered:
            for imported in file.dependencies:
                add(imported)
            ordered[file.name] = file

    for message in messages:
        add(message.DESCRIPTOR.file)
    files = descriptor_pb2.FileDescriptorSet()
    for file in ordered.values():
        file.CopyToProto(files.file.add())
    return files.SerializeToString()
