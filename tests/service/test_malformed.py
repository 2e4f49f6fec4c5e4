"""Every malformed input is INVALID_ARGUMENT (or the documented code) with an ErrorInfo reason, never INTERNAL or
UNKNOWN, and a refused request changes nothing (issue 14). Each RPC's string fields get lone surrogates (through
JSON escapes: a proto string cannot carry one), NUL bytes, huge strings; numbers get NaN and infinities; JSON gets
deep nesting; the typed move (an Any) gets odd type URLs and garbage bytes; metadata gets odd values."""

from __future__ import annotations

import base64
import json

import grpc
import pytest
import redis
from google.protobuf import any_pb2, struct_pb2
from google.protobuf.internal.encoder import _VarintBytes

from service.errors import error_info
from service.store import events_key, game_key, requests_key
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import AI_TOKEN, HUMAN, OPEN

INVALID = grpc.StatusCode.INVALID_ARGUMENT
HUGE = 200_000  # characters: well under the 1 MiB message limit, far over every field's own limit


@pytest.fixture(scope="module")
def client(redis_url):
    connection = redis.Redis.from_url(redis_url)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def started(api):
    """A started toy game with two human seats: (game id, seat tokens)."""
    created = api.create("toy", [HUMAN, HUMAN], start=True)
    return created.game_id, [t.token for t in created.seat_tokens]


@pytest.fixture(scope="module")
def waiting(api):
    """A public toy game waiting for its open seat: (game id, creator token, join code)."""
    created = api.create("toy", [HUMAN, OPEN], visibility=pb.VISIBILITY_PUBLIC)
    return created.game_id, created.creator_token, created.join_code


def snapshot(client: redis.Redis, game_id: str) -> tuple:
    return (client.hgetall(game_key(game_id)), client.xrange(events_key(game_id)),
            client.hgetall(requests_key(game_id)))


def refused(call, code: grpc.StatusCode, *reasons: str) -> str:
    """Run `call`, which must fail with `code` and an ErrorInfo of one of `reasons`; return the reason."""
    with pytest.raises(grpc.RpcError) as caught:
        result = call()
        if hasattr(result, "__next__"):  # a server stream fails on its first read
            next(result)
    error = caught.value
    info = error_info(error)
    assert error.code() == code, (error.code(), error.details(), info)
    assert info is not None and info.domain == "tabletop.dev", error.details()
    assert info.reason in reasons, (info.reason, error.details())
    assert len(error.details().encode()) <= 1024
    return info.reason


def all_keys(client: redis.Redis) -> set[bytes]:
    """Every key but the timekeeper's leases, which the replica takes and renews on its own clock: no game data."""
    return {key for key in client.scan_iter(count=1000) if not key.startswith(b"tabletop:timekeeper:")}


# --- CreateGame -------------------------------------------------------------------------------------------------

BAD_OPTIONS_JSON = [
    pytest.param('{"\\ud800": true}', id="lone-surrogate-option-name"),
    pytest.param('{"\\udfff\\ud800": true}', id="reversed-surrogates-option-name"),
    pytest.param('{"double": "\\ud800"}', id="lone-surrogate-option-value"),
    pytest.param('{"double": true, "x": ["\\ud800"]}', id="lone-surrogate-nested"),
    pytest.param('{"double": NaN}', id="nan"),
    pytest.param('{"double": Infinity}', id="infinity"),
    pytest.param('{"double": -Infinity}', id="minus-infinity"),
    pytest.param('{"double": 1e400}', id="overflowing-number"),
    pytest.param('{"double": 1' + "0" * 5000 + "}", id="5000-digit-integer"),
    pytest.param('{"double\\u0000": true}', id="nul-in-option-name"),
    pytest.param('{"double": true}\x00', id="nul-after-json"),
    pytest.param('{"double": "\x00"}', id="raw-nul-in-string"),
    pytest.param("[" * 100_00 + "]" * 100_00, id="deeply-nested"),
    pytest.param('{"double": ' + "[" * 900 + "]" * 900 + "}", id="nested-under-the-recursion-limit"),
    pytest.param('{"double": true, "pad": "' + "x" * (20 * 1024) + '"}', id="over-16-KiB"),
    pytest.param("x" * HUGE, id="huge-garbage"),
    pytest.param('"\\ud800"', id="not-an-object"),
    pytest.param("\ufeff{}", id="byte-order-mark"),
]


