"""Caller quotas (service/quotas.py): each limit refuses the next call with RESOURCE_EXHAUSTED, a QUOTA_* reason and
a RetryInfo, admits again once a slot is free, and holds across replicas because it lives in Redis."""

from __future__ import annotations

import asyncio
import threading
from concurrent import futures

import grpc
import pytest
import redis

from service import errors
from service.config import Config, ConfigError
from service.quotas import key_hash, parse_api_keys, peer_address, quota_key
from service.store import game_key
from tabletop.v1 import ai_service_pb2_grpc, game_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import AI_TOKEN, HUMAN, Api, ServerThread, service_config
from tests.support.clock import MovableClock, redis_ms
from tests.support.waiting import wait_until

BIG_KEY = "big-customer-key-0123456789"
SMALL_KEY = "small-customer-key-0123456789"
KEYS = f"big:{key_hash(BIG_KEY)}:3,small:{key_hash(SMALL_KEY)}"


@pytest.fixture
def serve(redis_db_url, toy_game):
    """Start game services on the test's own Redis database with the given settings; stop them at the end."""
    threads: list[ServerThread] = []
    channels: list[grpc.Channel] = []

    def start(clock: MovableClock | None = None, **changes) -> Api:
        thread = ServerThread(service_config(redis_db_url, api_keys=KEYS, **changes)).start()
        threads.append(thread)
        if clock is not None:
            thread.running.servicer.quotas.clock = clock
        channel = grpc.insecure_channel(thread.target)
        channels.append(channel)
        return Api(game_service_pb2_grpc.GameServiceStub(channel), channel)

    yield start
    for channel in channels:
        channel.close()
    for thread in threads:
        thread.stop()


def create(api: Api, metadata=(), **kwargs) -> pb.CreateGameResponse:
    request = pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2, **kwargs)
    return api.stub.CreateGame(request, metadata=list(metadata))


def refused(call, reason: str) -> float:
    """Run `call`, which must fail RESOURCE_EXHAUSTED with `reason`; its RetryInfo delay in seconds."""
    with pytest.raises(grpc.RpcError) as caught:
        call()
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, caught.value.details()
    assert errors.error_info(caught.value).reason == reason
    delay = errors.retry_delay(caught.value)
    assert delay is not None and delay > 0
    return delay


def eventually(call):
    """`call()` once it no longer fails with a quota reason (a released slot reaches Redis a moment later)."""
    def admitted():
        try:
            return call()
        except grpc.RpcError as exc:
            info = errors.error_info(exc)
            if info and info.reason.startswith("QUOTA_"):
                return None
            raise

    return wait_until(admitted, 5, "a quota slot freed")


def test_the_creation_rate_refuses_then_admits_in_the_next_window(serve):
    window = 60
    # The service's clock a second into a window (windows are aligned to the clock): the three calls fall in it.
    clock = MovableClock(1_000_000 * window + 1)
    api = serve(quota_create_rate=2, quota_create_window_seconds=window, clock=clock)
    create(api)
    create(api)
    delay = refused(lambda: create(api), "QUOTA_CREATE_RATE")
    assert delay <= window
    clock.advance(delay)  # as long as the caller was told to wait: the next window
    assert create(api).game_id


def test_invalid_requests_give_back_their_open_game_slot(serve):
    api = serve(quota_open_games=1)
    with pytest.raises(grpc.RpcError) as caught:
        api.stub.CreateGame(pb.CreateGameRequest(game_type="no-such-game"))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert create(api).game_id


def test_open_games_are_limited_until_one_finishes_or_expires(serve, redis_db_url):
    api = serve(quota_open_games=2)
    first = create(api)
    second = create(api)
    refused(lambda: create(api), "QUOTA_OPEN_GAMES")
    client = redis.Redis.from_url(redis_db_url)
    try:
        client.hset(game_key(first.game_id), "status", "finished")  # as the last move would leave it
        create(api)
        refused(lambda: create(api), "QUOTA_OPEN_GAMES")
        client.delete(game_key(second.game_id))  # expired (abandoned)
        create(api)
    finally:
        client.close()


def test_watch_streams_are_limited_and_a_closed_stream_frees_its_slot(serve):
    api = serve(quota_watch_streams=1)
    game_id = create(api, start=True).game_id
    first = api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))
    next(first)  # the stream is open
    refused(lambda: next(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))), "QUOTA_WATCH_STREAMS")
    first.cancel()
    second = eventually(lambda: (lambda s: (next(s), s)[1])(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))))
    second.cancel()


