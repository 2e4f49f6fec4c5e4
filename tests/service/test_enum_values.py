"""Enum values no enum defines (issue 26: `visibility` 99 or -1 and a timer's `on_timeout` 99 or -1 answered OK).
Protobuf's enums are open: the parser keeps any number, and code that compares it with the known ones reads it as
some default. Every enum field of every request is found here by walking the request messages of both services
(and the typed move and view messages, which requests carry packed in an Any), so a field added later is covered
as it comes: each gets 99 and -1, and the call must be refused, INVALID_ARGUMENT with a reason, changing nothing."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from games import registry, wire
from service.errors import error_info
from tabletop.v1 import ai_service_pb2
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire import WireError, pack
from tests.service.conftest import HUMAN
from tests.service.test_malformed import INVALID, all_keys, client, refused, snapshot  # noqa: F401 - fixture

ANY = "google.protobuf.Any"
UNDEFINED = (99, -1)

Path = tuple[FieldDescriptor, ...]


def enum_paths(descriptor: Descriptor, seen: frozenset[str] = frozenset()) -> list[Path]:
    """Every path of fields from a message type to an enum field, through nested, repeated and map fields (not
    into an Any, and not round a cycle twice)."""
    paths: list[Path] = []
    for field in descriptor.fields:
        if field.enum_type is not None:
            paths.append((field,))
        elif field.message_type is not None:
            inner = field.message_type
            if inner.full_name == ANY or inner.full_name in seen:
                continue
            paths += [(field, *rest) for rest in enum_paths(inner, seen | {descriptor.full_name, inner.full_name})]
    return paths


def set_at(message: Message, path: Path, value: int) -> Message:
    """Set the enum at the end of `path` to `value`, making or taking the first element of each repeated field
    (key "x" of a map) on the way."""
    *parents, last = path
    map_value = False
    for field in parents:
        if map_value:  # the map entry's `value` field: the entry's value is the message already
            map_value = False
            continue
        container = getattr(message, field.name)
        if field.message_type.GetOptions().map_entry:
            message = container["x"]
            map_value = True
        elif field.is_repeated:
            message = container[0] if len(container) else container.add()
        else:
            message = container
    if last.is_repeated:
        getattr(message, last.name).append(value)
    else:
        setattr(message, last.name, value)
    return message


def name(path: Path) -> str:
    return ".".join(f.name for f in path)


METHODS = pb.DESCRIPTOR.services_by_name["GameService"].methods
REQUEST_FIELDS = [pytest.param(method, path, value, id=f"{method.name}-{name(path)}={value}")
                  for method in METHODS for path in enum_paths(method.input_type) for value in UNDEFINED]


def test_the_walk_finds_the_known_enum_fields():
    """The walk is no empty loop: it finds the fields of the issue, and the nested and map ones."""
    found = {(p.id.rpartition("=")[0]) for p in REQUEST_FIELDS}
    assert {"CreateGame-visibility", "CreateGame-timer.on_timeout", "CreateGame-seats.kind",
            "CreateGame-options_struct.fields.value.null_value"} <= found


def base_request(method) -> Message:
    """A request of `method` that is otherwise fine (CreateGame: a toy game with a timer), or an empty one."""
    if method.name == "CreateGame":
        return pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=HUMAN)],
                                    timer=pb.TurnTimer(turn_seconds=60))
    return getattr(pb, method.input_type.name)()


def refused_for(call, path: Path, value: int, reason: str) -> None:
    """`call` fails INVALID_ARGUMENT with `reason`, and its message names the value and its enum."""
    with pytest.raises(grpc.RpcError) as caught:
        result = call()
        if hasattr(result, "__next__"):  # a server stream fails on its first read
            next(result)
    error = caught.value
    info = error_info(error)
    assert (error.code(), info and info.reason) == (INVALID, reason), error.details()
    assert f"is {value}, not a {path[-1].enum_type.name}" in error.details()


@pytest.mark.parametrize(("method", "path", "value"), REQUEST_FIELDS)
def test_an_undefined_enum_value_in_a_request_is_refused(api, client, method, path, value):  # noqa: F811
    call = getattr(api.stub, method.name)
    request = base_request(method)
    set_at(request, path, value)
    keys = all_keys(client)
    refused_for(lambda: call(request, timeout=10), path, value, "UNKNOWN_ENUM_VALUE")
    assert all_keys(client) == keys  # nothing created or changed
    # The same request with a value the enum defines is not refused for it (it may be for another reason).
    request = base_request(method)
    set_at(request, path, path[-1].enum_type.values[-1].number)
    try:
        result = call(request, timeout=10)
        if hasattr(result, "__next__"):
            next(result, None)
            result.cancel()
    except grpc.RpcError as error:
        assert "UNKNOWN_ENUM_VALUE" not in (error.details() or ""), error.details()


def test_the_ai_services_requests_carry_enums_only_in_their_view():
    """AIService's requests (from the game service) hold no enum field of their own: their only enums are inside
    the view, an Any that the worker unpacks with games.wire.view_from_any, which refuses undefined values (below).
    A request field with an enum added there must be checked at the worker's edge, as GameService's are."""
    service = ai_service_pb2.DESCRIPTOR.services_by_name["AIService"]
    assert {m.name: [name(p) for p in enum_paths(m.input_type)] for m in service.methods} == {
        m.name: [] for m in service.methods}


GAMES = sorted(g.info.name for g in registry.all_games() if g.info.name != "toy")
MOVE_FIELDS = [pytest.param(game, path, value, id=f"{game}-{name(path)}={value}")
               for game in GAMES for path in enum_paths(wire.wire_of(registry.get(game)).move_message.DESCRIPTOR)
               for value in UNDEFINED]
VIEW_FIELDS = [pytest.param(game, path, id=f"{game}-{name(path)}")
               for game in GAMES for path in enum_paths(wire.wire_of(registry.get(game)).view_message.DESCRIPTOR)]


@pytest.fixture(scope="module")
def started_games(api):
    """A started game of each type, every seat human: game type -> (game id, a seat to act and its token)."""
    games = {}
    for game_type in GAMES:
        seats = max(2, registry.get(game_type).info.min_seats)
        created = api.create(game_type, [HUMAN] * seats, start=True)
        tokens = {t.seat: t.token for t in created.seat_tokens}
        state = api.state(created.game_id, tokens[0])
        seat = state.to_act[0]
        games[game_type] = (created.game_id, tokens[seat])
    return games


@pytest.mark.parametrize(("game_type", "path", "value"), MOVE_FIELDS)
def test_an_undefined_enum_value_in_a_typed_move_is_refused(api, client, started_games, game_type, path,  # noqa: F811
                                                            value):
    game_id, token = started_games[game_type]
    move = wire.wire_of(registry.get(game_type)).move_message()
    set_at(move, path, value)
    before = snapshot(client, game_id)
    refused_for(lambda: api.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, typed_move=pack(move)),
                                          metadata=api.auth(token), timeout=10), path, value, "INVALID_MOVE")
    assert snapshot(client, game_id) == before


@pytest.mark.parametrize(("game_type", "path"), VIEW_FIELDS)
def test_an_undefined_enum_value_in_a_view_is_refused(game_type, path):
    """The view an AIService request carries (and the worker rebuilds the engine's view from)."""
    game = registry.get(game_type)
    view = wire.wire_of(game).view_message()
    set_at(view, path, 99)
    with pytest.raises(WireError, match=f"is 99, not a {path[-1].enum_type.name}"):
        wire.view_from_any(game, pack(view))
