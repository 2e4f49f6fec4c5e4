"""What the embedded servers (embedded_redis.py, embedded_postgres.py) share: a folder of their own, a port, one
child process, and the life cycle around `start` and `stop`: restart, cleanup and `with`."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
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
# Ports given to any process on this machine (a test run's workers, a second clone's `make test`), each a file named
# by its number, made with O_EXCL: another process's draw of the same port in the seconds before its server binds
# it would otherwise pass the bind probe too, and one of the two servers would fail to listen.
_CLAIMS = Path(tempfile.gettempdir()) / "tabletop-ports"
_CLAIM_SECONDS = 120.0  # a claim older than this is spent: its server has bound the port, or never will


def _claim(port: int) -> bool:
    """Whether this process may give `port`: no other process claimed it in the last _CLAIM_SECONDS."""
    try:
        _CLAIMS.mkdir(mode=0o1777, exist_ok=True)
        path = _CLAIMS / str(port)
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
            return True
        except FileExistsError:
            if time.time() - path.stat().st_mtime < _CLAIM_SECONDS:
                return False
            os.utime(path)  # a spent claim, renewed as ours
            return True
    except OSError:  # no shared folder to write in (or the claim vanished as we looked): the bind probe alone
        return True


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now, for a server started next. Drawn at random below the
    ephemeral range, where the kernel would not hand it to a client's outgoing connection in the meantime (a port
    from bind(0) is in that range, and a busy test run's many connections took such a port before its server could
    bind it), and claimed for a while across processes (_claim) so that no other process gives it before that
    server binds it; bind(0) where that range leaves no room."""
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
            if not _claim(port):
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
