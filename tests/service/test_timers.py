"""Turn timers, away seats, leaving and resigning, against a real game service and real Redis, with real AI
workers where the AI has a move to make, and without any where it has none.

The game service keeps the time (service/timekeeper.py). A late seat's move is made by the AI through the same
compare-and-set as the player's own, so it is never lost with a process and never applied twice; timeouts in a
row make a seat away until its player calls again; a timer that forfeits needs no AI at all.
"""

from __future__ import annotations

import os
import random
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis

from service.store import active_key, event_from_entry, events_key, game_key, timekeeper_key
from tabletop.job_shards import bulk_stream, job_stream
from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import wait_serving
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.ai.test_worker import _env, _service, _spawn, _stop, _worker
from tests.service.conftest import Api, ServerThread, service_config

CHEAP = {"TABLETOP_AI_BUDGETS": "easy=20,normal=20,hard=20"}
HUMAN = pb.SEAT_KIND_HUMAN


def _auth(token: str | None) -> tuple:
    return (("authorization", f"Bearer {token}"),) if token else ()


def _create(stub, game_type: str, humans: int, turn_seconds: int = 1, on_timeout=pb.TIMEOUT_POLICY_AI_MOVES,
            away_after: int = 2, ai: int = 0) -> pb.CreateGameResponse:
    seats = [pb.SeatSpec(kind=HUMAN, name=f"P{i + 1}") for i in range(humans)]
    seats += [pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")] * ai
    timer = pb.TurnTimer(turn_seconds=turn_seconds, on_timeout=on_timeout, away_after=away_after)
    return stub.CreateGame(pb.CreateGameRequest(game_type=game_type, seats=seats, start=True, timer=timer),
                           timeout=10)


def _events(stub, game_id: str, token: str | None = None) -> list[pb.GameEvent]:
    """Every event so far, as WatchGame replays them."""
    last = stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state.version
    stream = stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=_auth(token), timeout=10)
    events = []
    try:
        for update in stream:
            events.append(update.event)
            if update.event.version >= last:
                break
    finally:
        stream.cancel()
    return events


def _event(client: redis.Redis, game_id: str, version: int):
    """The stored event that made `version`, or None."""
    entries = client.xrange(events_key(game_id), f"{version}-1", f"{version}-1")
    return event_from_entry(*entries[0]) if entries else None


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def stack(redis_db_url, tmp_path):
    """A game service and one AI worker."""
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "timer-worker", **CHEAP)
        channel = grpc.insecure_channel(target)
        try:
            yield game_service_pb2_grpc.GameServiceStub(channel), redis_db_url
        finally:
            channel.close()
            _stop(worker)


def test_a_timer_runs_out_and_the_ai_moves_for_the_late_seat(stack):
    stub, _ = stack
    created = _create(stub, "naishi", humans=2, turn_seconds=1)
    state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state
    assert state.timer.turn_seconds == 1 and state.timer.on_timeout == pb.TIMEOUT_POLICY_AI_MOVES
    now = time.time() * 1000
    deadlines = {s.seat: s.deadline_unix_ms for s in state.seats if s.HasField("deadline_unix_ms")}
    assert sorted(deadlines) == sorted(state.to_act) == [0, 1], "every seat to act has its deadline"
    assert all(now < d <= now + 1500 for d in deadlines.values())
    moved = _wait(lambda: stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state.version
                  >= state.version + 2, 15, "the AI's moves for both late seats")
    assert moved
    events = _events(stub, created.game_id)
    moves = [e for e in events if e.kind == pb.GameEvent.KIND_MOVE]
    assert {m.seat for m in moves[:2]} == {0, 1}
    assert all(m.moved_by == pb.GameEvent.MOVED_BY_AI_ON_TIMEOUT for m in moves[:2])


