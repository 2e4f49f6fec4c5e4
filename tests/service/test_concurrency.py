"""Concurrency: versions, request ids, resumable watching and AI jobs, against the real server and Redis."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import grpc
import redis

from games import registry, wire
from service.store import STREAM_LINGER_SECONDS, GameStore, events_key, game_key, log_key, requests_key, state_key
from service.store import active_key as shard_active_key
from tabletop.job_shards import job_stream
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import AI, AI_TOKEN, HUMAN, Api, ServerThread, service_config
from tests.service.test_errors import fails
from tests.support.clock import redis_ms
from tests.support.waiting import wait_until


def _toy(api, kinds=(HUMAN, HUMAN)):
    created = api.create("toy", list(kinds), start=True)
    return created.game_id, {t.seat: t.token for t in created.seat_tokens}


def test_64_clients_racing_the_same_move_one_wins_the_rest_are_aborted(api):
    game_id, tokens = _toy(api)
    state = api.state(game_id, tokens[0])
    request = pb.MakeMoveRequest(game_id=game_id, move_id=state.legal_moves[0].id, expected_version=state.version)
    barrier = threading.Barrier(64)

    def race(i: int):
        barrier.wait()
        try:
            return api.stub.MakeMove(request, metadata=api.auth(tokens[0])).version
        except grpc.RpcError as error:
            return error

    with ThreadPoolExecutor(64) as pool:
        results = list(pool.map(race, range(64)))
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if not isinstance(r, int)]
    assert wins == [state.version + 1]
    assert len(losses) == 63 and {e.code() for e in losses} == {grpc.StatusCode.ABORTED}
    assert api.state(game_id).version == state.version + 1


def test_a_retry_with_the_same_request_id_returns_the_first_answer_and_applies_nothing(api):
    game_id, tokens = _toy(api)
    state = api.state(game_id, tokens[0])
    first_move, second_move = state.legal_moves[0].id, state.legal_moves[1].id
    first = api.move(game_id, tokens[0], first_move, request_id="move-1", expected_version=state.version)
    again = api.move(game_id, tokens[0], first_move, request_id="move-1", expected_version=state.version)
    other = api.move(game_id, tokens[0], second_move, request_id="move-1")
    assert again == first and other == first
    after = api.state(game_id, tokens[0])
    assert after.version == state.version + 1
    assert [e.kind for e in after.recent_events].count(pb.GameEvent.KIND_MOVE) == 1
    # The same id from another seat is another request.
    fresh = api.move(game_id, tokens[1], api.state(game_id, tokens[1]).legal_moves[0].id, request_id="move-1")
    assert fresh.version == state.version + 2


def test_concurrent_retries_apply_once(api):
    game_id, tokens = _toy(api)
    state = api.state(game_id, tokens[0])
    request = pb.MakeMoveRequest(game_id=game_id, move_id=state.legal_moves[0].id, request_id="once")
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda _: api.stub.MakeMove(request, metadata=api.auth(tokens[0])), range(16)))
    assert all(a == answers[0] for a in answers)
    assert api.state(game_id).version == state.version + 1


def _play(api, game_id, tokens, rng, moves: int | None = None):
    done = 0
    while moves is None or done < moves:
        spectator = api.state(game_id)
        if spectator.status == pb.GAME_STATUS_FINISHED:
            return
        seat = rng.choice(list(spectator.to_act))
        api.move(game_id, tokens[seat], rng.choice(list(api.state(game_id, tokens[seat]).legal_moves)).id)
        done += 1


def test_watching_resumes_from_a_version_without_missing_or_repeating_events(api, toy_game):
    game_id, tokens = _toy(api, (HUMAN, HUMAN, HUMAN))
    rng = random.Random(5)
    _play(api, game_id, tokens, rng, moves=4)
    seen: list[pb.WatchGameResponse] = []
    # First connection: replays from the start, then follows live; it drops after a few live events.
    stream = api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=api.auth(tokens[1]))
    for response in stream:
        seen.append(response)
        if len(seen) == 6:  # created, started, 4 moves: the replay is done
            break
    stream.cancel()
    player = threading.Thread(target=_play, args=(api, game_id, tokens, rng))
    player.start()
    # Second connection resumes after the last version received and follows to the end of the game.
    for response in api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=seen[-1].event.version),
                                       metadata=api.auth(tokens[1])):
        seen.append(response)
    player.join()
    final = api.state(game_id, tokens[1])
    assert [r.event.version for r in seen] == list(range(1, final.version + 1))
    assert seen[-1].event.game_over and seen[-1].state.status == pb.GAME_STATUS_FINISHED
    assert seen[-1].state.view == final.view and seen[-1].state.your_seat == 1
    for response in seen[2:]:
        view = wire.view_from_any(toy_game, response.state.view)
        assert view.seat == 1
        if response.event.seat != 1:
            assert response.event.move_id == ""


def test_spectators_watch_without_a_token(api):
    game_id, tokens = _toy(api)
    _play(api, game_id, tokens, random.Random(3))
    responses = list(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=2)))
    assert responses[0].event.version == 3 and not responses[0].state.HasField("your_seat")
    assert all(r.event.move_id == "" for r in responses)
    assert list(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=10_000))) == []
    fails(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_VERSION", api.stub.WatchGame,
          pb.WatchGameRequest(game_id=game_id, from_version=-1))


def _jobs(redis_url: str, game_id: str) -> list[dict[str, str]]:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        entries = client.xrange(job_stream(int(client.hget(game_key(game_id), "shard"))))
    finally:
        client.close()
    return [fields for _, fields in entries if fields["game_id"] == game_id]


def test_an_ai_job_is_enqueued_whenever_an_ai_seat_must_act(api, redis_url):
    game_id, tokens = _toy(api, (HUMAN, AI))
    started = api.state(game_id)
    assert _jobs(redis_url, game_id) == [
        {"game_id": game_id, "game_type": "toy", "seat": "1", "version": str(started.version),
         "job_id": f"{game_id}:{started.version}:1"}
    ]
    api.move(game_id, tokens[0], api.state(game_id, tokens[0]).legal_moves[0].id)
    jobs = _jobs(redis_url, game_id)
    assert [(j["seat"], j["version"]) for j in jobs] == [("1", str(started.version)), ("1", str(started.version + 1))]


def test_no_ai_job_while_only_humans_must_act(api, redis_url):
    created = api.create("hinode", [HUMAN, AI], options_json='{"start_player": "seat0"}', start=True)
    assert list(created.state.to_act) == [0]
    assert _jobs(redis_url, created.game_id) == []


def test_the_ai_worker_rebuilds_the_engine_view_from_get_state(api, redis_url):
    """What the worker does: fetch the AI seat's view, rebuild the engine view, sample a state from it."""
    hinode = registry.get("hinode")
    created = api.create("hinode", [HUMAN, AI], options_json='{"start_player": "seat1"}', start=True)
    (job,) = _jobs(redis_url, created.game_id)
    state = api.state(created.game_id, AI_TOKEN, seat=int(job["seat"]))
    assert state.version == int(job["version"])
    view = wire.view_from_any(hinode, state.view)
    sample = hinode.sample(view, random.Random(1))
    assert [m.id for m in hinode.legal_moves(sample, 1)] == [m.id for m in state.legal_moves]


