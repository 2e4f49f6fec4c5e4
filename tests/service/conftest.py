"""A real game service for the tests: the server factory on a free port, in a thread with its own event loop,
over the session's real Redis; plus the toy game registered for the duration of these tests."""

from __future__ import annotations

import asyncio
import secrets
import threading
from dataclasses import dataclass

import grpc
import pytest

from games import registry
from service import logs
from service.config import Config
from service.server import RunningServer, start_server
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

AI_TOKEN = "test-ai-service-token-" + secrets.token_hex(8)


class ServerThread:
    """Run `start_server(config)` on an event loop in a background thread."""

    def __init__(self, config: Config):
        self.config = config
        self.loop = asyncio.new_event_loop()
        self.running: RunningServer | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        logs.configure("warning")  # the per-RPC lines are checked on a real process (test_server_process)
        asyncio.set_event_loop(self.loop)
        try:
            self.running = self.loop.run_until_complete(start_server(self.config))
        except BaseException as exc:  # noqa: BLE001 - reported to the starting thread
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()

    def start(self) -> ServerThread:
        self._thread.start()
        self._ready.wait(30)
        if self._error:
            raise self._error
        return self

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.running.port}"

    def stop(self, grace: float = 1.0) -> None:
        asyncio.run_coroutine_threadsafe(self.running.stop(grace), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(30)


@pytest.fixture(scope="session")
def toy_game():
    """Host the toy game (tests/support/toygame.py) in the registry while the service tests run."""
    from tests.support.toygame import DESCRIPTOR, GAME

    hosted = DESCRIPTOR.name in registry.names()
    registry.register(DESCRIPTOR)
    yield GAME
    if not hosted:
        registry.unregister(DESCRIPTOR.name)


def service_config(redis_url: str, **changes) -> Config:
    defaults = dict(redis_url=redis_url, grpc_host="127.0.0.1", grpc_port=0, metrics_port=0,
                    ai_service_token=AI_TOKEN, ai_target="127.0.0.1:1", suggest_timeout_seconds=2.0)
    return Config(**{**defaults, **changes})


@pytest.fixture(scope="session")
def server(redis_url, toy_game):
    thread = ServerThread(service_config(redis_url)).start()
    yield thread
    thread.stop()


@dataclass
class Api:
    """A client of the test server: the stub plus helpers to call it with a token."""

    stub: game_service_pb2_grpc.GameServiceStub
    channel: grpc.Channel

    @staticmethod
    def auth(token: str | None, seat: int | None = None) -> list[tuple[str, str]]:
        metadata = [("authorization", f"Bearer {token}")] if token else []
        if seat is not None:
            metadata.append(("x-tabletop-seat", str(seat)))
        return metadata

    def create(self, game_type: str, kinds: list[int | pb.SeatSpec], **kwargs) -> pb.CreateGameResponse:
        seats = [k if isinstance(k, pb.SeatSpec) else pb.SeatSpec(kind=k) for k in kinds]
        return self.stub.CreateGame(pb.CreateGameRequest(game_type=game_type, seats=seats, **kwargs))

    def state(self, game_id: str, token: str | None = None, seat: int | None = None) -> pb.GameState:
        return self.stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=self.auth(token, seat)).state

    def move(self, game_id: str, token: str, move_id: str, **kwargs) -> pb.MakeMoveResponse:
        request = pb.MakeMoveRequest(game_id=game_id, move_id=move_id, **kwargs)
        return self.stub.MakeMove(request, metadata=self.auth(token))


@pytest.fixture(scope="session")
def api(server):
    channel = grpc.insecure_channel(server.target)
    yield Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
    channel.close()


HUMAN, AI, OPEN = pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_AI, pb.SEAT_KIND_OPEN


@pytest.fixture
def archive_service(redis_db_url, database_url, toy_game):
    """A service for the archive's reads (history, replays, ratings): the tests' identity keys, a migrated database,
    the toy game hosted. Its ServerThread."""
    # Imported here: those test modules import this conftest.
    from tests.service.test_archive import migrated
    from tests.service.test_history import identity_config

    thread = ServerThread(identity_config(redis_db_url, database_url=database_url)).start()
    migrated(database_url)
    yield thread
    thread.stop()


@pytest.fixture
def archive_stub(archive_service):
    """A stub of `archive_service`."""
    channel = grpc.insecure_channel(archive_service.target)
    yield game_service_pb2_grpc.GameServiceStub(channel)
    channel.close()
