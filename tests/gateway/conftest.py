"""A real gateway for the tests: the aiohttp application on a free port, in a thread with its own event loop, in
front of a real game service (tests/service/conftest.py) over the session's real Redis."""

from __future__ import annotations

import asyncio
import threading

import pytest

from gateway.config import Config
from gateway.server import start
from tests.service.conftest import ServerThread, api, server, service_config, toy_game  # noqa: F401 - fixtures

ALLOWED_ORIGIN = "http://table.example:5173"
FORWARD_SECRET = "test-forward-secret"


class GatewayThread:
    """Run the gateway on an event loop in a background thread; `url` is its base URL."""

    def __init__(self, config: Config):
        self.config = config
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self._runner = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self._runner, self.port = self.loop.run_until_complete(start(self.config))
        self._ready.set()
        self.loop.run_forever()

    def start(self) -> GatewayThread:
        self._thread.start()
        assert self._ready.wait(30), "the gateway did not start"
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(30)


def gateway_config(upstream: str, **changes) -> Config:
    defaults = dict(host="127.0.0.1", port=0, upstream=upstream, metrics_port=0,
                    allowed_origins=frozenset({ALLOWED_ORIGIN}), shutdown_grace_seconds=1.0)
    return Config(**{**defaults, **changes})


@pytest.fixture(scope="module")
def gateway(server):  # noqa: F811 - the imported fixture
    thread = GatewayThread(gateway_config(server.target)).start()
    yield thread
    thread.stop()


@pytest.fixture(scope="module")
def quota_stack(redis_url, toy_game):  # noqa: F811
    """A service allowing one game creation a minute per caller, trusting the address its gateway forwards."""
    service = ServerThread(service_config(redis_url, quota_create_rate=1, quota_create_window_seconds=60,
                                          gateway_forward_secret=FORWARD_SECRET)).start()
    front = GatewayThread(gateway_config(service.target, forward_secret=FORWARD_SECRET,
                                         trust_forwarded_for=True)).start()
    yield service, front
    front.stop()
    service.stop()