def test_a_seat_goes_away_after_its_timeouts_and_its_player_takes_it_back(stack):
    stub, _ = stack
    created = _create(stub, "hinode", humans=1, turn_seconds=1, away_after=2)
    token = created.seat_tokens[0].token
    game_id = created.game_id

    def seat0() -> pb.SeatInfo:
        return stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state.seats[0]

    # Two timeouts in a row (the tribe, then the Battlefield as start player, or a card): the seat is away.
    _wait(lambda: seat0().state == pb.SEAT_STATE_AWAY, 20, "the seat to be marked away")
    events = _events(stub, game_id)
    kinds = [e.kind for e in events]
    assert pb.GameEvent.KIND_AWAY in kinds
    away_at = kinds.index(pb.GameEvent.KIND_AWAY)
    timeouts = [e for e in events[:away_at] if e.kind == pb.GameEvent.KIND_MOVE and e.seat == 0]
    assert len(timeouts) == 2 and all(e.moved_by == pb.GameEvent.MOVED_BY_AI_ON_TIMEOUT for e in timeouts)
    # While away the AI plays the seat at once, no timer needed: moves by AI takeover.
    _wait(lambda: any(e.moved_by == pb.GameEvent.MOVED_BY_AI_TAKEOVER for e in _events(stub, game_id)), 20,
          "a takeover move")
    # Any call with the seat's token takes it back.
    mine = stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=_auth(token), timeout=10).state
    assert mine.seats[0].state == pb.SEAT_STATE_PRESENT
    assert any(e.kind == pb.GameEvent.KIND_RETURNED for e in _events(stub, game_id))


def test_a_hinode_game_of_four_humans_who_never_move_finishes_on_timers_alone(stack):
    """The issue: "A 4-seat Hinode game with 4 humans, turn_seconds 2, in which no client ever moves, finishes on
    timers alone, and its event log shows who played each move (human, AI takeover)"."""
    stub, _ = stack
    created = _create(stub, "hinode", humans=4, turn_seconds=2, away_after=2)
    game_id = created.game_id
    final = _wait(lambda: (lambda s: s if s.status == pb.GAME_STATUS_FINISHED else None)(
        stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state), 150, "the game to finish")
    assert not final.to_act
    moves = [e for e in _events(stub, game_id) if e.kind == pb.GameEvent.KIND_MOVE]
    by = {e.moved_by for e in moves}
    assert by == {pb.GameEvent.MOVED_BY_AI_ON_TIMEOUT, pb.GameEvent.MOVED_BY_AI_TAKEOVER}, by
    for seat in range(4):
        mine = [e.moved_by for e in moves if e.seat == seat]
        # Each seat: its first moves on timeouts, until it is away; every later one by the AI taking over.
        first_takeover = mine.index(pb.GameEvent.MOVED_BY_AI_TAKEOVER)
        assert set(mine[:first_takeover]) == {pb.GameEvent.MOVED_BY_AI_ON_TIMEOUT}
        assert set(mine[first_takeover:]) == {pb.GameEvent.MOVED_BY_AI_TAKEOVER}
    score = stub.GetScore(pb.GetScoreRequest(game_id=game_id), timeout=10)
    assert score.final and len(score.seats) == 4


def test_human_moves_racing_their_own_timeouts_apply_once(stack, redis_db_url):
    """200 human moves sent as their timer runs out, racing the AI's timeout move: each version gets exactly one
    move, the human's (OK) or the AI's (the human then gets ABORTED)."""
    stub, _ = stack
    rng = random.Random(3)

    def race(_: int) -> tuple[str, int, str]:
        # Each game made as its race begins: made all at once, the games that waited for a free thread had met one
        # timeout or two first (a second marks the seat away, in a commit of its own after the move, and a read
        # between the two raced a version that an `away` event took).
        created = _create(stub, "hinode", humans=1, turn_seconds=1)
        token = created.seat_tokens[0].token
        state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=_auth(token), timeout=10).state
        deadline = state.seats[0].deadline_unix_ms / 1000
        time.sleep(max(0.0, deadline - time.time() + rng.uniform(-0.15, 0.15)))
        move = rng.choice(list(state.legal_moves))
        try:
            stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id,
                                             expected_version=state.version, request_id=f"race-{created.game_id}"),
                          metadata=_auth(token), timeout=20)
            return created.game_id, state.version, "human"
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.ABORTED, error
            return created.game_id, state.version, "aborted"

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(race, range(200)))
    client = redis.Redis.from_url(redis_db_url)
    won = {"human": 0, "aborted": 0}
    try:
        for game_id, version, outcome in results:
            won[outcome] += 1
            _wait(lambda game_id=game_id, version=version: _event(client, game_id, version + 1), 30, "the raced move")
            fields = _event(client, game_id, version + 1).fields
            assert fields["kind"] == "move" and fields["seat"] == "0"
            assert fields["by"] == ("holder" if outcome == "human" else "timeout"), (outcome, fields)
    finally:
        client.close()
    assert won["human"] + won["aborted"] == 200