def test_two_replicas_share_every_game_through_redis(api, redis_url, toy_game):
    other = ServerThread(service_config(redis_url)).start()
    channel = grpc.insecure_channel(other.target)
    try:
        replica = Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
        game_id, tokens = _toy(api)
        state = replica.state(game_id, tokens[0])
        request = pb.MakeMoveRequest(game_id=game_id, move_id=state.legal_moves[0].id, expected_version=state.version)
        barrier = threading.Barrier(32)

        def race(i: int):
            client = (api, replica)[i % 2]
            barrier.wait()
            try:
                return client.stub.MakeMove(request, metadata=client.auth(tokens[0])).version
            except grpc.RpcError as error:
                return error.code()

        with ThreadPoolExecutor(32) as pool:
            results = list(pool.map(race, range(32)))
        assert results.count(state.version + 1) == 1
        assert results.count(grpc.StatusCode.ABORTED) == 31
        assert api.state(game_id).version == replica.state(game_id).version == state.version + 1
    finally:
        channel.close()
        other.stop()


def test_games_expire_and_leave_the_active_set(api, redis_url):
    client = redis.Redis.from_url(redis_url, decode_responses=True)

    def active_key(game_id: str, game_type: str) -> str:  # the active set of the game's shard
        return shard_active_key(int(client.hget(game_key(game_id), "shard")), game_type)

    try:
        waiting = api.create("toy", [HUMAN, HUMAN]).game_id
        assert 604000 < client.ttl(game_key(waiting)) <= 604800  # TABLETOP_ABANDONED_SECONDS
        assert client.zscore(active_key(waiting, "toy"), waiting) is None  # active = started and not finished
        game_id, tokens = _toy(api)
        assert 604000 < client.ttl(game_key(game_id)) <= 604800
        assert client.zscore(active_key(game_id, "toy"), game_id) is not None
        _play(api, game_id, tokens, random.Random(2), moves=1)
        api.move(game_id, tokens[1], api.state(game_id, tokens[1]).legal_moves[0].id, request_id="x")
        assert client.hexists(requests_key(game_id), "1:x")  # request ids are remembered as long as a retry
        assert 590 < client.ttl(requests_key(game_id)) <= 600  # can come: TABLETOP_REQUEST_ID_SECONDS
        assert 604000 < client.ttl(state_key(game_id)) <= 604800
        _play(api, game_id, tokens, random.Random(2))
        assert 86000 < client.ttl(game_key(game_id)) <= 86400  # TABLETOP_RETENTION_SECONDS once finished
        assert 86000 < client.ttl(state_key(game_id)) <= 86400
        assert 86000 < client.ttl(log_key(game_id)) <= 86400  # every event, compacted
        assert 0 < client.ttl(events_key(game_id)) <= STREAM_LINGER_SECONDS  # the stream, for live watchers
        assert 0 < client.ttl(requests_key(game_id)) <= 600
        assert client.zscore(active_key(game_id, "toy"), game_id) is None
    finally:
        client.close()