class GatedAI(ai_service_pb2_grpc.AIServiceServicer):
    """An AI service that answers nothing until its gate opens, then an error (the quota is all that counts)."""

    def __init__(self):
        self.gate = threading.Event()
        self.waiting = threading.Semaphore(0)

    def SuggestMove(self, request, context):
        self.waiting.release()
        self.gate.wait(10)
        context.abort(grpc.StatusCode.INTERNAL, "closed")


def test_concurrent_suggestions_are_limited_until_one_returns(serve):
    ai = GatedAI()
    server = grpc.server(futures.ThreadPoolExecutor(4))
    ai_service_pb2_grpc.add_AIServiceServicer_to_server(ai, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        api = serve(quota_suggestions=1, ai_target=f"127.0.0.1:{port}", suggest_timeout_seconds=10.0)
        created = create(api, start=True)
        token = created.seat_tokens[0].token

        def suggest():
            return api.stub.SuggestMove(pb.SuggestMoveRequest(game_id=created.game_id), metadata=api.auth(token))

        with futures.ThreadPoolExecutor(1) as pool:
            pending = pool.submit(suggest)
            assert ai.waiting.acquire(timeout=10)
            refused(suggest, "QUOTA_SUGGESTIONS")
            ai.gate.set()
            with pytest.raises(grpc.RpcError) as caught:
                pending.result(10)
            assert errors.error_info(caught.value).reason == "AI_ERROR"
        with pytest.raises(grpc.RpcError) as caught:
            eventually(suggest)
        assert errors.error_info(caught.value).reason == "AI_ERROR"  # admitted: the AI answered it
    finally:
        server.stop(0)


def test_an_api_key_has_its_own_and_larger_quota(serve):
    api = serve(quota_open_games=1)
    create(api)
    refused(lambda: create(api), "QUOTA_OPEN_GAMES")  # anonymous (its address): 1
    big = [("x-api-key", BIG_KEY)]
    for _ in range(3):  # multiplier 3
        create(api, big)
    refused(lambda: create(api, big), "QUOTA_OPEN_GAMES")
    small = [("x-api-key", SMALL_KEY)]
    create(api, small)
    refused(lambda: create(api, small), "QUOTA_OPEN_GAMES")


def test_an_unknown_api_key_is_refused(serve):
    api = serve(quota_open_games=1)
    for key in ("not-a-key", "", "x" * 300):
        with pytest.raises(grpc.RpcError) as caught:
            create(api, [("x-api-key", key)])
        assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
        assert errors.error_info(caught.value).reason == "INVALID_API_KEY"


def test_the_ai_service_credential_is_exempt(serve):
    api = serve(quota_open_games=1, quota_create_rate=1)
    for _ in range(3):
        create(api, api.auth(AI_TOKEN))
    create(api)
    refused(lambda: create(api), "QUOTA_CREATE_RATE")  # the rate is checked first


def test_two_replicas_share_the_limits(serve):
    a = serve(quota_open_games=2, quota_watch_streams=1)
    b = serve(quota_open_games=2, quota_watch_streams=1)
    game_id = create(a, start=True).game_id
    create(b)
    refused(lambda: create(a), "QUOTA_OPEN_GAMES")
    refused(lambda: create(b), "QUOTA_OPEN_GAMES")
    stream = a.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))
    next(stream)
    refused(lambda: next(b.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))), "QUOTA_WATCH_STREAMS")
    stream.cancel()


def test_the_lease_of_a_replica_that_died_runs_out(serve, redis_db_url):
    api = serve(quota_watch_streams=1, quota_lease_seconds=1)
    game_id = create(api, start=True).game_id
    client = redis.Redis.from_url(redis_db_url)
    try:
        key = quota_key("ip:127.0.0.1", "watch")
        client.zadd(key, {"dead-replica": redis_ms(client) + 1000})  # a lease nobody refreshes
        delay = refused(lambda: next(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))),
                        "QUOTA_WATCH_STREAMS")
        assert delay <= 1
        # Its lease time passes. Redis's clock (which the leases go by) cannot be moved on: its expiry is moved back.
        client.zadd(key, {"dead-replica": redis_ms(client) - 1})
    finally:
        client.close()
    stream = api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))
    next(stream)  # admitted
    stream.cancel()


