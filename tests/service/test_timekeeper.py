"""The timekeeper (service/timekeeper.py) on an injected clock, over a real game service and a real Redis, with no
AI worker anywhere: a late seat becomes one AI job (or resigns, when its timer forfeits) through the service's own
commits, and one replica at a time keeps a shard's time, another taking over when it dies."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest
import redis

from service import metrics
from service.auth import Credentials
from service.store import deadlines_key, timekeeper_key
from service.timekeeper import Timekeeper
from tabletop.job_shards import job_stream
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, Api, ServerThread, service_config

SHARD = 0  # the service below has one job shard


@pytest.fixture
def quiet(redis_db_url, toy_game):
    """A game service of one job shard that keeps no time itself (TABLETOP_TIMEKEEPER=false): the timekeepers of
    a test are the only ones, on the test's clock. Yields its Api and a Redis client."""
    server = ServerThread(service_config(redis_db_url, ai_job_shards=1, timekeeper=False)).start()
    channel = grpc.insecure_channel(server.target)
    client = redis.Redis.from_url(redis_db_url, decode_responses=True)
    try:
        yield server, Api(game_service_pb2_grpc.GameServiceStub(channel), channel), client
    finally:
        client.close()
        channel.close()
        server.stop()


class Clock:
    """The timekeeper's clock, moved by the test (ms since the epoch)."""

    def __init__(self, now: int):
        self.now = now

    def __call__(self) -> int:
        return self.now


def keeper(server: ServerThread, clock: Clock, lease_ms: int = 5_000) -> Timekeeper:
    play = server.running.servicer.play
    return Timekeeper(play.tables, play.seats, 1, clock=clock, lease_ms=lease_ms)


def on_loop(server: ServerThread, coroutine):
    """Run a coroutine on the service's event loop (the timekeeper shares the replica's Redis clients)."""
    return asyncio.run_coroutine_threadsafe(coroutine, server.loop).result(10)


def timed_toy(api: Api, on_timeout: int) -> tuple[str, dict[int, str], pb.GameState]:
    """A started toy game of two humans with a 60 s turn timer: both seats commit a card at the same time."""
    created = api.create("toy", [HUMAN, HUMAN], start=True,
                         timer=pb.TurnTimer(turn_seconds=60, on_timeout=on_timeout))
    state = api.state(created.game_id)
    return created.game_id, {t.seat: t.token for t in created.seat_tokens}, state


def deadline_of(state: pb.GameState, seat: int) -> int:
    return next(s.deadline_unix_ms for s in state.seats if s.seat == seat and s.HasField("deadline_unix_ms"))


def jobs(client: redis.Redis) -> list[dict[str, str]]:
    return [fields for _, fields in client.xrange(job_stream(SHARD))]


def counted(outcome: str) -> float:
    return metrics.TURN_TIMEOUTS.labels(outcome)._value.get()


def test_a_late_seat_becomes_one_ai_job_at_its_deadline_and_a_fresh_one_at_each_version_it_stays_late(quiet):
    """docs/api.md: "TIMEOUT_POLICY_AI_MOVES (the default): the AI makes the seat's move". The service's timekeeper
    hands the move to the AI as a job (the worker only computes it), once per version."""
    server, api, client = quiet
    game_id, tokens, state = timed_toy(api, pb.TIMEOUT_POLICY_AI_MOVES)
    deadline = deadline_of(state, 0)
    assert deadline_of(state, 1) == deadline and float(client.zscore(deadlines_key(SHARD), game_id)) == deadline
    clock = Clock(deadline - 1)
    timekeeper = keeper(server, clock)
    before = counted("ai_job")

    assert on_loop(server, timekeeper.sweep()) == 0, "nobody is late a millisecond before the deadline"
    assert jobs(client) == [] and timekeeper.held == {SHARD}

    clock.now = deadline
    assert on_loop(server, timekeeper.sweep()) == 1
    version = state.version
    assert sorted(jobs(client), key=lambda job: job["seat"]) == [
        {"game_id": game_id, "game_type": "toy", "seat": str(seat), "version": str(version),
         "job_id": f"timeout:{game_id}:{version}:{seat}"} for seat in (0, 1)]
    assert client.zscore(deadlines_key(SHARD), game_id) is None, "the jobs are the streams' now; no seat has a clock"
    assert counted("ai_job") - before == 2
    clock.now = deadline + 3_600_000
    assert on_loop(server, timekeeper.sweep()) == 0 and len(jobs(client)) == 2, "one job per late seat and version"

    # Seat 0's player moves late (allowed until the AI has moved): seat 1 stays to act, keeps its deadline, which
    # has passed, so the new version gets its own job for seat 1.
    hand = api.state(game_id, tokens[0]).legal_moves
    api.move(game_id, tokens[0], hand[0].id, expected_version=version)
    assert float(client.zscore(deadlines_key(SHARD), game_id)) == deadline
    assert on_loop(server, timekeeper.sweep()) == 1
    assert jobs(client)[-1]["job_id"] == f"timeout:{game_id}:{version + 1}:1" and len(jobs(client)) == 3