@pytest.mark.parametrize("options_json", BAD_OPTIONS_JSON)
def test_malformed_options_json_is_invalid_options(api, client, options_json):
    before = all_keys(client)
    refused(lambda: api.create("toy", [HUMAN, HUMAN], options_json=options_json), INVALID, "INVALID_OPTIONS")
    assert all_keys(client) == before


# The options of kind "json" (a data table override) take any JSON document, so their odd values reach the engine.
JSON_KIND_OPTIONS = [
    ("kung-fur-fight", 2, '{"data": {"\\ud800": {"ap": 5}}}'),
    ("kung-fur-fight", 2, '{"data": {"jonin": {"ap": NaN}}}'),
    ("kung-fur-fight", 2, '{"data": {"jonin": {"ap": Infinity}}}'),
    ("kung-fur-fight", 2, '{"data": {"start_sp": -Infinity}}'),
    ("kung-fur-fight", 2, '{"data": {"jonin": {"ap": 1e400}}}'),
    ("kung-fur-fight", 2, '{"data": {"jonin": {"ap": 1' + "0" * 400 + "}}}"),
    ("kung-fur-fight", 2, '{"data": {"jonin\\u0000": {"ap": 5}}}'),
    ("kung-fur-fight", 2, '{"data": ' + "[" * 500 + "]" * 500 + "}"),
    ("kung-fur-fight", 2, '{"data": "\\ud800"}'),
    ("zipang", 2, '{"cards": {"\\udc00": {"btl": 7}}}'),
    ("zipang", 2, '{"cards": {"warlord": {"btl": NaN}}}'),
    ("zipang", 2, '{"cards": {"warlord": {"btl": 1e308}}}'),
    ("hinode", 2, '{"nawabari_vp": {"\\ud800": [1, 2]}}'),
    ("hinode", 2, '{"nawabari_vp": {"white": [NaN, 5]}}'),
    ("hinode", 2, '{"nawabari_vp": {"white": [1e300, 5]}}'),
    ("hinode", 2, '{"nawabari_vp": {"white": ["\\ud800", 5]}}'),
]


@pytest.mark.parametrize(("game_type", "seats", "options_json"), JSON_KIND_OPTIONS)
def test_odd_values_of_json_options_are_invalid_options(api, client, game_type, seats, options_json):
    before = all_keys(client)
    refused(lambda: api.create(game_type, [HUMAN] * seats, options_json=options_json), INVALID, "INVALID_OPTIONS")
    assert all_keys(client) == before


def nested_struct(depth: int) -> struct_pb2.Struct:
    doc: object = 1
    for _ in range(depth):
        doc = {"a": doc}
    struct = struct_pb2.Struct()
    struct.update({"double": doc})
    return struct


def struct_of(doc: dict) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(doc)
    return struct


BAD_OPTIONS_STRUCT = [
    pytest.param(struct_of({"double": float("nan")}), id="nan"),
    pytest.param(struct_of({"double": float("inf")}), id="infinity"),
    pytest.param(struct_of({"double": [1, float("-inf")]}), id="nested-minus-infinity"),
    pytest.param(struct_of({"double\x00": True}), id="nul-in-option-name"),
    pytest.param(struct_of({"double": "\x00"}), id="nul-in-option-value"),
    pytest.param(struct_of({"x" * HUGE: True}), id="huge-option-name"),
    pytest.param(struct_of({"double": "x" * HUGE}), id="huge-option-value"),
    pytest.param(struct_of({"double": 1e308}), id="huge-number"),
    pytest.param(nested_struct(30), id="nested"),
]