def test_api_keys_and_limits_are_read_from_the_environment(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text(f"# name:sha256:multiplier\nbig:{key_hash(BIG_KEY)}:3\nsmall:{key_hash(SMALL_KEY).upper()}\n")
    config = Config.from_env({"TABLETOP_API_KEYS_FILE": str(keys), "TABLETOP_QUOTA_CREATE_RATE": "10",
                              "TABLETOP_QUOTA_OPEN_GAMES": "5", "TABLETOP_QUOTA_WATCH_STREAMS": "4",
                              "TABLETOP_QUOTA_SUGGESTIONS": "2", "TABLETOP_QUOTA_CREATE_WINDOW_SECONDS": "30"})
    assert (config.quota_create_rate, config.quota_open_games, config.quota_watch_streams,
            config.quota_suggestions, config.quota_create_window_seconds) == (10, 5, 4, 2, 30.0)
    parsed = parse_api_keys(keys.read_text())
    assert parsed[key_hash(BIG_KEY)].multiplier == 3 and parsed[key_hash(SMALL_KEY)].name == "small"
    for bad in ("nohash", f"a b:{key_hash('x')}", "k:abc", f"k:{key_hash('x')}:0", f"k:{key_hash('x')}:x"):
        with pytest.raises(ConfigError):
            Config.from_env({"TABLETOP_API_KEYS": bad})
    with pytest.raises(ConfigError, match="not both"):
        Config.from_env({"TABLETOP_API_KEYS": KEYS, "TABLETOP_API_KEYS_FILE": str(keys)})
    with pytest.raises(ConfigError, match="cannot be read"):
        Config.from_env({"TABLETOP_API_KEYS_FILE": str(tmp_path)})  # a directory
    # A Secret not created (yet): no keys until the file appears.
    assert Config.from_env({"TABLETOP_API_KEYS_FILE": str(tmp_path / "missing")}).api_keys_file


def test_peer_addresses():
    assert peer_address("ipv4:10.1.2.3:5555") == "10.1.2.3"
    assert peer_address("ipv6:[::1]:5555") == "::1"
    assert peer_address("unix:/tmp/s") == "unix:/tmp/s"


def test_one_task_keeps_every_lease_of_a_replica_alive(redis_db_url, toy_game):
    """Streams outlive their lease: the replica refreshes every lease it holds (in one task, however many streams),
    so the limit still holds long after the lease time, and a closed stream's lease is not brought back."""
    thread = ServerThread(service_config(redis_db_url, quota_watch_streams=3, quota_lease_seconds=1)).start()
    channel = grpc.insecure_channel(thread.target)
    try:
        _leases_kept_alive(Api(game_service_pb2_grpc.GameServiceStub(channel), channel), thread, redis_db_url)
    finally:
        channel.close()
        thread.stop()


def _leases_kept_alive(api: Api, thread: ServerThread, redis_db_url: str) -> None:
    quotas = thread.running.servicer.quotas
    game_id = create(api, start=True).game_id
    streams = [api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id)) for _ in range(3)]
    for stream in streams:
        next(stream)
    assert quotas._keeper is not None and len(quotas._held) == 3
    client = redis.Redis.from_url(redis_db_url)
    key = quota_key("ip:127.0.0.1", "watch")

    def expiries() -> dict[bytes, float]:
        return dict(client.zrange(key, 0, -1, withscores=True))

    try:
        taken = expiries()
        assert len(taken) == 3
        # Past the lease time (on Redis's clock, which the leases go by), only the refreshes keep the three leases.
        wait_until(lambda: redis_ms(client) > max(taken.values()), 5, "the leases' first expiry passing")
        refused(lambda: next(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id))), "QUOTA_WATCH_STREAMS")
        assert expiries().keys() == taken.keys()
        streams[0].cancel()
        kept = wait_until(lambda: len(now := expiries()) == 2 and now, 5, "the closed stream's release")
        # A refresh ran since (every lease it keeps moved on): the released lease stays gone, even for a refresh
        # that read the leases held before the release and reaches Redis after it.
        wait_until(lambda: all(expiries().get(m, 0) > expiry for m, expiry in kept.items()), 5, "a refresh")
        [released] = taken.keys() - kept.keys()
        late = quotas._refresh([(key, released.decode())], 1000)
        asyncio.run_coroutine_threadsafe(late, thread.loop).result(5)
        assert expiries().keys() == kept.keys()
        request = pb.WatchGameRequest(game_id=game_id)
        fourth = eventually(lambda: (lambda s: (next(s), s)[1])(api.stub.WatchGame(request)))
        for stream in (*streams[1:], fourth):
            stream.cancel()
        wait_until(lambda: not quotas._held, 5, "every lease released")
        assert quotas._keeper is None, "no lease held: no task left"
    finally:
        client.close()
