"""Fuzzing the game service: thousands of malformed and random requests against a real `tabletop serve` process
over a real Redis. The rule they check (docs/ARCHITECTURE.md, errors): "malformed input INVALID_ARGUMENT ...
Never INTERNAL for bad input." So: no INTERNAL, no UNKNOWN, no crash (the process stays healthy and then stops
cleanly on SIGTERM), and no change to any game unless the request that made it was answered OK."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest
import redis
from google.protobuf import descriptor, json_format, struct_pb2
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2

from service.errors import error_info
from service.store import event_from_entry, events_key, game_key, state_key, unpack_state
from service.tables import Replay
from tabletop.stack.embedded_redis import EmbeddedRedis, free_port
from tabletop.stack.launcher import wait_serving
from tabletop.v1 import ai_service_pb2, game_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb
from tests.ai.test_worker import _stop
from tests.support.waiting import health_status, wait_until

ROOT = Path(__file__).resolve().parents[2]
AI_TOKEN = "fuzz-ai-service-token"
# `make test` runs a short fuzz; `make fuzz` a long one (TABLETOP_FUZZ_REQUESTS=1000000, its seed in
# TABLETOP_FUZZ_SEED), printing the count and the seconds.
REQUESTS = int(os.environ.get("TABLETOP_FUZZ_REQUESTS", "6000"))
SEED = int(os.environ.get("TABLETOP_FUZZ_SEED", "20261129"))
FORBIDDEN = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
HUMAN, AI, OPEN = pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_AI, pb.SEAT_KIND_OPEN
SERVICE = "/tabletop.v1.GameService/"
METHODS = tuple(m.name for m in pb.DESCRIPTOR.services_by_name["GameService"].methods)  # every RPC, new ones too
AI_METHOD = "/tabletop.v1.AIService/SuggestMove"  # the worker's RPC, fuzzed next to them
CHUNK = 5000  # requests between two checks: each chunk gets fresh fixture games (its requests finish and resign some)


class ServeProcess:
    """`tabletop serve` as a child process on a free port over `redis_url`, SERVING before it is handed out."""

    def __init__(self, redis_url: str, log_path: Path, **env: str):
        self.port = free_port()
        self.log = log_path.open("w+")
        self.env = {**os.environ, "TABLETOP_REDIS_URL": redis_url, "TABLETOP_GRPC_PORT": str(self.port),
                    "TABLETOP_METRICS_PORT": "0", "TABLETOP_AI_SERVICE_TOKEN": AI_TOKEN,
                    "TABLETOP_AI_TARGET": f"127.0.0.1:{free_port()}", "TABLETOP_SHUTDOWN_GRACE_SECONDS": "2",
                    "TABLETOP_LOG_LEVEL": "warning", **env}
        self.proc = subprocess.Popen([sys.executable, "-m", "commands.cli", "serve"], cwd=ROOT, env=self.env,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.channel = grpc.insecure_channel(self.target)
        self.stub = game_service_pb2_grpc.GameServiceStub(self.channel)
        self.wait_ready(30)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def output(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return Path(self.log.name).read_text()

    def wait_ready(self, timeout: float, wanted: int = health_pb2.HealthCheckResponse.SERVING) -> None:
        """Wait until GameService's readiness is `wanted` (SERVING or NOT_SERVING) while the process runs."""
        def reached() -> bool:
            assert self.proc.poll() is None, self.output()
            return health_status(self.channel, "tabletop.v1.GameService") == wanted

        wait_until(reached, timeout, f"GameService {health_pb2.HealthCheckResponse.ServingStatus.Name(wanted)}")

    def stop(self) -> int:
        """SIGTERM and wait: the exit code (0 = a clean, graceful stop)."""
        self.channel.close()
        _stop(self.proc)
        self.log.close()
        return self.proc.returncode


@pytest.fixture
def serve(redis_db_url, tmp_path):
    process = ServeProcess(redis_db_url, tmp_path / "serve.log")
    yield process
    process.stop()