@pytest.mark.parametrize("options", BAD_OPTIONS_STRUCT)
def test_malformed_options_struct_is_invalid_options(api, client, options):
    before = all_keys(client)
    refused(lambda: api.create("toy", [HUMAN, HUMAN], options_struct=options), INVALID, "INVALID_OPTIONS")
    assert all_keys(client) == before


def field(number: int, payload: bytes) -> bytes:
    return _VarintBytes(number << 3 | 2) + _VarintBytes(len(payload)) + payload


def test_a_struct_nested_past_the_protobuf_limit_is_a_malformed_request(api, client):
    """The Python client refuses to build it, so the request is written by hand: Struct{"a": Value{Struct{...}}}."""
    struct = b""
    for _ in range(200):
        struct = field(1, field(1, b"a") + field(2, field(5, struct)))
    request = field(1, b"toy") + field(3, struct) + field(4, b"\x08\x01") * 2  # two human seats
    before = all_keys(client)
    call = api.channel.unary_unary("/tabletop.v1.GameService/CreateGame")
    refused(lambda: call(request, timeout=10), INVALID, "MALFORMED_REQUEST")
    assert all_keys(client) == before


ODD_STRINGS = [
    pytest.param("\x00", id="nul"),
    pytest.param("toy\x00", id="trailing-nul"),
    pytest.param("x" * HUGE, id="huge"),
    pytest.param("\u202e", id="bidi-override"),
    pytest.param("\U0010ffff", id="last-code-point"),
    pytest.param("\ufeff", id="byte-order-mark"),
]


@pytest.mark.parametrize("game_type", [*ODD_STRINGS, pytest.param("", id="empty")])
def test_odd_game_types_are_unknown(api, client, game_type):
    before = all_keys(client)
    refused(lambda: api.create(game_type, [HUMAN, HUMAN]), INVALID, "UNKNOWN_GAME_TYPE")
    if game_type:  # ListGames without a game type lists every type
        refused(lambda: api.stub.ListGames(pb.ListGamesRequest(game_type=game_type)), INVALID, "UNKNOWN_GAME_TYPE")
    assert all_keys(client) == before


@pytest.mark.parametrize("name", ODD_STRINGS[:4])
def test_odd_seat_names_are_invalid_names(api, client, name):
    before = all_keys(client)
    refused(lambda: api.create("toy", [pb.SeatSpec(kind=HUMAN, name=name), HUMAN]), INVALID, "INVALID_NAME")
    assert all_keys(client) == before


@pytest.mark.parametrize("strength", [*ODD_STRINGS, pytest.param("EASY", id="upper-case")])
def test_odd_strengths_are_invalid(api, client, strength):
    before = all_keys(client)
    refused(lambda: api.create("toy", [pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength=strength), HUMAN]), INVALID,
            "INVALID_STRENGTH")
    timer = pb.TurnTimer(turn_seconds=30, strength=strength)
    refused(lambda: api.create("toy", [HUMAN, HUMAN], timer=timer), INVALID, "INVALID_TIMER", "INVALID_STRENGTH")
    assert all_keys(client) == before


def test_odd_seat_kinds_counts_and_timers_are_invalid(api, client):
    before = all_keys(client)
    refused(lambda: api.create("toy", [HUMAN, 99]), INVALID, "UNKNOWN_ENUM_VALUE")  # tests/service/test_enum_values.py
    refused(lambda: api.create("toy", [-1, HUMAN]), INVALID, "UNKNOWN_ENUM_VALUE")
    refused(lambda: api.create("toy", [HUMAN] * 10_000), INVALID, "INVALID_SEAT_COUNT")
    for timer in (pb.TurnTimer(turn_seconds=-1), pb.TurnTimer(turn_seconds=2**31 - 1),
                  pb.TurnTimer(turn_seconds=30, away_after=-5), pb.TurnTimer(turn_seconds=30, away_after=2**31 - 1)):
        refused(lambda timer=timer: api.create("toy", [HUMAN, HUMAN], timer=timer), INVALID, "INVALID_TIMER")
    refused(lambda: api.create("toy", [HUMAN, HUMAN], seed=2**64 - 1), INVALID, "SEED_NOT_ALLOWED")
    assert all_keys(client) == before