def test_a_game_that_moved_on_after_it_was_read_gets_no_job_and_keeps_its_new_deadline(quiet):
    """The timekeeper races the players: a job is enqueued only for the version it read, and the deadline a
    commit set meanwhile is never overwritten."""
    server, api, client = quiet
    game_id, tokens, state = timed_toy(api, pb.TIMEOUT_POLICY_AI_MOVES)
    deadline = deadline_of(state, 0)
    moves = {seat: api.state(game_id, tokens[seat]).legal_moves[0].id for seat in (0, 1)}
    play = server.running.servicer.play
    load = play.tables.load

    async def read_then_both_players_move(*args):
        table = await load(*args)
        for seat, move in moves.items():
            await play.make_move(game_id, Credentials(tokens[seat]), move, None, "")
        return table

    play.tables.load = read_then_both_players_move
    stale = counted("stale")
    try:
        assert on_loop(server, keeper(server, Clock(deadline)).sweep()) == 1
    finally:
        play.tables.load = load
    assert jobs(client) == [] and counted("stale") - stale == 2
    fresh = deadline_of(api.state(game_id), 0)
    assert fresh > deadline and float(client.zscore(deadlines_key(SHARD), game_id)) == fresh


def test_a_forfeiting_timer_resigns_the_late_seat_with_no_worker(quiet):
    """docs/api.md: "TIMEOUT_POLICY_FORFEIT: the seat resigns"; with two seats the game ends at once."""
    server, api, client = quiet
    game_id, tokens, state = timed_toy(api, pb.TIMEOUT_POLICY_FORFEIT)
    hand = api.state(game_id, tokens[0]).legal_moves
    api.move(game_id, tokens[0], hand[0].id)  # seat 0 decides in time; seat 1 does not
    deadline = deadline_of(api.state(game_id), 1)
    forfeited = counted("forfeited")
    assert on_loop(server, keeper(server, Clock(deadline)).sweep()) == 1
    final = api.state(game_id)
    assert final.status == pb.GAME_STATUS_FINISHED
    assert [s.state for s in final.seats] == [pb.SEAT_STATE_PRESENT, pb.SEAT_STATE_RESIGNED]
    last = final.recent_events[-1]
    assert (last.kind, last.seat, last.game_over) == (pb.GameEvent.KIND_RESIGNED, 1, True)
    assert counted("forfeited") - forfeited == 1
    assert jobs(client) == [] and client.zscore(deadlines_key(SHARD), game_id) is None


def test_one_replica_keeps_a_shards_time_and_another_takes_over_when_it_dies(quiet):
    server, api, client = quiet
    game_id, tokens, state = timed_toy(api, pb.TIMEOUT_POLICY_AI_MOVES)
    clock = Clock(deadline_of(state, 0) - 1)
    lease_ms = 300
    first, second = keeper(server, clock, lease_ms), keeper(server, clock, lease_ms)
    on_loop(server, first.sweep())
    on_loop(server, second.sweep())
    assert (first.held, second.held) == ({SHARD}, set())
    assert client.get(timekeeper_key(SHARD)) == first.name
    clock.now += 1
    assert on_loop(server, second.sweep()) == 0, "the game is due, but not on a shard this replica keeps"

    # The first replica dies (no more sweeps, its lease not handed back): once the lease runs out the second takes
    # the shard over, and the game due meanwhile is handled, by it alone.
    handed_over = time.monotonic() + 5
    while not second.held:
        assert time.monotonic() < handed_over, "the second replica never took the shard over"
        time.sleep(lease_ms / 3000)
        handled = on_loop(server, second.sweep())
    assert handled == 1 and [job["seat"] for job in jobs(client)] == ["0", "1"]
    assert on_loop(server, first.sweep()) == 0 and first.held == set(), "a replica that lost its lease claims nothing"

    # A replica that stops hands its leases back: the next one to ask keeps the time at once.
    on_loop(server, second.let_go())
    assert client.get(timekeeper_key(SHARD)) is None and second.held == set()
    third = keeper(server, clock, lease_ms)
    on_loop(server, third.sweep())
    assert third.held == {SHARD}
