"""Engine objects <-> tabletop.v1 messages for every registered game, shared by the game service and the AI worker.

Each game's `GameWire` (tabletop.wire) is named by its registry descriptor; a game without one travels as
`google.protobuf.Struct`: the engine's own data as JSON (games.codec). This is an adapter, like a game's own
wire.py: the engines never import it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from google.protobuf import any_pb2, json_format, struct_pb2
from google.protobuf.message import DecodeError, Message

from games import codec, registry
from games.base import Game, Move, Score, Words
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire import GameWire, WireError, field_bytes, file_descriptor_set, pack, type_url, undefined_enums, unpack

__all__ = [
    "game_type_to_proto", "legal_move_bytes", "legal_moves_to_proto", "move_from_any", "move_to_any", "plain",
    "score_to_proto", "view_from_any", "view_to_any", "view_to_any_bytes", "wire_of",
]


class JsonWire(GameWire):
    """The wire of a game without typed messages: its view and moves as google.protobuf.Struct (codec JSON)."""

    view_message = struct_pb2.Struct
    move_message = struct_pb2.Struct

    def __init__(self, game: Game):
        self.game = game

    def view_to_proto(self, view: Any) -> Message:
        return _struct(codec.encode(view))

    def view_from_proto(self, message: Message) -> Any:
        return codec.decode(self.game.view_type, plain(json_format.MessageToDict(message)))

    def move_to_proto(self, move: Move) -> Message:
        return _struct({"type": type(move).__name__, "move": codec.encode(move)})

    def move_from_proto(self, message: Message) -> Move:
        doc = plain(json_format.MessageToDict(message))
        types = {t.__name__: t for t in self.game.move_types}
        if not isinstance(doc, dict) or doc.get("type") not in types:
            raise WireError(f"not a {self.game.info.name} move: give {{'type': one of {sorted(types)}, 'move': ...}}")
        return codec.decode(types[doc["type"]], doc.get("move"))


def _struct(data: dict[str, Any]) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    message.update(data)
    return message


def plain(value: Any) -> Any:
    """A Struct value as plain JSON data: Struct numbers are doubles, and integral ones become ints again."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@cache
def wire_of(game: Game) -> GameWire:
    """The wire of a registered game (or the JSON wire when it names none)."""
    reference = registry.descriptor(game.info.name).wire
    return registry.resolve(reference) if reference else JsonWire(game)


# What decoding untrusted input may raise besides WireError (RecursionError: absurdly deep nesting).
_BAD_INPUT = (codec.CodecError, RecursionError, ValueError, TypeError, KeyError, IndexError, DecodeError)


def view_to_any(game: Game, view: Any) -> any_pb2.Any:
    return pack(wire_of(game).view_to_proto(view))


def view_from_any(game: Game, packed: any_pb2.Any) -> Any:
    """Rebuild the engine view; raise WireError when `packed` does not hold a view of this game."""
    wire = wire_of(game)
    message = unpack(packed, wire.view_message, f"a {game.info.name} view")
    _defined_enums(message, f"a {game.info.name} view")
    try:
        return wire.view_from_proto(message)
    except WireError:
        raise
    except _BAD_INPUT as exc:
        raise WireError(f"not a valid {game.info.name} view: {exc}") from None


def _defined_enums(message: Message, what: str) -> None:
    """Refuse a message of untrusted input with an enum value its enum does not define (a card's colour 99)."""
    undefined = undefined_enums(message)
    if undefined:
        raise WireError(f"not {what}: {'; '.join(undefined[:4])}")


def move_to_any(game: Game, move: Move) -> any_pb2.Any:
    return pack(wire_of(game).move_to_proto(move))


def move_from_any(game: Game, packed: any_pb2.Any) -> Move:
    """Rebuild the engine move; raise WireError when `packed` does not hold a move of this game."""
    wire = wire_of(game)
    message = unpack(packed, wire.move_message, f"a {game.info.name} move")
    _defined_enums(message, f"a {game.info.name} move")
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
    return field_bytes(1, type_url(wire.view_message)) + field_bytes(2, wire.view_bytes(view))


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
        estimated=score.estimated,
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
