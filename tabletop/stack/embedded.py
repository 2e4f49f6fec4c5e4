"""What the embedded servers (embedded_redis.py, embedded_postgres.py) share: a folder of their own, a port, one
child process, and the life cycle around `start` and `stop`: restart, cleanup and `with`."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Self

from tabletop.stack.watchdog import WATCHDOG


def _ephemeral_low() -> int:
    """The lowest port of the kernel's ephemeral range, from which outgoing connections take their own ports."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_GIVEN: set[int] = set()  # the ports free_port gave in this process
_PORTS = random.SystemRandom()  # not the module's generator, which a caller may have seeded alike in every process


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now, for a server started next. Drawn at random below the
    ephemeral range, where the kernel would not hand it to a client's outgoing connection in the meantime (a port
    from bind(0) is in that range, and a busy test run's many connections took such a port before its server could
    bind it); bind(0) where that range leaves no room."""
    low = _ephemeral_low()
    if low > 12000:
        for _ in range(50):
            port = _PORTS.randrange(10000, low)
            if port in _GIVEN:  # given to a caller already, who may not have bound it yet (a cluster's six nodes)
                continue
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    continue
            if len(_GIVEN) >= 10000:
                _GIVEN.clear()
            _GIVEN.add(port)
            return port
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
