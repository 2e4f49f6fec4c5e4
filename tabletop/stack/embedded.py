"""What the embedded servers (embedded_redis.py, embedded_postgres.py) share: a folder of their own, a port, one
child process, and the life cycle around `start` and `stop`: restart, cleanup and `with`."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Self

from tabletop.stack.watchdog import WATCHDOG


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedServer(ABC):
    """A server child process keeping its files in `dir`: the given folder, or a fresh temporary one (named with
    `prefix`) that cleanup removes, as the watchdog does if this process is killed first."""

    prefix = "tabletop-server-"

    def __init__(self, directory: str | Path | None, port: int | None):
        self._owned_dir = directory is None
        self.dir = Path(directory).resolve() if directory else Path(tempfile.mkdtemp(prefix=self.prefix))
        if self._owned_dir:  # removed even if this process is killed (tabletop/stack/watchdog.py)
            WATCHDOG.clean(self.dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @abstractmethod
    def start(self) -> Self:
        """Start the server and return once it answers."""

    @abstractmethod
    def stop(self, kill: bool = False) -> None:
        """Stop the server (a clean shutdown, or SIGKILL when `kill`: a crash); nothing when it is not running."""

    def restart(self, kill: bool = False) -> None:
        """Stop and start again on the same port and folder (what was committed comes back)."""
        self.stop(kill=kill)
        self.start()

    def cleanup(self) -> None:
        self.stop()
        if self._owned_dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            WATCHDOG.forget(self.dir)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.cleanup()
