"""`tabletop bench load` as a user runs it: it starts its own Redis, the game service with the Echo floor
(`python -m bench.floors echo`) and the bare floor, plays, measures both floors and Redis bytes, and prints each
figure. Only that it runs and reports is checked here; the figures are in docs/benchmarks.md."""

from __future__ import annotations

import re

import pytest

from bench import load

pytestmark = pytest.mark.integration


def test_bench_load_prints_rates_latencies_the_floor_ratios_and_bytes_per_game(capsys):
    code = load.main(["--clients", "2,4", "--games", "4", "--seconds", "1", "--finished", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert re.search(r"the game service with the Echo floor \(127\.0\.0\.1:\d+, pid \d+\) and the bare floor", out), out
    for clients in (2, 4):
        assert re.search(rf"moves  clients +{clients} +[\d.]+/s  MakeMove p50 +[\d.]+ ms p99", out), out
        assert re.search(rf"echo   clients +{clients} +[\d.]+/s  Echo p50", out), out
        assert re.search(rf"bare   clients +{clients} +[\d.]+/s  Echo p50", out), out
        for floor_name in ("Echo floor", "bare floor"):
            assert re.search(rf"clients +{clients}  vs the {floor_name}: game RPCs [\d.]+/s = [\d.]+ of its rate "
                             r"\(moves [\d.]+\)", out), out
        # CPU time per call is read from /proc of the processes the benchmark started itself
        assert re.search(rf"clients +{clients}  vs the Echo floor: .*; service CPU per game RPC [\d.]+ ms", out), out
    for game_type in ("hinode", "naishi"):
        assert re.search(rf"redis bytes per finished {game_type} game \(1 games, MEMORY USAGE of its keys\): "
                         r"kept for the retention: mean \d+, max \d+; right after the end: mean \d+, max \d+; "
                         r"by key: hash \d+ \(expires in \d+ s\), events \d+ ", out), out