def auth(token: str | None, seat: int | None = None) -> list[tuple[str, str]]:
    metadata = [("authorization", f"Bearer {token}")] if token else []
    if seat is not None:
        metadata.append(("x-tabletop-seat", str(seat)))
    return metadata


# --- random inputs ----------------------------------------------------------------------------------------------

PRINTABLE = [chr(c) for c in range(0x20, 0x7F)]
UNICODE = [chr(c) for c in (*range(0x00, 0x20), 0x7F, 0xA0, 0xAD, 0x200B, 0x202E, 0xFEFF, 0xFFFF, 0x1F600,
                            0x10FFFF, *range(0x3040, 0x3060))]


def random_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.1:
        return ""
    if kind < 0.2:
        return rng.choice("xyz{}*:.-_") * rng.choice((64, 65, 129, 257, 4096, 70_000))  # around every length cap
    if kind < 0.5:
        return "".join(rng.choices(UNICODE + PRINTABLE, k=rng.randint(1, 40)))
    if kind < 0.6:
        return rng.choice(("hinode", "naishi", "toy", "HINODE", " hinode", "hinode\x00", "../hinode", "null"))
    return "".join(rng.choices(PRINTABLE, k=rng.randint(1, 40)))


def random_int(rng: random.Random, bits: int = 64, signed: bool = True) -> int:
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return max(low, min(high, rng.choice((0, 1, -1, 2, 3, 4, 5, 7, 13, 39, 40, 255, 1 << 20, high, low,
                                          rng.randint(low, high)))))


def random_json(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "[" * rng.choice((100, 1000, 8000)) + "]" * rng.choice((0, 100))  # nesting deeper than json allows
    if kind < 0.3:
        return random_text(rng)
    if kind < 0.4:
        return json.dumps(rng.choice(([1, 2], "x", 3, None, True, 1e308)))
    value = rng.choice((True, False, 0, -1, 1 << 70, 1.5, float("nan"), "seat0", "seat3", "random", "x" * 300, None,
                        [], {}, {"a": [1, {"b": None}]}))
    keys = ("advanced", "start_player", "skills", "proxies", "cards", "double", random_text(rng))
    doc = {rng.choice(keys): value for _ in range(rng.randint(1, 3))}
    return json.dumps(doc, allow_nan=True)


def fill_random(message: Message, rng: random.Random, depth: int = 0) -> Message:
    """Set a random subset of the message's fields to random values (any enum number, nested messages)."""
    for field in message.DESCRIPTOR.fields:
        if rng.random() < 0.5:
            continue
        repeated = field.is_repeated
        if field.message_type is not None:
            if depth >= 4:
                continue
            if field.message_type.GetOptions().map_entry:
                target = getattr(message, field.name)
                for _ in range(rng.randint(0, 3)):
                    key = random_text(rng)[:20]
                    value_field = field.message_type.fields_by_name["value"]
                    if value_field.message_type is not None:
                        fill_random(target[key], rng, depth + 1)
                    else:
                        target[key] = _scalar(value_field, rng)
            elif repeated:
                for _ in range(rng.choice((0, 1, 2, 4, 5, 40))):
                    fill_random(getattr(message, field.name).add(), rng, depth + 1)
            else:
                fill_random(getattr(message, field.name), rng, depth + 1)
                getattr(message, field.name).SetInParent()
        elif repeated:
            getattr(message, field.name).extend(_scalar(field, rng) for _ in range(rng.randint(0, 5)))
        else:
            setattr(message, field.name, _scalar(field, rng))
    return message


def _scalar(field: descriptor.FieldDescriptor, rng: random.Random):
    t = field.type
    fd = descriptor.FieldDescriptor
    if t == fd.TYPE_STRING:
        return random_text(rng)
    if t == fd.TYPE_BYTES:
        return rng.randbytes(rng.randint(0, 64))
    if t == fd.TYPE_BOOL:
        return rng.random() < 0.5
    if t in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT):
        return rng.choice((0.0, -1.0, 0.5, 59.9, 61.0, 1e300, -1e300, float("inf"), float("nan")))
    if t == fd.TYPE_ENUM:
        return rng.randint(-3, 9)  # unknown numbers too: proto3 enums are open
    if t in (fd.TYPE_INT32, fd.TYPE_SINT32, fd.TYPE_SFIXED32):
        return random_int(rng, 32)
    if t in (fd.TYPE_UINT32, fd.TYPE_FIXED32):
        return random_int(rng, 32, signed=False)
    if t in (fd.TYPE_UINT64, fd.TYPE_FIXED64):
        return random_int(rng, 64, signed=False)
    return random_int(rng, 64)


