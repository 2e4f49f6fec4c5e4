"""`tabletop bench load` against a running service (--target) and a bare floor (--floor-target): it plays, measures
both floors and Redis bytes, and prints each figure. Only that it runs and reports is checked here; the figures
are in docs/benchmarks.md."""

from __future__ import annotations

import re
import subprocess
import sys

from clients import loadgen
from commands.embedded_redis import free_port
from commands.launcher import wait_serving
from tests.service.test_fuzz import ServeProcess


def test_bench_load_prints_rates_latencies_the_floor_ratios_and_bytes_per_game(redis_db_url, tmp_path, capsys):
    serve = ServeProcess(redis_db_url, tmp_path / "serve.log", TABLETOP_BENCH_ECHO="1")
    port = free_port()
    floor = subprocess.Popen([sys.executable, "-m", "service.bare_floor", "--port", str(port),
                              "--redis-url", redis_db_url])
    try:
        wait_serving(f"127.0.0.1:{port}", floor, "bare floor")
        code = loadgen.main(["--target", serve.target, "--redis-url", redis_db_url, "--clients", "2,4",
                             "--floor-target", f"127.0.0.1:{port}", "--games", "4", "--seconds", "1",
                             "--finished", "1"])
    finally:
        floor.terminate()
        assert floor.wait(10) is not None
        assert serve.stop() == 0
    out = capsys.readouterr().out
    assert code == 0
    for clients in (2, 4):
        assert re.search(rf"moves  clients +{clients} +[\d.]+/s  MakeMove p50 +[\d.]+ ms p99", out), out
        assert re.search(rf"echo   clients +{clients} +[\d.]+/s  Echo p50", out), out
        assert re.search(rf"bare   clients +{clients} +[\d.]+/s  Echo p50", out), out
        for floor_name in ("Echo floor", "bare floor"):
            assert re.search(rf"clients +{clients}  vs the {floor_name}: game RPCs [\d.]+/s = [\d.]+ of its rate "
                             r"\(moves [\d.]+\); p99 MakeMove [\d.]+x, GetState [\d.]+x of its Echo p99", out), out
    for game_type in ("hinode", "naishi"):
        assert re.search(rf"redis bytes per finished {game_type} game \(1 games, MEMORY USAGE of its keys\): "
                         r"kept for the retention: mean \d+, max \d+; right after the end: mean \d+, max \d+; "
                         r"by key: hash \d+ \(expires in \d+ s\), events \d+ ", out), out
