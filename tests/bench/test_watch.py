"""`tabletop bench watch` (bench/watch.py) where its streams open: on another running replica (--watch-target), or
on a replica of the watch tier it starts itself (--watch-tier), with the two sides on CPUs of their own (--pin).
Short runs: the figures are in docs/resilience.md; the 5,000 watchers are tests/service/test_watch_fanout.py's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.service.conftest import ServerThread, service_config

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration  # each test starts servers


def test_the_watch_bench_can_open_its_streams_on_another_replica(redis_db_url):
    """`tabletop bench watch --target A --watch-target B`: the players play on A, the streams open on B (two replicas
    of one service, one Redis), and B delivers the players' moves to them."""
    players = ServerThread(service_config(redis_db_url)).start()
    spectators = ServerThread(service_config(redis_db_url)).start()
    try:
        run = subprocess.run([sys.executable, "-m", "commands.cli", "bench", "watch", "--target", players.target,
                              "--watch-target", spectators.target, "--clients", "2", "--watchers", "40",
                              "--seconds", "1", "--think", "0.2"],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"(opened on {spectators.target})" in run.stdout, run.stdout
        assert int(re.search(r"watchers: (\d+) streams opened", run.stdout).group(1)) >= 40, run.stdout
        assert int(re.search(r"watchers (\d+) events delivered", run.stdout).group(1)) > 0, run.stdout
        assert spectators.running.servicer.watch.feed._readers, "the streams were served by the second replica"
        assert not players.running.servicer.watch.feed._readers, "and none by the players' replica"
    finally:
        players.stop()
        spectators.stop()


def test_the_watch_bench_starts_a_watch_tier_and_pins_the_sides():
    """`tabletop bench watch --watch-tier --pin`: the benchmark starts a second replica on the same Redis and opens
    the streams there, as the watch tier of deploy/k8s does, and with two CPUs or more puts the players' side and
    the spectators' side on CPUs of their own (with fewer it says why it cannot)."""
    run = subprocess.run([sys.executable, "-m", "commands.cli", "bench", "watch", "--watch-tier", "--pin",
                          "--clients", "2", "--watchers", "40", "--seconds", "1", "--think", "0.2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    if len(os.sched_getaffinity(0)) < 2:
        assert run.returncode == 2 and "--pin needs at least two CPUs" in run.stderr, run.stdout + run.stderr
        return
    assert run.returncode == 0, run.stdout + run.stderr
    players = re.search(r"tabletop serve \((127\.0\.0\.1:\d+)\), and a replica of the watch tier "
                        r"\((127\.0\.0\.1:\d+)\)", run.stdout)
    assert players and players.group(1) != players.group(2), run.stdout
    assert f"(opened on {players.group(2)})" in run.stdout, run.stdout
    assert re.search(r"pinned: players' side \(pids [\d, ]+\) on CPUs \[.+\], spectators' side", run.stdout)
    assert int(re.search(r"watchers: (\d+) streams opened", run.stdout).group(1)) >= 40, run.stdout
    assert int(re.search(r"watchers (\d+) events delivered", run.stdout).group(1)) > 0, run.stdout
    assert run.stdout.count("no errors") == 2 and "between phases" not in run.stdout, run.stdout
