"""A game's public messages as a wire test reads them: an engine view or move in its message type, and any
message packed in an Any (to feed the wire a malformed or foreign one)."""

from __future__ import annotations

from google.protobuf import any_pb2
from google.protobuf.message import Message

from games import wire
from games.base import Game, Move


def pack(message: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


def view_message(game: Game, state, seat: int | None, message_type: type[Message]) -> Message:
    """The seat's view of `state` as the game's public message."""
    message = message_type()
    assert wire.view_to_any(game, game.view(state, seat)).Unpack(message)
    return message


def move_message(game: Game, move: Move, message_type: type[Message]) -> Message:
    message = message_type()
    assert wire.move_to_any(game, move).Unpack(message)
    return message
