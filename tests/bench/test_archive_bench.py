"""`tabletop bench archive` with tiny numbers (docs/benchmarks.md has the full run), so that it cannot rot: it
fills the archive streams with real Hinode games, one writer drains them, a stalled PostgreSQL lets a backlog
build and drain, and every game ends up in PostgreSQL once. Figures are printed, never asserted on."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path


def test_the_archive_bench_runs_and_loses_no_game(redis_db_url, database_url):
    run = subprocess.run([sys.executable, "-m", "commands.cli", "bench", "archive", "--games", "4", "--batch", "3",
                          "--stall-seconds", "1", "--stall-rate", "3", "--rating-games", "20", "--concurrency", "2",
                          "--redis-url", redis_db_url, "--database-url", database_url],
                         cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    print(run.stdout)
    assert re.search(r"fill: 4 games finished and 3 left one move from their end", run.stdout), run.stdout
    assert re.search(r"throughput: (\d+ games in [\d.]+ s = \d+ games/s; writer CPU|not measured)", run.stdout), \
        run.stdout
    assert re.search(r"ratings: openskill update of a rated 4-seat game [\d.]+ ms CPU", run.stdout), run.stdout
    assert re.search(r"stall: PostgreSQL locked [\d.]+ s while 3 games finished; backlog peak 3 entries",
                     run.stdout), run.stdout
    assert "check: 7 games finished, 7 in PostgreSQL (7 rows added), 0 lost, 0 doubled; 28 rating changes" \
        in run.stdout, run.stdout


def test_the_archive_bench_refuses_a_redis_with_games_waiting(redis_db_url, database_url):
    import redis

    from service.store import archive_stream

    client = redis.Redis.from_url(redis_db_url)
    client.xadd(archive_stream(0), {"game": "someone-elses"})
    client.close()
    run = subprocess.run([sys.executable, "-m", "commands.cli", "bench", "archive", "--games", "1",
                          "--redis-url", redis_db_url, "--database-url", database_url],
                         cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not empty" in run.stderr