# --- the calls that name a game ---------------------------------------------------------------------------------

BAD_GAME_IDS = [
    pytest.param("\x00", id="nul"),
    pytest.param("abc\x00", id="trailing-nul"),
    pytest.param("x" * HUGE, id="huge"),
    pytest.param("x" * 65, id="65-characters"),
    pytest.param("\u00e9t\u00e9", id="non-ascii"),
    pytest.param("\U0001f600", id="emoji"),
    pytest.param("../etc", id="path"),
    pytest.param("a}b{c", id="hash-tag-braces"),
    pytest.param("*", id="glob"),
    pytest.param("abc\n", id="trailing-newline"),
]


@pytest.mark.parametrize("game_id", BAD_GAME_IDS)
def test_odd_game_ids_are_invalid_game_ids_in_every_call(api, client, game_id):
    before = all_keys(client)
    stub, token = api.stub, api.auth("some-token")
    calls = [
        lambda: stub.StartGame(pb.StartGameRequest(game_id=game_id), metadata=token),
        lambda: stub.GetState(pb.GetStateRequest(game_id=game_id)),
        lambda: stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id="card:1"), metadata=token),
        lambda: stub.GetScore(pb.GetScoreRequest(game_id=game_id)),
        lambda: stub.WatchGame(pb.WatchGameRequest(game_id=game_id)),
        lambda: stub.SuggestMove(pb.SuggestMoveRequest(game_id=game_id), metadata=token),
        lambda: stub.LeaveGame(pb.LeaveGameRequest(game_id=game_id), metadata=token),
        lambda: stub.Resign(pb.ResignRequest(game_id=game_id), metadata=token),
        lambda: stub.JoinGame(pb.JoinGameRequest(game_id=game_id)),
    ]
    for call in calls:
        refused(call, INVALID, "INVALID_GAME_ID")
    assert all_keys(client) == before


@pytest.mark.parametrize("join_code", [
    pytest.param("\x00", id="nul"),
    pytest.param("\x00.\x00", id="nul-both-halves"),
    pytest.param("x" * HUGE, id="huge"),
    pytest.param("abc." + "s" * HUGE, id="huge-secret"),
    pytest.param(".secret", id="no-game-id"),
    pytest.param("abc.", id="no-secret"),
    pytest.param("\u00e9t\u00e9.secret", id="non-ascii-game-id"),
])
def test_malformed_join_codes(api, client, join_code):
    before = all_keys(client)
    refused(lambda: api.stub.JoinGame(pb.JoinGameRequest(join_code=join_code)), INVALID, "MALFORMED_JOIN_CODE")
    assert all_keys(client) == before


def test_odd_join_requests_change_nothing(api, client, waiting):
    game_id, _, join_code = waiting
    before = snapshot(client, game_id)
    stub = api.stub
    for name in ("\x00", "x" * HUGE, "\u202e"):
        refused(lambda name=name: stub.JoinGame(pb.JoinGameRequest(join_code=join_code, name=name)), INVALID,
                "INVALID_NAME")
        refused(lambda name=name: stub.JoinGame(pb.JoinGameRequest(game_id=game_id, name=name)), INVALID,
                "INVALID_NAME")
    for seat in (-1, 2, 2**31 - 1, -(2**31)):
        refused(lambda seat=seat: stub.JoinGame(pb.JoinGameRequest(join_code=join_code, seat=seat)), INVALID,
                "INVALID_SEAT")
    secret = join_code.partition(".")[2]
    for code in (f"{game_id}.{secret}\x00", f"{game_id}.\x00", f"{game_id}.{secret[::-1]}"):
        refused(lambda code=code: stub.JoinGame(pb.JoinGameRequest(join_code=code)), grpc.StatusCode.PERMISSION_DENIED,
                "INVALID_JOIN_CODE")
    refused(lambda: stub.JoinGame(pb.JoinGameRequest(join_code=join_code, game_id=game_id)), INVALID,
            "JOIN_CODE_OR_GAME_ID")
    assert snapshot(client, game_id) == before