# --- the fuzzer -------------------------------------------------------------------------------------------------


class Fuzzer:
    """Knows the fixture games (ids, tokens, codes, legal move ids) and makes requests that mix them with junk."""

    def __init__(self, stub, games: dict[str, dict], protected: str):
        self.stub = stub
        self.games = games
        self.protected = protected  # a game the fuzzer never sends a legal move id for: it must not change
        self.tokens = [t for g in games.values() for t in (*g["tokens"].values(), g["creator"])]
        self.tokens_elsewhere = [t for gid, g in games.items() if gid != protected
                                 for t in (*g["tokens"].values(), g["creator"])]
        self.move_ids = [i for gid, g in games.items() if gid != protected for i in g["legal"]]

    def game_id(self, rng: random.Random) -> str:
        return rng.choice(list(self.games)) if rng.random() < 0.7 else random_text(rng)

    def metadata(self, rng: random.Random, game_id: str | None = None) -> list[tuple[str, str]]:
        kind = rng.random()
        game = self.games.get(game_id)
        if kind < 0.15:
            return []
        if kind < 0.45 and game:
            return auth(rng.choice(list(game["tokens"].values()) + [game["creator"]]))
        if kind < 0.6:
            return auth(rng.choice(self.tokens))
        if kind < 0.7:
            return auth(AI_TOKEN, rng.choice((None, 0, 1, 3, -1, 99)))
        if kind < 0.8:
            return [("x-tabletop-seat", "".join(rng.choices(PRINTABLE, k=rng.randint(0, 12)))),
                    ("authorization", f"Bearer {AI_TOKEN}")]
        scheme = rng.choice(("Bearer ", "bearer ", "Basic ", "", "Bearer  ", "Token "))
        return [("authorization", scheme + "".join(rng.choices(PRINTABLE, k=rng.choice((0, 1, 43, 256, 257, 2000)))))]

    def move(self, rng: random.Random, request: pb.MakeMoveRequest) -> None:
        kind = rng.random()
        if kind < 0.35 and request.game_id != self.protected and self.move_ids:
            request.move_id = rng.choice(self.move_ids)
        elif kind < 0.55:
            request.move_id = rng.choice(("card:1", "card:39", "take:blue", "area:3", "tribe:0", "end", "play:0"))
        elif kind < 0.7:
            request.move_id = random_text(rng)
        elif kind < 0.8:  # a real move type with random bytes: it must parse, or be refused cleanly
            request.typed_move.type_url = rng.choice((
                "type.googleapis.com/tabletop.v1.HinodeMove", "type.googleapis.com/tabletop.v1.NaishiMove",
                "type.googleapis.com/google.protobuf.Struct", "type.googleapis.com/tabletop.v1.HinodeView",
            ))
            request.typed_move.value = rng.randbytes(rng.choice((0, 1, 5, 40, 300)))
        elif kind < 0.85:  # a Struct of random JSON (the wire of games without typed messages)
            try:
                request.typed_move.Pack(json_format.Parse(random_json(rng), struct_pb2.Struct()))
            except json_format.ParseError:
                request.typed_move.Pack(struct_pb2.Struct())
        else:
            fill_random(request.typed_move, rng)
        if rng.random() < 0.6:
            request.expected_version = rng.choice((0, 1, 2, 3, -1, 1 << 62, random_int(rng)))
        if rng.random() < 0.5:
            request.request_id = random_text(rng)

    def request(self, rng: random.Random) -> tuple[str, Message, list[tuple[str, str]]]:
        """One random request: (method, message, metadata)."""
        method = rng.choice(METHODS + ("MakeMove",) * 3)  # the write path gets the most
        request = getattr(pb, f"{method}Request")()
        if rng.random() < 0.25:
            fill_random(request, rng)  # anything at all, descriptor-driven
            return method, request, self.metadata(rng)
        if method == "CreateGame" and rng.random() < 0.3:  # well formed but for at most one odd field
            request.game_type = rng.choice(("hinode", "naishi", "zipang", "kung-fur-fight"))
            for _ in range(rng.choice((2, 2, 3, 4))):
                request.seats.add(kind=rng.choice((HUMAN, AI, OPEN)), name=rng.choice(("", "Ann", "Bo b")),
                                  strength=rng.choice(("", "easy", "normal", "hard")))
            request.start = rng.random() < 0.5
            request.visibility = rng.choice((0, 1, 2))
            if rng.random() < 0.3:
                request.timer.turn_seconds = rng.choice((0, 1, 30, 86400, 86401, -1))
                request.timer.on_timeout = rng.choice((0, 1, 2, 7))
            if rng.random() < 0.3:
                odd = rng.choice(("seats", "name", "options", "type"))
                if odd == "seats":
                    request.seats[0].kind = rng.choice((0, 4, -1))
                elif odd == "name":
                    request.seats[0].name = random_text(rng)
                elif odd == "options":
                    request.options_json = random_json(rng)
                else:
                    request.game_type = random_text(rng)
        elif method == "CreateGame":
            request.game_type = rng.choice(("hinode", "naishi", "hinode", random_text(rng)))
            if rng.random() < 0.5:
                request.options_json = random_json(rng)
            elif rng.random() < 0.5:
                request.options_struct.update({random_text(rng)[:10]: rng.choice((1, "x", True, None, [1], {}))})
            for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 7, 100, 1000))):
                request.seats.add(kind=rng.choice((HUMAN, AI, OPEN, 0, 4, -1, 1 << 20)), name=random_text(rng)[:80],
                                  strength=rng.choice(("", "easy", "hard", random_text(rng))))
            request.start = rng.random() < 0.5
        elif method == "JoinGame":
            waiting = [g["join_code"] for g in self.games.values() if g["join_code"]]
            request.join_code = rng.choice(waiting + [random_text(rng), f"{self.game_id(rng)}.{random_text(rng)}"])
            request.name = random_text(rng)[:70]
            if rng.random() < 0.7:
                request.seat = random_int(rng, 32)
        elif method == "MakeMove":
            request.game_id = self.game_id(rng)
            self.move(rng, request)
            return method, request, self.metadata(rng, request.game_id)
        elif method == "WatchGame":
            request.game_id = self.game_id(rng)
            request.from_version = random_int(rng)
        elif method == "SuggestMove":
            fill_random(request, rng)
            request.game_id = self.game_id(rng)
            if rng.random() < 0.6:  # mostly small budgets: a search that runs costs real time
                request.iterations = rng.choice((0, 1, 5, 40, -1, 1 << 30))
        elif method == "ListGames":
            request.game_type = rng.choice(("", "hinode", "naishi", random_text(rng)))
            request.min_open_seats = random_int(rng, 32) if rng.random() < 0.5 else rng.randint(0, 4)
            request.page_size = random_int(rng, 32) if rng.random() < 0.5 else rng.randint(0, 120)
            request.page_token = rng.choice(("", random_text(rng), "AAAA", "eyJ4IjoxfQ", "0-0", "1-1.2"))
        elif method == "ListMyGames":  # no identity configured here: IDENTITY_REQUIRED or INVALID_ARGUMENT
            request.page_size = random_int(rng, 32) if rng.random() < 0.5 else rng.randint(0, 120)
            request.page_token = rng.choice(("", random_text(rng), "AAAA", "eyJ4IjoxfQ"))
            return method, request, self.metadata(rng, None)
        elif method == "ListFinishedGames":  # no database here: UNAVAILABLE once the request is valid
            request.player_id = rng.choice(("", "alice", random_text(rng)))
            request.game_type = rng.choice(("", "hinode", random_text(rng)))
            request.page_size = random_int(rng, 32) if rng.random() < 0.5 else rng.randint(0, 120)
            request.page_token = rng.choice(("", random_text(rng), "AAAA", "eyJ4IjoxfQ"))
            return method, request, self.metadata(rng, None)
        elif method == "GetRatings":  # no database here: UNAVAILABLE once the request is valid
            request.player_id = rng.choice(("", "alice", "ai:hard", random_text(rng)))
            return method, request, self.metadata(rng, None)
        elif method == "GetLeaderboard":
            request.game_type = rng.choice(("", "hinode", random_text(rng)))
            request.page_size = random_int(rng, 32) if rng.random() < 0.5 else rng.randint(0, 120)
            request.page_token = rng.choice(("", random_text(rng), "AAAA", "eyJ4IjoxfQ"))
            return method, request, self.metadata(rng, None)
        elif method in ("LeaveGame", "Resign"):  # they change a game: never with a token of the protected one
            request.game_id = self.game_id(rng)
            if request.game_id == self.protected:
                return method, request, rng.choice(([], auth(rng.choice(self.tokens_elsewhere))))
        elif method != "ListGameTypes":
            request.game_id = self.game_id(rng)
        return method, request, self.metadata(rng, getattr(request, "game_id", None))

    def ai_request(self, rng: random.Random) -> tuple[str, Message, list[tuple[str, str]]]:
        """A request to the worker's AIService: a real seat's view (maybe mutated) or anything at all."""
        request = ai_service_pb2.AIServiceSuggestMoveRequest()
        if rng.random() < 0.3:
            fill_random(request, rng)
        else:
            game_id = rng.choice(list(self.games))
            game = self.games[game_id]
            seat, view = rng.choice(game["views"]) if game["views"] else (0, None)
            request.game_type = game["type"] if rng.random() < 0.9 else random_text(rng)
            request.seat = seat if rng.random() < 0.8 else random_int(rng, 32)
            if view is not None:
                request.view.CopyFrom(view)
            if rng.random() < 0.3:
                raw = bytearray(request.view.value or b"\x00")
                for _ in range(rng.randint(1, 4)):
                    raw[rng.randrange(len(raw))] = rng.randrange(256)
                request.view.value = bytes(raw[: rng.randint(0, len(raw))])
            elif rng.random() < 0.1:
                request.view.type_url = random_text(rng)
            request.strength = rng.choice(("", "easy", "normal", "hard", random_text(rng)))
            request.iterations = rng.choice((0, 1, 3, 20, -5, 1 << 30))
            request.time_budget_seconds = rng.choice((0.0, 0.0, 0.01, 0.05, -1.0, 61.0, float("nan"), float("inf")))
            if rng.random() < 0.5:
                request.seed = random_int(rng, 64, signed=False)
        token = AI_TOKEN if rng.random() < 0.9 else "".join(rng.choices(PRINTABLE, k=rng.randint(1, 60)))
        return AI_METHOD, request, auth(token)