def test_a_pending_deadline_survives_killed_worker_and_service(redis_db_url, tmp_path):
    """SIGKILL the worker, then the service (the replica keeping the time: it hands no lease back), while a deadline
    is pending: once both are back, and the dead replica's lease has run out, the late moves are made, exactly
    once."""
    client = redis.Redis.from_url(redis_db_url)
    port = free_port()
    service = _spawn(["serve"], _env(redis_db_url, TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT="0"),
                     tmp_path / "doomed-service.log")
    try:
        wait_serving(f"127.0.0.1:{port}", service, "game service")
        worker, _ = _worker(redis_db_url, f"127.0.0.1:{port}", tmp_path, "doomed", **CHEAP)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            created = _create(stub, "naishi", humans=2, turn_seconds=2)
            version = stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state.version
        _wait(lambda: client.exists(timekeeper_key(0)), 10, "the replica to keep the shard's time")
        dead = client.get(timekeeper_key(0))
        for proc in (worker, service):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    finally:
        _stop(service)
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "heir", **CHEAP)
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                _wait(lambda: stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state.version
                      >= version + 2, 30, "the late moves")
                assert client.get(timekeeper_key(0)) not in (None, dead), "the new replica keeps the time"
                entries = [event_from_entry(i, f) for i, f in client.xrange(events_key(created.game_id))]
                versions = [e.version for e in entries]
                assert versions == list(range(1, len(versions) + 1)), "one event per version, none doubled"
                gifts = [e for e in entries if e.get("kind") == "move" and e.get("move_id").startswith("give")]
                assert sorted(e.get("seat") for e in gifts) == ["0", "1"], "each late gift made once"
                assert {e.get("by") for e in gifts} == {"timeout"}
        finally:
            client.close()
            _stop(worker)


@pytest.mark.parametrize("game_type,humans", [("hinode", 2), ("naishi", 2), ("zipang", 3), ("kung-fur-fight", 2)])
def test_leave_and_resign_in_every_built_in_game(stack, game_type, humans):
    stub, redis_url = stack
    # Leave: the AI plays the seat from now on, and the game goes on.
    created = _create(stub, game_type, humans=humans, turn_seconds=0)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    left = stub.LeaveGame(pb.LeaveGameRequest(game_id=created.game_id), metadata=_auth(tokens[0]), timeout=10)
    assert left.state.seats[0].state == pb.SEAT_STATE_LEFT and left.state.status == pb.GAME_STATUS_IN_PROGRESS
    with pytest.raises(grpc.RpcError) as refused:
        stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id="x"), metadata=_auth(tokens[0]), timeout=10)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    events = lambda: _events(stub, created.game_id)  # noqa: E731
    assert any(e.kind == pb.GameEvent.KIND_LEFT and e.seat == 0 for e in events())
    state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), timeout=10).state
    if 0 in state.to_act:  # the AI plays the seat that left
        _wait(lambda: any(e.kind == pb.GameEvent.KIND_MOVE and e.seat == 0
                          and e.moved_by == pb.GameEvent.MOVED_BY_AI_TAKEOVER for e in events()), 30, "a takeover")
    # Once every player has left, the game plays on but no longer counts as active.
    client = redis.Redis.from_url(redis_url)
    try:
        active = active_key(int(client.hget(game_key(created.game_id), "shard")), game_type)
        assert client.zscore(active, created.game_id) is not None
        for seat in range(1, humans):
            stub.LeaveGame(pb.LeaveGameRequest(game_id=created.game_id), metadata=_auth(tokens[seat]), timeout=10)
        assert client.zscore(active, created.game_id) is None
    finally:
        client.close()
    # Resign: last place; with two seats the game ends at once, with more it goes on without the seat's player.
    created = _create(stub, game_type, humans=humans, turn_seconds=0)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    resigned = stub.Resign(pb.ResignRequest(game_id=created.game_id), metadata=_auth(tokens[0]), timeout=10)
    assert resigned.state.seats[0].state == pb.SEAT_STATE_RESIGNED
    score = stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10)
    assert list(score.ranking[-1].seats) == [0] and "P1 resigned" in score.decided_by
    if humans == 2:
        assert resigned.state.status == pb.GAME_STATUS_FINISHED and not resigned.state.to_act and score.final
        assert [e for e in events() if e.kind == pb.GameEvent.KIND_RESIGNED][-1].game_over
        with pytest.raises(grpc.RpcError) as over:
            stub.Resign(pb.ResignRequest(game_id=created.game_id), metadata=_auth(tokens[1]), timeout=10)
        assert over.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    else:
        assert resigned.state.status == pb.GAME_STATUS_IN_PROGRESS and not score.final