# --- MakeMove ---------------------------------------------------------------------------------------------------

def packed(type_url: str, value: bytes = b"") -> any_pb2.Any:
    return any_pb2.Any(type_url=type_url, value=value)


def struct_move(doc: dict) -> any_pb2.Any:
    move = any_pb2.Any()
    move.Pack(struct_of(doc))
    return move


BAD_TYPED_MOVES = [
    pytest.param(any_pb2.Any(), id="empty"),
    pytest.param(packed("garbage"), id="no-prefix"),
    pytest.param(packed("type.googleapis.com/"), id="prefix-only"),
    pytest.param(packed("example.com/google.protobuf.Struct"), id="other-prefix"),
    pytest.param(packed("type.googleapis.com/tabletop.v1.HinodeMove"), id="another-games-move"),
    pytest.param(packed("type.googleapis.com/tabletop.v1.NoSuchMessage", b"\x08\x01"), id="unknown-message"),
    pytest.param(packed("type.googleapis.com/google.protobuf.Struct\x00"), id="nul-in-type-url"),
    pytest.param(packed("type.googleapis.com/" + "x" * HUGE), id="huge-type-url"),
    pytest.param(packed("type.googleapis.com/google.protobuf.Struct", b"\xff\xff\xff\xff"), id="garbage-bytes"),
    pytest.param(packed("type.googleapis.com/google.protobuf.Struct", b"\x0a\xff\xff\xff\xff\x0f"),
                 id="length-past-the-end"),
    pytest.param(packed("type.googleapis.com/google.protobuf.Struct", b"\x0a\x03\x0a\x01\xff"), id="bad-utf8-key"),
    pytest.param(packed("type.googleapis.com/google.protobuf.Struct", b"\x0a" * 2000), id="deep-garbage"),
    pytest.param(struct_move({}), id="empty-struct"),
    pytest.param(struct_move({"type": "Commit", "move": {"card": float("nan")}}), id="nan-card"),
    pytest.param(struct_move({"type": "Commit", "move": {"card": float("inf")}}), id="infinite-card"),
    pytest.param(struct_move({"type": "Commit", "move": {"card": "\x00"}}), id="nul-card"),
    pytest.param(struct_move({"type": "Commit", "move": {"card": 1, "extra": 2}}), id="extra-field"),
    pytest.param(struct_move({"type": "Commit", "move": "x" * HUGE}), id="huge-move"),
    pytest.param(struct_move({"type": "Commit\x00", "move": {"card": 1}}), id="nul-type"),
    pytest.param(struct_move({"type": "__class__", "move": {}}), id="dunder-type"),
]


@pytest.mark.parametrize("typed_move", BAD_TYPED_MOVES)
def test_malformed_typed_moves_are_invalid_moves(api, client, started, typed_move):
    game_id, tokens = started
    before = snapshot(client, game_id)
    request = pb.MakeMoveRequest(game_id=game_id, typed_move=typed_move, request_id="typed-move-probe")
    reason = refused(lambda: api.stub.MakeMove(request, metadata=api.auth(tokens[0])), INVALID, "INVALID_MOVE",
                     "MALFORMED_REQUEST")
    assert reason == "INVALID_MOVE" or typed_move.type_url.endswith("\x00")
    assert snapshot(client, game_id) == before


