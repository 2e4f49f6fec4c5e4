"""`tabletop bench load` against a running service (--target): it plays, measures the Echo floor and Redis bytes,
and prints each figure. Only that it runs and reports is checked here; the figures are in docs/benchmarks.md."""

from __future__ import annotations

import re

from clients import loadgen
from tests.service.test_fuzz import ServeProcess


def test_bench_load_prints_rates_latencies_the_floor_ratio_and_bytes_per_game(redis_db_url, tmp_path, capsys):
    serve = ServeProcess(redis_db_url, tmp_path / "serve.log", TABLETOP_BENCH_ECHO="1")
    try:
        code = loadgen.main(["--target", serve.target, "--redis-url", redis_db_url, "--clients", "2,4",
                             "--games", "4", "--seconds", "1", "--finished", "1"])
    finally:
        assert serve.stop() == 0
    out = capsys.readouterr().out
    assert code == 0
    for clients in (2, 4):
        assert re.search(rf"moves  clients +{clients} +[\d.]+/s  MakeMove p50 +[\d.]+ ms p99", out), out
        assert re.search(rf"echo   clients +{clients} +[\d.]+/s  Echo p50", out), out
        assert re.search(rf"clients +{clients}  game RPCs [\d.]+/s = [\d.]+ of the Echo floor", out), out
    assert re.search(r"redis bytes per finished game \(1 games, MEMORY USAGE\): mean \d+", out), out