def call(channel: grpc.Channel, method: str, payload: bytes, metadata) -> tuple[grpc.StatusCode, bytes | None, str]:
    """Send serialized bytes to a method (generic channel, identity serializers): (code, response, details)."""
    try:
        if method == "WatchGame":
            stream = channel.unary_stream(SERVICE + method)(payload, metadata=metadata, timeout=0.5)
            first = next(iter(stream), None)
            stream.cancel()
            return grpc.StatusCode.OK, first, ""
        path = method if method.startswith("/") else SERVICE + method
        timeout = 2 if "SuggestMove" in method else 10  # a search answers within the caller's deadline
        response = channel.unary_unary(path)(payload, metadata=metadata, timeout=timeout)
        return grpc.StatusCode.OK, response, ""
    except grpc.RpcError as error:
        if method == "WatchGame" and error.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED):
            return grpc.StatusCode.OK, None, ""  # a live stream that the client left
        try:
            info = error_info(error)
        except ValueError as unreadable:  # e.g. the status was dropped for trailers too large
            return error.code(), None, f"{error.details()} [no ErrorInfo: {unreadable}]"
        return error.code(), None, f"{error.details()} [{info.reason if info else 'no ErrorInfo'}]"


def snapshot(client: redis.Redis, game_ids) -> dict[str, tuple]:
    return {g: (client.hgetall(game_key(g)), client.xrange(events_key(g)), client.get(state_key(g))) for g in game_ids}