@pytest.mark.parametrize("typed_move", [
    pytest.param(struct_move({"type": "Commit", "move": {"card": -1}}), id="negative-card"),
    pytest.param(struct_move({"type": "Commit", "move": {"card": 2**62}}), id="card-out-of-range"),
    pytest.param(struct_move({"type": "Commit", "move": {"card": 1e300}}), id="huge-card"),
])
def test_well_formed_typed_moves_that_are_not_legal_are_refused_by_the_rules(api, client, started, typed_move):
    game_id, tokens = started
    before = snapshot(client, game_id)
    request = pb.MakeMoveRequest(game_id=game_id, typed_move=typed_move)
    refused(lambda: api.stub.MakeMove(request, metadata=api.auth(tokens[0])), grpc.StatusCode.FAILED_PRECONDITION,
            "ILLEGAL_MOVE", "INVALID_MOVE")
    assert snapshot(client, game_id) == before


def test_odd_move_ids_request_ids_and_versions_change_nothing(api, client, started):
    game_id, tokens = started
    before = snapshot(client, game_id)
    seat0 = api.auth(tokens[0])

    def move(**fields):
        return lambda: api.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, **fields), metadata=seat0)

    refused(move(), INVALID, "INVALID_MOVE")
    refused(move(move_id=""), INVALID, "INVALID_MOVE")
    refused(move(move_id="x" * HUGE), INVALID, "INVALID_MOVE")
    for move_id in ("\x00", "card:1\x00", "card:\U0010ffff", "card:NaN", "card:1e400", "card:-0", "card:" + "9" * 250):
        refused(move(move_id=move_id), grpc.StatusCode.FAILED_PRECONDITION, "UNKNOWN_MOVE")
    for request_id in ("\x00", "x" * HUGE, "a\nb", "\u202e"):
        refused(move(move_id="card:1", request_id=request_id), INVALID, "INVALID_REQUEST_ID")
    for version in (-1, -(2**63), 2**63 - 1):
        refused(move(move_id="card:1", expected_version=version), grpc.StatusCode.ABORTED, "VERSION_MISMATCH")
    assert snapshot(client, game_id) == before


# --- SuggestMove ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("budget", [float("nan"), float("inf"), float("-inf"), -1.0, 60.5, 1e308, -0.0 - 1e-300])
def test_odd_suggestion_budgets_are_invalid_budget(api, client, started, budget):
    game_id, tokens = started
    before = snapshot(client, game_id)
    request = pb.SuggestMoveRequest(game_id=game_id, time_budget_seconds=budget)
    refused(lambda: api.stub.SuggestMove(request, metadata=api.auth(tokens[0])), INVALID, "INVALID_BUDGET")
    assert snapshot(client, game_id) == before


def test_odd_suggestion_iterations_and_strengths_are_invalid(api, client, started):
    game_id, tokens = started
    before = snapshot(client, game_id)
    seat0 = api.auth(tokens[0])
    for iterations in (-1, -(2**31)):
        request = pb.SuggestMoveRequest(game_id=game_id, iterations=iterations)
        refused(lambda request=request: api.stub.SuggestMove(request, metadata=seat0), INVALID, "INVALID_BUDGET")
    for strength in ("\x00", "x" * HUGE, "EASY", "\U0010ffff"):
        request = pb.SuggestMoveRequest(game_id=game_id, strength=strength)
        refused(lambda request=request: api.stub.SuggestMove(request, metadata=seat0), INVALID, "INVALID_STRENGTH")
    assert snapshot(client, game_id) == before


# --- ListGames --------------------------------------------------------------------------------------------------

def token_of(doc) -> str:
    raw = json.dumps(doc, allow_nan=True) if not isinstance(doc, str) else doc
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


