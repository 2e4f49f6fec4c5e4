"""Start and stop a real `redis-server` process: the embedded default of `make run` and of the tests.

Never a fake: the binary is `$TABLETOP_REDIS_SERVER_BIN`, or `redis-server` on PATH (Debian/Ubuntu package
`redis-server`, Homebrew `redis`). It listens on 127.0.0.1 only, on a free port unless one is given, and keeps
its files (AOF, logs) in its own directory.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class RedisNotFound(RuntimeError):
    pass


def find_redis_server() -> str:
    explicit = os.environ.get("TABLETOP_REDIS_SERVER_BIN")
    if explicit:
        return explicit
    for candidate in (shutil.which("redis-server"), "/usr/bin/redis-server", "/usr/sbin/redis-server",
                      "/usr/local/bin/redis-server", "/opt/homebrew/bin/redis-server"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise RedisNotFound(
        "no redis-server binary found: install it (Debian/Ubuntu: apt-get install redis-server; "
        "macOS: brew install redis), set TABLETOP_REDIS_SERVER_BIN, or point TABLETOP_REDIS_URL at a Redis"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    """A redis-server child process; with AOF on (the default) acknowledged writes survive a restart."""

    def __init__(
        self,
        directory: str | Path | None = None,
        port: int | None = None,
        appendonly: bool = True,
        appendfsync: str = "always",
    ):
        self._owned_dir = directory is None
        self.dir = Path(directory).resolve() if directory else Path(tempfile.mkdtemp(prefix="tabletop-redis-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.appendonly = appendonly
        # "always": a write is on disk before Redis acknowledges it, so no acknowledged move is lost even when
        # the Redis process is killed; "everysec" trades up to a second of writes for throughput.
        self.appendfsync = appendfsync
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        args = [
            find_redis_server(),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.dir),
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--appendfsync", self.appendfsync,
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", str(self.dir / "redis.log"),
        ]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
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
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def restart(self, kill: bool = False) -> None:
        """Stop and start again on the same port and directory (the AOF brings the data back)."""
        self.stop(kill=kill)
        self.start()

    def cleanup(self) -> None:
        self.stop()
        if self._owned_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.cleanup()
