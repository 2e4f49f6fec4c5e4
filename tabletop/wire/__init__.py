"""Engine objects <-> tabletop.v1 messages, shared by the game service and the AI worker.

Every function takes the engine (`games.base.Game`) whose objects it maps. A game with a typed wire module
(`_MODULES`) gets its typed view and move messages; any other game travels as the engine's own versioned JSON
(`view_json`, `move_json`). Either way the mapping is exact: `view_from_proto(g, view_to_proto(g, v)) == v`,
which the AI worker relies on to rebuild the engine view that it samples from.

To give a game typed messages: write protos/tabletop/v1/<game>.proto mirroring the engine's view and move
dataclasses field by field (see messages.py for the few rules), add a `<game>` member to the `GameView` and
`TypedMove` oneofs, run `make protos`, add tabletop/wire/<game>.py with its `WIRE` and a line in `_MODULES`.
tests/service/test_wire.py then checks the exact round trip over random positions of the game. A game may also
give its score breakdown a typed message (`GameWire.score`, a member of `SeatScore.typed_breakdown`): one int64
field per category, named by the category in lower_snake_case ("Rice field" -> `rice_field`).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from google.protobuf import json_format, struct_pb2
from google.protobuf.message import Message

from games import codec
from games.base import Game, Move, Score
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire.messages import WireError, from_message, snake_case, to_message

__all__ = [
    "GameWire", "WireError", "game_type_to_proto", "legal_moves_to_proto", "move_from_proto", "move_to_proto",
    "score_to_proto", "typed_wire", "view_from_proto", "view_to_proto",
]

# game type -> module defining `WIRE`, the game's typed messages. Add a line here with the game's proto.
_MODULES: dict[str, str] = {
    "hinode": "tabletop.wire.hinode",
    "naishi": "tabletop.wire.naishi",
}


# What parsing untrusted engine JSON may raise besides CodecError (RecursionError: absurdly deep nesting).
_BAD_JSON = (codec.CodecError, RecursionError, ValueError, TypeError, KeyError)


@dataclass(frozen=True)
class GameWire:
    """A game's typed messages: `field` names its member of the GameView and TypedMove oneofs; `move` is a
    union message with one variant per engine move type, named by the move class's name in snake_case; `score`,
    when set, is the typed score breakdown, one field per scoring category."""

    field: str
    view: type[Message]
    move: type[Message]
    score: type[Message] | None = None


@cache
def typed_wire(game_type: str) -> GameWire | None:
    """The typed messages of a game type, or None when it travels as JSON."""
    module = _MODULES.get(game_type)
    return importlib.import_module(module).WIRE if module else None


def view_to_proto(game: Game, view: object) -> pb.GameView:
    wire = typed_wire(game.info.name)
    if wire is None:
        return pb.GameView(view_json=game.dump_view(view).decode())
    message = pb.GameView()
    getattr(message, wire.field).CopyFrom(to_message(view, wire.view))
    return message


def view_from_proto(game: Game, message: pb.GameView) -> object:
    """Rebuild the engine view; raise WireError when the message does not hold a view of this game."""
    kind = message.WhichOneof("kind")
    if kind == "view_json":
        try:
            return game.load_view(message.view_json)
        except _BAD_JSON as exc:
            raise WireError(f"view_json is not a {game.info.name} view: {exc}") from exc
    wire = typed_wire(game.info.name)
    if wire is None or kind != wire.field:
        raise WireError(f"expected a {game.info.name} view, got {kind or 'nothing'}")
    return from_message(getattr(message, kind), game.view_type)


def move_to_proto(game: Game, move: Move) -> pb.TypedMove:
    wire = typed_wire(game.info.name)
    if wire is None:
        return pb.TypedMove(move_json=game.dump_move(move).decode())
    message = pb.TypedMove()
    getattr(message, wire.field).CopyFrom(to_message(move, wire.move))
    return message


def move_from_proto(game: Game, message: pb.TypedMove) -> Move:
    """Rebuild the engine move; raise WireError when the message does not hold a move of this game."""
    kind = message.WhichOneof("kind")
    if kind == "move_json":
        try:
            return game.load_move(message.move_json)
        except _BAD_JSON as exc:
            raise WireError(f"move_json is not a {game.info.name} move: {exc}") from exc
    wire = typed_wire(game.info.name)
    if wire is None or kind != wire.field:
        raise WireError(f"expected a {game.info.name} move, got {kind or 'nothing'}")
    union = getattr(message, kind)
    variant = union.WhichOneof(union.DESCRIPTOR.oneofs[0].name)
    types = {snake_case(t.__name__): t for t in game.move_types}
    if variant not in types:
        raise WireError(f"{game.info.name} has no move type {variant or '(none set)'}")
    return from_message(getattr(union, variant), types[variant])


def legal_moves_to_proto(game: Game, moves: Iterable[Move]) -> list[pb.LegalMove]:
    return [pb.LegalMove.FromString(_legal_move_bytes(game, m)) for m in moves]


@lru_cache(maxsize=16384)
def _legal_move_bytes(game: Game, move: Move) -> bytes:
    """A legal move's message, built once per move (moves are immutable and hashable; building the typed message
    field by field was the service's largest cost), kept as bytes so that no caller can change the cached one."""
    return pb.LegalMove(id=move.id, label=move.label, move=move_to_proto(game, move)).SerializeToString()


def score_to_proto(score: Score, version: int, game: Game | None = None) -> pb.GetScoreResponse:
    """The score message; with `game`, each seat's breakdown also as the game's typed message when it has one."""
    wire = typed_wire(game.info.name) if game is not None else None
    seats = []
    for s in score.seats:
        seat = pb.SeatScore(seat=s.seat, total=s.total, breakdown=[pb.ScoreItem(category=c, points=p)
                                                                   for c, p in s.breakdown])
        if wire is not None and wire.score is not None:
            getattr(seat, wire.field).CopyFrom(typed_breakdown(wire.score, s.breakdown))
        seats.append(seat)
    return pb.GetScoreResponse(
        version=version,
        final=score.final,
        seats=seats,
        ranking=[pb.RankGroup(seats=group) for group in score.ranking],
        tie_breaks=score.tie_breaks,
    )


def typed_breakdown(message_type: type[Message], breakdown: Iterable[tuple[str, int]]) -> Message:
    """A breakdown as a typed message: each category's points in the field named after it."""
    message = message_type()
    fields = message.DESCRIPTOR.fields_by_name
    for category, points in breakdown:
        name = category.lower().replace(" ", "_").replace("-", "_")
        if name not in fields:
            raise WireError(f"{message.DESCRIPTOR.full_name} has no field for the category {category!r}")
        setattr(message, name, points)
    return message


_OPTION_KINDS = {
    "bool": pb.OPTION_KIND_BOOL,
    "int": pb.OPTION_KIND_INT,
    "choice": pb.OPTION_KIND_CHOICE,
    "json": pb.OPTION_KIND_JSON,
}


def game_type_to_proto(game: Game) -> pb.GameType:
    info = game.info
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
    )