def test_many_watchers_of_one_game_share_one_redis_reader(api, server):
    game_id, tokens = _toy(api, (HUMAN, HUMAN, HUMAN))
    streams = [api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=api.auth(tokens.get(i % 4)))
               for i in range(20)]
    received: list[list[int]] = [[] for _ in streams]

    def drain(i: int) -> None:
        for response in streams[i]:
            received[i].append(response.event.version)

    readers = [threading.Thread(target=drain, args=(i,)) for i in range(len(streams))]
    for reader in readers:
        reader.start()
    followers = server.running.servicer.watch.feed._followers
    wait_until(lambda: game_id in followers and followers[game_id].watchers == 20, 10,
               "twenty streams on one follower")  # and one reader
    _play(api, game_id, tokens, random.Random(8))
    for reader in readers:
        reader.join(20)
    final = api.state(game_id).version
    assert all(versions == list(range(1, final + 1)) for versions in received)
    wait_until(lambda: game_id not in followers, 5, "the reader stopped with its last watcher")


def test_job_streams_are_trimmed_by_age(redis_db_url):
    """A job stream keeps AI jobs for the configured retention only: older ones (long stale) go as new ones come."""

    async def scenario():
        store = GameStore.from_url(redis_db_url, retention_seconds=60, abandoned_seconds=60, job_shards=1,
                                   job_retention_seconds=60)
        client = redis.Redis.from_url(redis_db_url, decode_responses=True)
        def jobs() -> list[str]:
            return [f["job_id"] for _, f in client.xrange(job_stream(0))]

        try:
            job = {"game_id": "trim", "game_type": "toy", "seat": "0", "version": "1", "job_id": "old"}
            # A job queued an hour ago: an entry's id is the time (on Redis's clock) it was added.
            client.xadd(job_stream(0), job, id=f"{redis_ms(client) - 3_600_000}-0")
            await store.commit("trim", "toy", 0, {"status": "waiting"}, {"kind": "created"},
                               jobs=[{**job, "job_id": "recent"}])
            assert jobs() == ["recent"], "the stale job went as a new one came"
            await store.commit("trim", "toy", 1, {"status": "waiting"}, {"kind": "created"},
                               jobs=[{**job, "version": "2", "job_id": "new"}])
            assert jobs() == ["recent", "new"], "a job within the retention stays"
        finally:
            client.close()
            await store.close()

    asyncio.run(scenario())