def make_fixture_games(stub) -> dict[str, dict]:
    """Games in every life stage: started 4- and 2-seat Hinode, started Naishi, one waiting with open seats, one
    with AI seats, one finished-looking early Hinode position."""
    games = {}
    specs = [("hinode", [HUMAN] * 4, True), ("hinode", [HUMAN, HUMAN], True), ("naishi", [HUMAN, HUMAN], True),
             ("hinode", [HUMAN, OPEN, OPEN], False), ("naishi", [HUMAN, AI], True), ("hinode", [HUMAN] * 3, True)]
    for game_type, kinds, start in specs:
        created = stub.CreateGame(pb.CreateGameRequest(game_type=game_type, seats=[pb.SeatSpec(kind=k) for k in kinds],
                                                       start=start))
        tokens = {t.seat: t.token for t in created.seat_tokens}
        legal, views = [], []
        for seat, token in tokens.items():
            state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth(token)).state
            legal += [m.id for m in state.legal_moves]
            views.append((seat, state.view))
        games[created.game_id] = {"tokens": tokens, "creator": created.creator_token, "legal": legal,
                                  "views": views, "join_code": "" if start else created.join_code,
                                  "type": game_type}
    return games


def test_bytes_that_are_no_message_are_invalid_argument(serve):
    """Corrupt wire format and invalid UTF-8 in a string field are malformed input, not UNKNOWN (gRPC's answer
    when the request cannot be parsed)."""
    for method in METHODS:
        # ListGameTypesRequest has no fields: a well-formed field 1 is an unknown field, which proto3 keeps.
        # ListMyGamesRequest's first string field is field 2 (page_token): its bad UTF-8 goes there.
        payloads = (b"\xff\xff\xff", b"\x0a\x80") if method == "ListGameTypes" else (
            b"\xff\xff\xff", b"\x12\x02\xc3\x28", b"\x0a\x80") if method == "ListMyGames" else (
            b"\xff\xff\xff", b"\x0a\x02\xc3\x28", b"\x0a\x80")
        for payload in payloads:
            code, _, details = call(serve.channel, method, payload, [])
            assert code == grpc.StatusCode.INVALID_ARGUMENT, (method, payload, details)
            assert "MALFORMED_REQUEST" in details


def test_deeply_nested_options_json_is_invalid_options(serve):
    """options_json nested deeper than the JSON parser recurses is malformed input (INVALID_OPTIONS)."""
    request = pb.CreateGameRequest(game_type="hinode", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                   options_json="[" * 10_000)
    code, _, details = call(serve.channel, "CreateGame", request.SerializeToString(), [])
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "INVALID_OPTIONS" in details, details


@pytest.fixture
def fuzz_stack(redis_db_url, tmp_path):
    """A `tabletop serve` whose SuggestMove goes to a real AI worker, both fuzzed. The worker's job streams are on
    a Redis of its own, so it never plays the fixture games' AI seats: every change to a game is a request's."""
    with EmbeddedRedis() as worker_redis:
        ai_port, metrics_port = free_port(), free_port()
        env = dict(os.environ, TABLETOP_REDIS_URL=worker_redis.url, TABLETOP_AI_SERVICE_TOKEN=AI_TOKEN,
                   TABLETOP_LOG_LEVEL="warning", TABLETOP_SHUTDOWN_GRACE_SECONDS="2",
                   TABLETOP_SERVICE_TARGET="127.0.0.1:1", TABLETOP_AI_GRPC_PORT=str(ai_port),
                   TABLETOP_AI_METRICS_PORT=str(metrics_port))
        worker_log = (tmp_path / "worker.log").open("w+")
        worker = subprocess.Popen([sys.executable, "-m", "commands.cli", "ai-worker"], cwd=ROOT, env=env,
                                  stdout=worker_log, stderr=subprocess.STDOUT)
        try:
            wait_serving(f"127.0.0.1:{ai_port}", worker, "AI worker")
            process = ServeProcess(redis_db_url, tmp_path / "serve.log", TABLETOP_AI_TARGET=f"127.0.0.1:{ai_port}")
            try:
                with grpc.insecure_channel(f"127.0.0.1:{ai_port}") as worker_channel:
                    yield process, worker, tmp_path / "worker.log", worker_channel
            finally:
                process.stop()
        finally:
            _stop(worker)
            worker_log.close()


def garble(payload: bytes, rng: random.Random, i: int) -> bytes:
    """Every fifth request: a valid request with flipped bits or cut short; every fiftieth: raw garbage."""
    if i % 50 == 0:
        return rng.randbytes(rng.choice((1, 100, 10_000)))
    if i % 5 == 0:
        raw = bytearray(payload or rng.randbytes(8))
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw[: rng.randint(0, len(raw))]) if rng.random() < 0.3 else bytes(raw)
    return payload


def fuzz_chunk(serve, worker_channel, client: redis.Redis, pool: ThreadPoolExecutor, rng: random.Random,
               count: int, first: int):
    """`count` random requests to every RPC around fresh fixture games, then the checks that no request failed
    internally and that no game changed except by a request answered OK. Returns the results."""
    games = make_fixture_games(serve.stub)
    protected = next(iter(games))
    before = snapshot(client, games)
    fuzzer = Fuzzer(serve.stub, games, protected)
    work = []
    for i in range(first, first + count):
        method, request, metadata = fuzzer.ai_request(rng) if rng.random() < 0.06 else fuzzer.request(rng)
        work.append((method, garble(request.SerializeToString(), rng, i), metadata))

    def send(item):
        method, payload, metadata = item
        channel = worker_channel if method == AI_METHOD else serve.channel
        return (method, payload, *call(channel, method, payload, metadata))

    results = list(pool.map(send, work))
    # Every refusal is the service's own, with its ErrorInfo (gRPC's own: a request over the size limit).
    bad = [(m, c, d, payload) for m, payload, c, _, d in results if c in FORBIDDEN or (
        c != grpc.StatusCode.OK and "no ErrorInfo" in d
        and c not in (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.DEADLINE_EXCEEDED))]
    for method, code, details, payload in bad:  # the whole request, to reproduce it
        print(f"fuzz: FAILED {method} {code.name} {details}\n  request bytes {payload.hex()}", flush=True)

    # No change to a game unless a request changing it was answered OK.
    changed_by_ok = set()
    for method, payload, code, _, _ in results:
        if code == grpc.StatusCode.OK and method in ("MakeMove", "JoinGame", "StartGame", "LeaveGame", "Resign"):
            parsed = getattr(pb, f"{method}Request").FromString(payload)
            changed_by_ok.add(parsed.game_id or parsed.join_code.partition(".")[0] if method == "JoinGame"
                              else parsed.game_id)
    after = snapshot(client, games)
    assert protected not in changed_by_ok and after[protected] == before[protected]
    for game_id in games:
        if game_id not in changed_by_ok:
            assert after[game_id] == before[game_id], game_id
        else:  # legitimately changed: still one event per version, and the events replay to the stored state
            fields, entries, state = after[game_id]
            assert int(fields[b"version"]) == len(entries) > len(before[game_id][1])
            rebuilt = Replay(serve_engine(games[game_id]["type"]))
            for entry_id, raw in entries:
                rebuilt.step(event_from_entry(entry_id, raw))
            if state:
                assert rebuilt.state == rebuilt.game.load_state(unpack_state(state))
    return results, len(bad)


