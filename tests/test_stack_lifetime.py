"""The local stack ends with the process that started it, however it ends (issue 26, item 8).

A real `tabletop play` starts its stack (embedded Redis, game service, AI worker) and waits for the player; it is
then ended as a closed terminal (SIGHUP), `kill` (SIGTERM) or `kill -9` (SIGKILL) would end it. Every process it
started must be gone afterwards, and every temporary folder removed: the test gives it a TMPDIR of its own, which
must be empty again.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HANG_BOUND = 180.0  # a bound against a hang, not a speed check: the stack's clean stop usually takes a second


def descendants(root: int) -> dict[int, str]:
    """{pid: command line} of every process below `root` (from /proc)."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found[child] = commands.get(child, "")
                frontier.append(child)
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextlib.contextmanager
def hangups_not_ignored():
    """A child started in here gets SIGHUP's default action (death), as from a terminal, even when these tests run
    under `nohup` or another runner that ignores SIGHUP: an ignored signal stays ignored across exec, and the
    command under test rightly keeps a SIGHUP ignored that its caller chose to ignore."""
    before = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


@pytest.mark.integration  # it starts processes
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGKILL],
                         ids=["SIGHUP", "SIGTERM", "SIGKILL"])
def test_the_stack_ends_with_its_parent(signum, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}
    env.update(TMPDIR=str(tmp), TABLETOP_METRICS_PORT="0", TABLETOP_AI_METRICS_PORT="0", NO_COLOR="1")
    with hangups_not_ignored():
        parent = subprocess.Popen(
            [sys.executable, "-m", "commands.cli", "play", "naishi", "--seats", "human,ai:easy"],
            cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
    children: dict[int, str] = {}
    try:
        seen = []
        for line in parent.stdout:  # the stack is up once the game's first screen asks for a move
            seen.append(line)
            if line.startswith("Your move"):
                break
        assert seen and seen[-1].startswith("Your move"), "".join(seen)
        children = descendants(parent.pid)
        commands = " | ".join(children.values())
        assert "redis-server" in commands and "commands.cli serve" in commands, commands
        assert "commands.cli ai-worker" in commands, commands
        assert any(tmp.iterdir()), "the stack keeps Redis's files in a temporary folder"

        # Keep reading what the parent and its stack write (their logs share its pipe): a full pipe would block
        # the stack's clean stop on a write, and the test would wait on that, not on the code under test.
        threading.Thread(target=lambda: seen.extend(parent.stdout), daemon=True).start()
        parent.send_signal(signum)
        parent.wait(timeout=HANG_BOUND)

        deadline = time.monotonic() + HANG_BOUND
        while time.monotonic() < deadline and (any(map(running, children)) or any(tmp.iterdir())):
            time.sleep(0.1)
        left = {pid: command for pid, command in children.items() if running(pid)}
        assert not left, f"still running after the parent's {signal.Signals(signum).name}: {left}"
        assert not list(tmp.iterdir()), f"temporary folders left: {list(tmp.iterdir())}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in children:  # whatever the test found and is still there (before the fix: all of it)
            if running(pid):
                os.kill(pid, signal.SIGKILL)


CHILD_FORKS = """
import os, subprocess, sys, tempfile, time
from tabletop.stack.watchdog import WATCHDOG
sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
WATCHDOG.guard(sleeper.pid)
folder = tempfile.mkdtemp()
WATCHDOG.clean(folder)
forked = os.fork()
if forked == 0:
    time.sleep(600)
    os._exit(0)
print(sleeper.pid, forked, folder, flush=True)
time.sleep(600)
"""


@pytest.mark.integration  # it starts processes
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc (Linux)")
def test_a_forked_child_does_not_keep_the_stack_alive(tmp_path):
    """A process that forks (a pool of workers, a search) after starting a stack: when it dies, its stack goes,
    though the child it forked lives on (the child holds no end of the watchdog's pipe)."""
    env = dict(os.environ, TMPDIR=str(tmp_path))
    parent = subprocess.Popen([sys.executable, "-c", CHILD_FORKS], cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    sleeper = forked = 0
    try:
        sleeper, forked, folder = parent.stdout.readline().split()
        sleeper, forked = int(sleeper), int(forked)
        assert running(sleeper) and running(forked) and Path(folder).is_dir()
        parent.kill()
        parent.wait(timeout=HANG_BOUND)
        deadline = time.monotonic() + HANG_BOUND
        while time.monotonic() < deadline and (running(sleeper) or Path(folder).exists()):
            time.sleep(0.05)
        assert not running(sleeper), "the guarded process outlived its parent"
        assert not Path(folder).exists()
        assert running(forked), "the forked child is no part of the stack"
    finally:
        for pid in (sleeper, forked):
            if pid and running(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
            parent.wait()


@pytest.mark.integration  # it starts processes
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc (Linux)")
def test_tabletop_run_killed_leaves_no_process(tmp_path):
    """`tabletop run` (PostgreSQL and the archive writer, the gateway too) killed with SIGKILL: everything goes."""
    import shutil
    import tempfile

    from tabletop.stack.embedded_redis import free_port

    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}
    database_dir = tempfile.mkdtemp(prefix="tabletop-run-test-")  # as root: a folder PostgreSQL's user can enter
    args = ["--data-dir", str(tmp_path / "redis"), "--database-dir", database_dir]
    # Every port drawn free: a default one (the archive writer's metrics, 9103) is another test's stack's too, under
    # xdist, and the writer that loses the race exits (seen: "commands.cli archive-writer" missing from the tree).
    for flag in ("--port", "--web-port", "--ai-port", "--metrics-port", "--ai-metrics-port", "--gateway-metrics-port",
                 "--archive-health-port", "--archive-metrics-port"):
        args += [flag, str(free_port())]
    parent = subprocess.Popen([sys.executable, "-m", "commands.cli", "run", *args], cwd=REPO, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    children: dict[int, str] = {}
    try:
        seen = []
        for line in parent.stdout:
            seen.append(line)
            if line.startswith("Stop with Ctrl-C"):
                break
        assert "Tabletop is running." in "".join(seen), "".join(seen)
        children = descendants(parent.pid)
        commands = " | ".join(children.values())
        for part in ("redis-server", "postgres", "commands.cli serve", "commands.cli archive-writer",
                     "commands.cli ai-worker", "commands.cli gateway"):
            assert part in commands, (part, commands)
        parent.kill()
        parent.wait(timeout=HANG_BOUND)
        deadline = time.monotonic() + HANG_BOUND
        while time.monotonic() < deadline and any(map(running, children)):
            time.sleep(0.1)
        left = {pid: command for pid, command in children.items() if running(pid)}
        assert not left, f"still running after the parent's SIGKILL: {left}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in children:
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(database_dir, ignore_errors=True)