def test_a_timed_game_of_two_humans_plays_to_its_end_with_no_worker(redis_db_url, toy_game):
    """The issue (25): "A test runs a timed all-human game to its end with no worker running". Two humans play the
    toy game on a 2 s turn timer that forfeits, and no AI worker exists: they decide in time for two rounds, then
    seat 1 stops answering, and the service's own timekeeper resigns it when its deadline passes, which ends the
    game."""
    server = ServerThread(service_config(redis_db_url, ai_job_shards=1)).start()
    channel = grpc.insecure_channel(server.target)
    client = redis.Redis.from_url(redis_db_url)
    try:
        api = Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
        created = api.create("toy", [HUMAN, HUMAN], start=True,
                             timer=pb.TurnTimer(turn_seconds=2, on_timeout=pb.TIMEOUT_POLICY_FORFEIT))
        game_id, tokens = created.game_id, {t.seat: t.token for t in created.seat_tokens}
        watched = api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id), timeout=30)
        for seat in (0, 1, 0, 1, 0):  # two whole rounds, and seat 0's card of the third
            mine = api.state(game_id, tokens[seat])
            assert mine.seats[seat].deadline_unix_ms > time.time() * 1000, "a fresh deadline for each decision"
            api.move(game_id, tokens[seat], mine.legal_moves[0].id, expected_version=mine.version)
        events = []
        for update in watched:  # the stream ends after the game's last event
            events.append(update.event)
        moves = [e for e in events if e.kind == pb.GameEvent.KIND_MOVE]
        assert [(e.seat, e.moved_by) for e in moves] == [(s, pb.GameEvent.MOVED_BY_HOLDER) for s in (0, 1, 0, 1, 0)]
        last = events[-1]
        assert (last.kind, last.seat, last.game_over) == (pb.GameEvent.KIND_RESIGNED, 1, True)
        final = api.state(game_id)
        assert final.status == pb.GAME_STATUS_FINISHED and not final.to_act
        assert [s.state for s in final.seats] == [pb.SEAT_STATE_PRESENT, pb.SEAT_STATE_RESIGNED]
        score = api.stub.GetScore(pb.GetScoreRequest(game_id=game_id))
        assert score.final and list(score.ranking[-1].seats) == [1]
        assert not client.exists(job_stream(0), bulk_stream(0)), "no AI job was ever made"
    finally:
        client.close()
        channel.close()
        server.stop()


def test_a_bad_timer_is_refused(stack):
    stub, _ = stack
    for timer in (pb.TurnTimer(turn_seconds=-1), pb.TurnTimer(turn_seconds=86401),
                  pb.TurnTimer(turn_seconds=5, strength="wizard"), pb.TurnTimer(turn_seconds=5, away_after=101)):
        with pytest.raises(grpc.RpcError) as refused:
            stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                                 timer=timer), timeout=10)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT

