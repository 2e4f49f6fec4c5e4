"""10,000 racing requests over 40+ games, then every game is checked against the replay of its event stream.

The rule (docs/ARCHITECTURE.md, concurrency): "every write is a compare-and-set on the game's version ... so no
move is lost or applied twice. A move may carry `expected_version` (stale -> ABORTED) and a `request_id` (a retry
gets the first answer back, not a second move)." Concurrent clients play random legal moves in Hinode and Naishi
games against a real `tabletop serve` process: most with the version they saw, some without one, some sent twice
at once with the same request id, some retried later with it, some with a stale version. Afterwards, for every
game: the setup is `new_game` from the seed kept in the started event's state (read straight from the test's own
Redis: the seed never leaves the server), the moves of the stream applied to it give exactly the stored state,
and the moves in the stream are exactly the moves that were answered OK, each once, at the version its answer
gave, with the view its answer showed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from dataclasses import dataclass, field

import grpc
import pytest
import redis

from games import registry, wire
from games.base import Words
from service.errors import error_info
from service.store import read_stored, requests_key
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.test_fuzz import HUMAN, ServeProcess, auth

TOTAL_REQUESTS = 10_000
CLIENTS = 32
SETUPS = [("hinode", 4)] * 30 + [("naishi", 2)] * 10
C = grpc.StatusCode


@dataclass
class Game:
    game_id: str
    game_type: str
    tokens: dict[int, str]
    to_act: list[int] = field(default_factory=list)  # as last seen by any client: stale under races, on purpose
    finished: bool = False


@dataclass
class Ledger:
    """Every request sent and every move answered OK."""

    sent: int = 0
    acknowledged: list[tuple[str, int, pb.MakeMoveResponse, str]] = field(default_factory=list)
    codes: dict[str, int] = field(default_factory=dict)

    def count(self, key: str) -> None:
        self.codes[key] = self.codes.get(key, 0) + 1


async def create(stub, game_type: str, seats: int) -> Game:
    created = await stub.CreateGame(pb.CreateGameRequest(game_type=game_type, seats=[pb.SeatSpec(kind=HUMAN)] * seats,
                                                         start=True))
    return Game(created.game_id, game_type, {t.seat: t.token for t in created.seat_tokens})


async def move(stub, ledger: Ledger, game: Game, seat: int, request: pb.MakeMoveRequest, allowed: set[C]):
    """Send one MakeMove; an OK answer goes into the ledger; any other outcome must be one of `allowed`."""
    ledger.sent += 1
    try:
        answer = await stub.MakeMove(request, metadata=auth(game.tokens[seat]))
    except grpc.aio.AioRpcError as error:
        info = error_info(error)
        assert error.code() in allowed, (error.code(), info and info.reason, error.details())
        ledger.count(f"{error.code().name} {info.reason}")
        return error.code()
    ledger.acknowledged.append((game.game_id, seat, answer, request.request_id))
    game.to_act = list(answer.state.to_act)
    ledger.count("OK")
    return answer


async def client(stub, games: list[Game], ledger: Ledger, rng: random.Random, request_ids) -> None:
    while ledger.sent < TOTAL_REQUESTS:
        game = rng.choice(games)
        if game.finished:
            index = games.index(game)
            games[index] = game = await create(stub, game.game_type, len(game.tokens))
        seat = rng.choice(game.to_act if game.to_act and rng.random() < 0.9 else list(game.tokens))
        ledger.sent += 1
        state = (await stub.GetState(pb.GetStateRequest(game_id=game.game_id), metadata=auth(game.tokens[seat]))).state
        game.to_act = list(state.to_act)
        if state.status == pb.GAME_STATUS_FINISHED:
            game.finished = True
            continue
        if not state.legal_moves:
            continue
        move_id = rng.choice(state.legal_moves).id
        racing = {C.ABORTED}  # someone else moved first: VERSION_MISMATCH, or CONTENDED after many tries
        moved_on = {C.ABORTED, C.FAILED_PRECONDITION}  # without a version: the move may be illegal by now
        kind = rng.random()
        if kind < 0.5:  # the normal case: with the version seen and a fresh request id
            request = pb.MakeMoveRequest(game_id=game.game_id, move_id=move_id, expected_version=state.version,
                                         request_id=next(request_ids))
            await move(stub, ledger, game, seat, request, racing)
        elif kind < 0.62:  # no expected version: applied to whatever is current, if still legal there
            request = pb.MakeMoveRequest(game_id=game.game_id, move_id=move_id, request_id=next(request_ids))
            await move(stub, ledger, game, seat, request, moved_on)
        elif kind < 0.77:  # the same request twice at once (a client retrying a timed-out call)
            request = pb.MakeMoveRequest(game_id=game.game_id, move_id=move_id, expected_version=state.version,
                                         request_id=next(request_ids))
            first, second = await asyncio.gather(move(stub, ledger, game, seat, request, racing),
                                                 move(stub, ledger, game, seat, request, racing))
            if isinstance(first, pb.MakeMoveResponse) and isinstance(second, pb.MakeMoveResponse):
                assert first == second  # the retry got the first answer back
        elif kind < 0.87:  # a retry later with the same id gets the same outcome
            request = pb.MakeMoveRequest(game_id=game.game_id, move_id=move_id, expected_version=state.version,
                                         request_id=next(request_ids))
            first = await move(stub, ledger, game, seat, request, racing)
            await asyncio.sleep(rng.random() * 0.01)
            again = await move(stub, ledger, game, seat, request, racing)
            assert again == first, (first, again)
        else:  # an older version: refused if the game changed since in a way the seat sees (docs/api.md)
            expected = state.version - rng.randint(1, 3)
            request = pb.MakeMoveRequest(game_id=game.game_id, move_id=move_id, request_id=next(request_ids),
                                         expected_version=expected)
            outcome = await move(stub, ledger, game, seat, request, {C.ABORTED})
            # Only the other seat's secret gift, while this seat still chooses its own, is a change it cannot see;
            # then the move may go through (unless another client moved for the seat meanwhile).
            since = [e for e in state.recent_events if e.version > expected]
            unseen = move_id.startswith("give:") and len(since) == state.version - expected and all(
                e.kind == pb.GameEvent.KIND_MOVE and e.seat != seat and not e.move_id for e in since)
            assert unseen or outcome == C.ABORTED, (outcome, since)


async def race(target: str) -> tuple[list[Game], Ledger]:
    async with grpc.aio.insecure_channel(target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        games = list(await asyncio.gather(*(create(stub, t, n) for t, n in SETUPS)))
        every_game = list(games)
        ledger = Ledger()
        request_ids = (f"r{i}" for i in itertools.count())
        tracked = _Tracking(games, every_game)
        await asyncio.gather(*(client(stub, tracked, ledger, random.Random(i), request_ids) for i in range(CLIENTS)))
        return every_game, ledger


class _Tracking(list):
    """The games in play; every game ever put in (replacements of finished ones too) is kept in `every_game`."""

    def __init__(self, games: list[Game], every_game: list[Game]):
        super().__init__(games)
        self.every_game = every_game

    def __setitem__(self, index, game):
        super().__setitem__(index, game)
        self.every_game.append(game)


@pytest.fixture
def serve(redis_db_url, tmp_path):
    process = ServeProcess(redis_db_url, tmp_path / "serve.log")
    yield process
    process.stop()


def test_racing_requests_leave_every_game_equal_to_the_replay_of_its_events(serve, redis_db_url):
    every_game, ledger = asyncio.run(race(serve.target))
    assert ledger.sent >= TOTAL_REQUESTS
    assert ledger.codes["OK"] > 1000 and ledger.codes.get("ABORTED VERSION_MISMATCH", 0) > 100, ledger.codes

    answers: dict[str, dict[int, list[tuple[int, pb.MakeMoveResponse, str]]]] = {}
    for game_id, seat, answer, request_id in ledger.acknowledged:
        answers.setdefault(game_id, {}).setdefault(answer.version, []).append((seat, answer, request_id))

    client = redis.Redis.from_url(redis_db_url)  # bytes: stored states are zlib bytes
    try:
        finished = 0
        for game in every_game:
            record, stored = read_stored(client, game.game_id)
            entries = [(f"{e.version}-1", e.fields) for e in stored]
            engine = registry.get(game.game_type)
            names = tuple(seat.name for seat in record.seats)
            versions = [int(entry_id.split("-")[0]) for entry_id, _ in entries]
            assert versions == list(range(1, record.version + 1))
            kinds = [fields["kind"] for _, fields in entries]
            assert kinds[:2] == ["created", "started"] and set(kinds[2:]) <= {"move"}

            # The setup is new_game from the seed, which lives only server-side, inside the stored state.
            setup = engine.load_state(entries[1][1]["state"])
            assert setup == engine.new_game(len(game.tokens), json.loads(record.options), setup.seed)

            # The stream's moves (stored by id), applied to the setup, give exactly the stored state.
            state, states = setup, {2: setup}
            for version, (_, fields) in zip(versions[2:], entries[2:], strict=True):
                played = engine.move_by_id(state, int(fields["seat"]), fields["move_id"])
                mover = int(fields["seat"])
                assert played.describe(Words(names, mover, mover)) == fields["move_label"]
                assert fields["pub"] == ("1" if engine.move_is_public(state, int(fields["seat"]), played) else "0")
                state = engine.apply(state, int(fields["seat"]), played)
                states[version] = state
            assert state == engine.load_state(record.state)
            assert record.status == ("finished" if engine.is_over(state) else "in_progress")
            finished += engine.is_over(state)

            # The moves in the stream are exactly the moves answered OK: each once, with the answer's version and
            # the view the answer showed; two OK answers for one version are one request answered twice.
            acknowledged = answers.get(game.game_id, {})
            assert sorted(acknowledged) == versions[2:]
            for version, (_, fields) in zip(versions[2:], entries[2:], strict=True):
                (request_id,) = {r for _, _, r in acknowledged[version]}
                for seat, answer, _ in acknowledged[version]:
                    assert seat == int(fields["seat"])
                    assert answer.state.recent_events[-1].move_id == fields["move_id"]
                    assert wire.view_from_any(engine, answer.state.view) == engine.view(states[version], seat)
        assert finished > 0
    finally:
        client.close()


def test_a_retry_many_moves_later_gets_the_first_answer_byte_for_byte_from_a_few_stored_bytes(serve, redis_db_url):
    """"A retry with the same id returns the first answer and applies nothing" (game_service.proto), also once the
    game has moved on: Redis keeps only the version the move made, and the answer is rebuilt from the events."""
    stub = serve.stub
    created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[pb.SeatSpec(kind=HUMAN)] * 4,
                                                   start=True))
    tokens = {t.seat: t.token for t in created.seat_tokens}
    rng = random.Random(3)
    sent = []
    for i in range(25):
        seat = rng.choice(list(stub.GetState(pb.GetStateRequest(game_id=created.game_id)).state.to_act))
        state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth(tokens[seat])).state
        request = pb.MakeMoveRequest(game_id=created.game_id, move_id=rng.choice(state.legal_moves).id,
                                     expected_version=state.version, request_id=f"move-{i}")
        sent.append((seat, request, stub.MakeMove(request, metadata=auth(tokens[seat]))))
    version = sent[-1][2].version
    for seat, request, first in sent:
        again = stub.MakeMove(request, metadata=auth(tokens[seat]))
        assert again.SerializeToString() == first.SerializeToString()
    assert stub.GetState(pb.GetStateRequest(game_id=created.game_id)).state.version == version
    client = redis.Redis.from_url(redis_db_url)
    try:
        stored = client.hgetall(requests_key(created.game_id))
        size = client.memory_usage(requests_key(created.game_id), samples=0)
    finally:
        client.close()
    assert len(stored) == 25 and size < 25 * 40
