"""What the embedded servers (embedded_redis.py, embedded_postgres.py) share: a folder of their own, a port, one
child process, and the life cycle around `start` and `stop`: restart, cleanup and `with`."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Final, Self

from tabletop.stack.watchdog import WATCHDOG


def _ephemeral_low() -> int:
    """The lowest port of the kernel's ephemeral range, from which outgoing connections take their own ports."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_GIVEN: set[int] = set()  # the ports free_port gave in this process
_PORTS = random.SystemRandom()  # not the module's generator, which a caller may have seeded alike in every process
# Ports given to any process on this machine (a test run's two workers, a second clone's `make test`): each held for
# a while as a Unix socket in Linux's abstract namespace, named by the port, which no other process can bind while
# this one holds it, and which leaves nothing behind (it is gone with the socket, or with the process). Without it,
# another process's draw of the same port in the seconds before this one's server binds it would pass the bind probe
# too, and one of the two servers would fail to listen. Elsewhere (no abstract namespace) the bind probe alone.
_CLAIMS: dict[int, tuple[socket.socket, float]] = {}  # port -> (its claim, when made), oldest first
_CLAIM_SECONDS = 120.0  # a claim older than this is dropped: its server has bound the port, or never will
_CLAIMS_HELD = 256  # and at most this many are held (each a file descriptor), the oldest dropped first
_CLAIMS_LOCK = threading.Lock()


def _claim(port: int) -> bool:
    """Whether this process may give `port`: no other process holds a claim on it. The claim is held (see _CLAIMS)."""
    with _CLAIMS_LOCK:
        return _claim_locked(port)


def _claim_locked(port: int) -> bool:
    now = time.monotonic()
    while _CLAIMS:
        oldest = next(iter(_CLAIMS))
        held, made = _CLAIMS[oldest]
        if now - made < _CLAIM_SECONDS and len(_CLAIMS) < _CLAIMS_HELD:
            break
        held.close()
        del _CLAIMS[oldest]
    if not hasattr(socket, "AF_UNIX") or not sys.platform.startswith("linux"):
        return True
    claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        claim.bind(f"\0tabletop-port-{port}")
    except OSError:  # another process holds it
        claim.close()
        return False
    _CLAIMS[port] = (claim, now)
    return True


# The ports of the range below that browsers refuse to load a page from (Chromium's and Firefox's restricted ports:
# net::ERR_UNSAFE_PORT); a web stack's gateway drawn on one failed the browser tests.
_BROWSERS_REFUSE: Final = frozenset({10080})


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now, for a server started next. Drawn at random below the
    ephemeral range, where the kernel would not hand it to a client's outgoing connection in the meantime (a port
    from bind(0) is in that range, and a busy test run's many connections took such a port before its server could
    bind it), and claimed for a while (_claim) so that no other process gives it before that server binds it;
    bind(0) where that range leaves no room."""
    low = _ephemeral_low()
    if low > 12000:
        for _ in range(50):
            port = _PORTS.randrange(10000, low)
            if port in _GIVEN:  # given to a caller already, who may not have bound it yet (a cluster's six nodes)
                continue
            if port in _BROWSERS_REFUSE:  # a web table served there would not load
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
