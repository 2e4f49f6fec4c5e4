"""The local stack ends with the process that started it, however that process ends.

`tabletop play` killed by a closed terminal (SIGHUP), by SIGTERM or by SIGKILL runs none of its own clean-up, and
its children (Redis, the game service, the AI worker, the gateway), each in a session of its own, would go on
running under init, with their temporary folders. So the first part of a stack to start is a watchdog: a small
process (this file, run by path with the standard library only) that holds the read end of a pipe whose write end
only the parent holds. The parent tells it, line by line, which processes to stop and which folders to remove,
and which of those it has already stopped or removed itself. When the pipe reaches its end without the parent
having released everything, the parent is gone (the kernel closes a dead process's pipes, whatever killed it):
the watchdog then stops what is left (SIGTERM to each process's group, SIGKILL after a grace), removes the folders
and exits. A parent that ends normally has released everything, and its watchdog just exits.

One watchdog serves every stack and embedded Redis of a process (`WATCHDOG`); a forked child that starts a stack
of its own gets a watchdog of its own.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

GRACE_SECONDS = 25.0  # SIGTERM, then this long (the service's and worker's own shutdown grace is 20 s), then SIGKILL


def _start_time(pid: int) -> str:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), so that a pid reused by
    another process is never signalled; "-" where there is no /proc."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return "-"


class Watchdog:
    """The parent's side: `guard(pid)` / `release(pid)`, `clean(folder)` / `forget(folder)`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._write: int | None = None
        self.proc: subprocess.Popen | None = None

    def _send(self, line: str) -> None:
        data = (line + "\n").encode()
        with self._lock:
            if self._write is None:
                self._start()
            try:
                os.write(self._write, data)  # one short line: a single atomic write to the pipe
            except BrokenPipeError:  # the watchdog was killed: a new one, for what comes next
                os.close(self._write)
                self._start()
                os.write(self._write, data)

    def _start(self) -> None:
        read, write = os.pipe()  # not inherited by the stack's processes (close_fds, non-inheritable)
        # Its own session (a terminal's Ctrl-C or hang-up is not for it), and no stdout or stderr of ours: a
        # caller reading the parent's output to its end does not wait for the watchdog.
        self.proc = subprocess.Popen(
            [sys.executable, "-I", os.path.abspath(__file__), str(read)], pass_fds=(read,),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        os.close(read)
        self._write = write

    def _after_fork_in_child(self) -> None:
        """A forked child holds no end of its parent's pipe (the parent's watchdog must see its end when the parent
        goes, not when the last child it forked does), and starts a watchdog of its own if it needs one."""
        self._lock = threading.Lock()
        if self._write is not None:
            try:
                os.close(self._write)
            except OSError:
                pass
        self._write, self.proc = None, None

    def guard(self, pid: int) -> None:
        """Stop process `pid` (and its process group) if this process ends before `release(pid)`."""
        self._send(f"guard {pid} {_start_time(pid)}")

    def release(self, pid: int) -> None:
        self._send(f"release {pid}")

    def clean(self, folder: str | os.PathLike) -> None:
        """Remove `folder` (once the guarded processes are gone) if this process ends before `forget(folder)`."""
        self._send(f"clean {os.fspath(folder)}")

    def forget(self, folder: str | os.PathLike) -> None:
        self._send(f"forget {os.fspath(folder)}")


WATCHDOG = Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WATCHDOG._after_fork_in_child)


# --- the watchdog process ---------------------------------------------------------------------------------------

def _alive(pid: int, start: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    if start != "-" and _start_time(pid) != start:
        return False  # gone, its pid reused
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie waiting for init is gone
    except OSError:
        return start == "-"


def _signal(pid: int, signum: int) -> None:
    try:
        if os.getpgid(pid) == pid:  # a session leader: its own children (forked searches) go with it
            os.killpg(pid, signum)
        else:
            os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def _wait_gone(guarded: dict[int, str], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(_alive(pid, start) for pid, start in guarded.items()) and time.monotonic() < deadline:
        time.sleep(0.05)


def main(fd: int) -> None:
    for signum in (signal.SIGINT, signal.SIGHUP):  # a closed terminal or Ctrl-C is for the parent, not for us
        signal.signal(signum, signal.SIG_IGN)
    guarded: dict[int, str] = {}
    folders: list[str] = []
    with os.fdopen(fd, "rb") as pipe:
        for raw in pipe:  # until the parent is gone
            word, _, rest = raw.decode().rstrip("\n").partition(" ")
            if word == "guard":
                pid, start = rest.split(" ", 1)
                guarded[int(pid)] = start
            elif word == "release":
                guarded.pop(int(rest), None)
            elif word == "clean":
                folders.append(rest)
            elif word == "forget" and rest in folders:
                folders.remove(rest)
    if guarded:
        for pid, start in reversed(list(guarded.items())):  # the last started first, as LocalStack.stop does
            if _alive(pid, start):
                _signal(pid, signal.SIGTERM)
        _wait_gone(guarded, GRACE_SECONDS)
        for pid, start in guarded.items():
            if _alive(pid, start):
                _signal(pid, signal.SIGKILL)
        _wait_gone(guarded, 10.0)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main(int(sys.argv[1]))
