"""Shared fixtures. Tests that need Redis get a real redis-server that the tests start themselves, or the one
named by TABLETOP_TEST_REDIS_URL. A Redis the tests did not start is never flushed: each test gets its own
logical database number or key prefix instead (see `redis_db_url`)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from tabletop import settings
from tabletop.stack.embedded_postgres import EmbeddedPostgres
from tabletop.stack.embedded_redis import EmbeddedRedis

# Games under development can join every suite that runs over the registry: TABLETOP_GAME_MODULES=games.x pytest
settings.load_game_modules(os.environ)


@pytest.fixture(scope="session")
def redis_server():
    """A real redis-server for the whole session (AOF on); None when TABLETOP_TEST_REDIS_URL is set."""
    if os.environ.get("TABLETOP_TEST_REDIS_URL"):
        yield None
        return
    server = EmbeddedRedis(appendonly=True).start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def redis_url(redis_server) -> str:
    """URL of the session's Redis (database 0)."""
    return os.environ.get("TABLETOP_TEST_REDIS_URL") or redis_server.url


_db_numbers = itertools.count(1)


@pytest.fixture
def redis_db_url(redis_server, redis_url) -> str:
    """A Redis URL for one test. With our own server: a fresh, flushed logical database (1..15, reused
    round-robin). With an external server: the same URL (tests must then use unique game ids only)."""
    if redis_server is None:
        return redis_url
    import redis

    db = 1 + (next(_db_numbers) - 1) % 15
    client = redis.Redis(port=redis_server.port, db=db)
    client.flushdb()
    client.close()
    return f"redis://127.0.0.1:{redis_server.port}/{db}"


@pytest.fixture
def own_redis(tmp_path):
    """A private redis-server for tests that restart or kill it (AOF on, in tmp_path)."""
    server = EmbeddedRedis(directory=tmp_path / "redis", appendonly=True).start()
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL for the whole session (per xdist worker), started by the tests in a fresh temporary
    folder on a free port: never a server the tests did not start (not 127.0.0.1:5432)."""
    server = EmbeddedPostgres(fsync=False).start()
    try:
        yield server
    finally:
        server.cleanup()


_database_numbers = itertools.count(1)


@pytest.fixture
def database_url(postgres_server) -> str:
    """A fresh, empty database on the session's PostgreSQL, for one test."""
    import psycopg

    name = f"test_{os.getpid()}_{next(_database_numbers)}"
    admin = postgres_server.url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_server.url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture
def own_postgres():
    """A private PostgreSQL for tests that stop, kill or restart it."""
    server = EmbeddedPostgres(fsync=False).start()
    try:
        yield server
    finally:
        server.cleanup()


# Fixtures that start real servers (Redis, the service, the worker): a test using any of them is an integration
# test, left out of the fast tier (`make test-fast`).
DEPLOY_TESTS = Path(__file__).parent / "deploy"
SERVER_FIXTURES = {
    "redis_server", "redis_url", "redis_db_url", "own_redis", "server", "api", "stack", "serve", "cluster",
    "web_stack", "metered_stack", "players_stack",  # tests/frontends: a local stack and a browser
    "postgres_server", "database_url", "own_postgres",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        deploy_check = item.path.is_relative_to(DEPLOY_TESTS)
        if deploy_check or SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.integration)


# The fast tier (`make test-fast`, TABLETOP_FAST_TIER=1) starts no server, browser or process stack: a test that
# tries (a subprocess, a listening socket, a gRPC server) fails there, saying it belongs to the integration tier.
# git (reading the tree) may run. The deploy checks run kubectl, hadolint and promtool, each a process slow to start:
# they are marked integration below, with the tests that use a server fixture.
FAST_TIER = os.environ.get("TABLETOP_FAST_TIER") == "1"
OFFLINE_TOOLS = frozenset({"git"})


class FastTierViolation(AssertionError):
    """A test of the fast tier started a process or a server: mark it `integration` (or use a server fixture)."""


def _refuse(what: str):
    def refuse(*args, **kwargs):
        raise FastTierViolation(
            f"a fast-tier test {what}: mark it pytest.mark.integration (make test-fast starts no server or process)"
        )

    return refuse


@pytest.fixture(autouse=True)
def _environment_restored():
    """Every test leaves os.environ as it found it. Code a test runs in-process may set variables for the processes
    it starts (the benches' local stacks set TABLETOP_METRICS_PORT=0, TABLETOP_API_KEYS, ...); left behind, they
    reached a later test's stack in the same xdist worker, whose service then ran no metrics server (the streams
    test's refused looks at its metrics, in two full runs of three)."""
    saved = dict(os.environ)
    yield
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(autouse=True)
def _fast_tier_guard(request, monkeypatch):
    if not FAST_TIER or request.node.get_closest_marker("integration") or request.node.get_closest_marker("slow"):
        yield
        return
    import socket
    import subprocess

    import grpc
    import grpc.aio

    popen_init = subprocess.Popen.__init__
    refuse_process = _refuse("started a process")

    def offline_tools_only(self, args, *rest, **kwargs):
        program = args if isinstance(args, str | bytes | os.PathLike) else args[0]
        if os.path.basename(os.fsdecode(program)) not in OFFLINE_TOOLS:
            refuse_process()
        popen_init(self, args, *rest, **kwargs)

    monkeypatch.setattr(subprocess.Popen, "__init__", offline_tools_only)
    monkeypatch.setattr(socket.socket, "bind", _refuse("bound a socket (a server)"))
    monkeypatch.setattr(grpc, "server", _refuse("started a gRPC server"))
    monkeypatch.setattr(grpc.aio, "server", _refuse("started a gRPC server"))
    yield
