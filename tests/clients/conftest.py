"""A whole local stack (embedded Redis, `tabletop serve`, `tabletop ai-worker`, as child processes) for the
client tests, with small AI budgets so that all-AI games end in seconds; and a restartable `tabletop serve`."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import LocalStack, wait_serving

FAST_BUDGETS = "easy=25,normal=50,hard=100"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def client_env(**changes: str) -> dict[str, str]:
    """The environment of a `tabletop` command under test: fast AI, no metrics ports, no inherited target."""
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_SERVICE_TARGET"}
    env.update(TABLETOP_AI_BUDGETS=FAST_BUDGETS, TABLETOP_METRICS_PORT="0", TABLETOP_AI_METRICS_PORT="0",
               PYTHONUNBUFFERED="1", **changes)
    return env


def tabletop(*args: str) -> list[str]:
    return [sys.executable, "-m", "commands.cli", *args]


def run_tabletop(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`tabletop ARGS...` run to its end from the repository, with the tests' environment; its output captured."""
    return subprocess.run(tabletop(*args), env=client_env(), cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)


class FastStack(LocalStack):
    def env(self) -> dict[str, str]:
        env = super().env()
        env["TABLETOP_AI_BUDGETS"] = FAST_BUDGETS
        return env


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    with FastStack(data_dir=tmp_path_factory.mktemp("stack-redis")) as running:
        yield running


class ServiceProcess:
    """`tabletop serve` on a fixed port over a given Redis, that a test can kill and start again."""

    def __init__(self, redis_url: str):
        self.port = free_port()
        self.env = client_env(TABLETOP_REDIS_URL=redis_url, TABLETOP_GRPC_HOST="127.0.0.1",
                              TABLETOP_GRPC_PORT=str(self.port), TABLETOP_AI_SERVICE_TOKEN=secrets.token_hex(16),
                              TABLETOP_AI_TARGET="127.0.0.1:1", TABLETOP_LOG_LEVEL="warning",
                              TABLETOP_SHUTDOWN_GRACE_SECONDS="1")
        self.proc: subprocess.Popen | None = None

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> ServiceProcess:
        self.proc = subprocess.Popen(tabletop("serve"), env=self.env, cwd=REPO, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        wait_serving(self.target, self.proc, "game service", service="tabletop.v1.GameService")
        return self

    def kill(self) -> None:
        """SIGKILL: no graceful goodbye to the open streams."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def service_process(redis_db_url):
    service = ServiceProcess(redis_db_url).start()
    yield service
    service.stop()


@pytest.fixture(scope="module")
def shared_service(redis_url):
    """One `tabletop serve` for a module's tests that do not stop it (game ids keep their games apart)."""
    service = ServiceProcess(redis_url).start()
    yield service
    service.stop()