@pytest.mark.parametrize("page_token", [
    pytest.param("\x00", id="nul"),
    pytest.param("x" * HUGE, id="huge"),
    pytest.param("\u00e9", id="non-ascii"),
    pytest.param("!!!!", id="not-base64"),
    pytest.param(token_of('[1, "\\ud800", 0, 1, "abc"]'), id="lone-surrogate-inside"),
    pytest.param(token_of('[1, "", 0, NaN, "abc"]'), id="nan-inside"),
    pytest.param(token_of('[1, "", 0, Infinity, "abc"]'), id="infinity-inside"),
    pytest.param(token_of("[" * 300 + "]" * 300), id="nested"),
    pytest.param(token_of([1, "", 0, 1, "abc\x00"]), id="nul-game-id"),
    pytest.param(token_of([1, "", 0, 1, "x" * 65]), id="long-game-id"),
    pytest.param(token_of([1, "", 0, -1, "abc"]), id="negative-time"),
    pytest.param(token_of([1, "", 0, 10**40, "abc"]), id="huge-time"),
    pytest.param(token_of([1, "", True, 1, "abc"]), id="bool-seats"),
    pytest.param(token_of({"a": 1}), id="object"),
    pytest.param(token_of("\xff"), id="latin1"),
])
def test_malformed_page_tokens_are_invalid_page_tokens(api, page_token):
    refused(lambda: api.stub.ListGames(pb.ListGamesRequest(page_token=page_token)), INVALID, "INVALID_PAGE_TOKEN")


def test_odd_list_numbers_are_invalid(api):
    refused(lambda: api.stub.ListGames(pb.ListGamesRequest(page_size=-(2**31))), INVALID, "INVALID_PAGE_SIZE")
    refused(lambda: api.stub.ListGames(pb.ListGamesRequest(min_open_seats=-1)), INVALID, "INVALID_MIN_OPEN_SEATS")
    assert api.stub.ListGames(pb.ListGamesRequest(page_size=2**31 - 1, min_open_seats=2**31 - 1)).games == []


# --- metadata ---------------------------------------------------------------------------------------------------

def test_odd_metadata_is_refused_with_a_reason(api, client, started):
    game_id, tokens = started
    before = snapshot(client, game_id)
    get = pb.GetStateRequest(game_id=game_id)
    unauthenticated = grpc.StatusCode.UNAUTHENTICATED
    for value in ("Bearer", "Bearer ", "Basic abc", "bearer" + " x" * 10, "Bearer " + "x" * 257,
                  "x" * 4000):
        reasons = ("MALFORMED_AUTHORIZATION", "INVALID_TOKEN")
        refused(lambda value=value: api.stub.GetState(get, metadata=[("authorization", value)]), unauthenticated,
                *reasons)
    refused(lambda: api.stub.GetState(get, metadata=[("authorization", "Bearer not-a-token")]), unauthenticated,
            "INVALID_TOKEN")
    for seat in ("x", "", "1.5", "NaN", "inf", "0x1", "1e3"):
        refused(lambda seat=seat: api.stub.GetState(get, metadata=[("x-tabletop-seat", seat)]), INVALID,
                "MALFORMED_SEAT")
    for seat in ("-1", "2", "9" * 40):
        metadata = [("authorization", f"Bearer {AI_TOKEN}"), ("x-tabletop-seat", seat)]
        refused(lambda metadata=metadata: api.stub.GetState(get, metadata=metadata), grpc.StatusCode.PERMISSION_DENIED,
                "NOT_AN_AI_SEAT")
    refused(lambda: api.stub.GetState(get, metadata=[("authorization", f"Bearer {AI_TOKEN}")]), INVALID,
            "MISSING_SEAT")
    assert snapshot(client, game_id) == before


def test_watch_from_a_negative_version_is_invalid(api, started):
    game_id, _ = started
    request = pb.WatchGameRequest(game_id=game_id, from_version=-(2**63))
    refused(lambda: api.stub.WatchGame(request, timeout=5), INVALID, "INVALID_VERSION")


def test_an_error_that_quotes_a_lone_surrogate_still_becomes_a_status():
    """Whatever text an error quotes (an engine's message naming a caller's key), its status can be sent."""
    from service import errors

    error = errors.invalid("INVALID_OPTIONS", "unknown option(s): \ud800", option="\udfff" * 2000)
    status = error.to_status()
    assert "\\ud800" in status.details and len(error.metadata["option"].encode()) <= errors.MAX_MESSAGE_BYTES