def test_random_requests_to_every_rpc_never_fail_internally_crash_or_change_a_game(fuzz_stack, redis_db_url):
    """The fuzzer: REQUESTS random requests (default 6,000; `make fuzz` sends 1,000,000) to every GameService RPC
    and to the worker's AIService, mixing the fixture games' real ids, tokens, join codes, move ids and views with
    junk of every shape, flipped bits and raw garbage, sent 24 at a time."""
    serve, worker, worker_log, worker_channel = fuzz_stack
    rng = random.Random(SEED)
    client = redis.Redis.from_url(redis_db_url)
    codes: dict[tuple[str, str], int] = {}
    started = time.monotonic()
    sent = failures = 0
    with ThreadPoolExecutor(24) as pool:
        while sent < REQUESTS:
            count = min(CHUNK, REQUESTS - sent)
            results, failed = fuzz_chunk(serve, worker_channel, client, pool, rng, count, sent)
            failures += failed
            for method, _, code, _, _ in results:
                key = (method.rpartition("/")[2] if method != AI_METHOD else "AIService.SuggestMove", code.name)
                codes[key] = codes.get(key, 0) + 1
            sent += count
            if sent % 100_000 < CHUNK or sent == REQUESTS:
                print(f"fuzz: {sent:,} requests in {time.monotonic() - started:,.0f} s", flush=True)
    elapsed = time.monotonic() - started
    print(f"fuzz: {sent:,} requests (seed {SEED}) in {elapsed:,.1f} s, {sent / elapsed:,.0f}/s; {failures} answered "
          f"INTERNAL, UNKNOWN or without the service's ErrorInfo (each printed above with its bytes)")
    for (method, code), n in sorted(codes.items()):
        print(f"  {method:22} {code:20} {n:>9,}")

    assert failures == 0, f"{failures} requests failed internally (printed above)\n{serve.output()[-4000:]}"
    methods = {m for m, _ in codes}
    assert methods == {*METHODS, "AIService.SuggestMove"}, methods  # every RPC was reached
    assert {code for _, code in codes} >= {"OK", "INVALID_ARGUMENT", "UNAUTHENTICATED"}
    assert ("AIService.SuggestMove", "OK") in codes  # the worker searched real views, not only refused junk

    # No crash: both processes are alive and ready, and the service still plays a game.
    assert serve.proc.poll() is None
    assert health_status(serve.channel, "tabletop.v1.GameService") == health_pb2.HealthCheckResponse.SERVING
    assert worker.poll() is None, worker_log.read_text()[-4000:]
    created = serve.stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                                         start=True))
    state = serve.stub.GetState(pb.GetStateRequest(game_id=created.game_id),
                                metadata=auth(created.seat_tokens[0].token)).state
    assert state.legal_moves
    client.close()
    assert serve.stop() == 0, serve.output()
    assert "Traceback" not in serve.output()
    assert "Traceback" not in worker_log.read_text()


def serve_engine(game_type: str):
    from games import registry

    return registry.get(game_type)


@pytest.mark.parametrize("text", ["x" * 70_000, "\U0001F600" * 5000, "a{b}" * 3000])
def test_errors_quoting_a_huge_input_stay_readable(serve, text):
    """A status quoting a long bad input is cut short: gRPC drops a call whose trailers pass 8 KiB, and the
    client would get RESOURCE_EXHAUSTED without the reason."""
    request = pb.CreateGameRequest(game_type=text, seats=[pb.SeatSpec(kind=HUMAN)] * 2)
    code, _, details = call(serve.channel, "CreateGame", request.SerializeToString(), [])
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.endswith("[UNKNOWN_GAME_TYPE]"), details[-300:]


def test_struct_options_of_any_shape_are_refused_or_accepted_cleanly(serve):
    """options_struct carries JSON-like values of any type; each is either a valid option or INVALID_OPTIONS."""
    rng = random.Random(7)
    for _ in range(200):
        options = struct_pb2.Struct()
        fill_random(options, rng)
        request = pb.CreateGameRequest(game_type=rng.choice(("hinode", "naishi")),
                                       seats=[pb.SeatSpec(kind=HUMAN)] * 2, options_struct=options)
        code, _, details = call(serve.channel, "CreateGame", request.SerializeToString(), [])
        assert code in (grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT), details
