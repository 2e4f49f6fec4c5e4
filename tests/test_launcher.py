"""`tabletop run` (what `make run` starts): Redis, PostgreSQL, the game service, the archive writer, the AI worker and
the gRPC-Web gateway come up as separate processes, answer, and stop cleanly on Ctrl-C, leaving the embedded Redis's
and PostgreSQL's data on disk (a finished game is in the archive); the URL
printed for the browser serves the web table (or, without a build, says how to make one)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tabletop.stack.embedded_redis import free_port
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc


@pytest.mark.integration  # it starts processes
def test_tabletop_run_starts_the_stack_and_stops_on_ctrl_c(tmp_path):
    port, web_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}
    env["TABLETOP_METRICS_PORT"] = str(free_port())
    env["TABLETOP_AI_METRICS_PORT"] = str(free_port())
    env["TABLETOP_AI_GRPC_PORT"] = str(free_port())
    # Not under tmp_path: as root the embedded PostgreSQL runs as an unprivileged user, who cannot enter pytest's
    # private temporary folders.
    database_dir = tempfile.mkdtemp(prefix="tabletop-run-test-")
    proc = subprocess.Popen(
        [sys.executable, "-m", "commands.cli", "run", "--port", str(port), "--web-port", str(web_port),
         "--data-dir", str(tmp_path / "redis"), "--database-dir", database_dir],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    try:
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("Stop with Ctrl-C"):
                break
        text = "".join(lines)
        assert "Tabletop is running." in text, text
        assert f"game service   127.0.0.1:{port}" in text
        assert re.search(r"AI worker\s+127\.0\.0\.1:\d+", text), text
        assert f"http://127.0.0.1:{web_port}" in text, text
        database = re.search(r"archive\s+embedded PostgreSQL \S+ at (postgresql://\S+) \(data in (\S+)\)", text)
        assert database and database.group(2) == database_dir, text
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=5) as page:
            html = page.read().decode()
        assert ("<title>Tabletop</title>" in html) and ("make web" in html or "type=\"module\"" in html), html
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
            assert health.status == health_pb2.HealthCheckResponse.SERVING
            types = game_service_pb2_grpc.GameServiceStub(channel).ListGameTypes(pb.ListGameTypesRequest(), timeout=5)
            assert {"hinode", "naishi"} <= {t.name for t in types.game_types}
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            created = stub.CreateGame(pb.CreateGameRequest(game_type="naishi", start=True, seats=[
                pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN), pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN)]), timeout=10)
            token = created.seat_tokens[0].token
            stub.Resign(pb.ResignRequest(game_id=created.game_id), metadata=[("authorization", f"Bearer {token}")],
                        timeout=10)
        import psycopg

        def archived() -> list[str]:
            try:
                with psycopg.connect(database.group(1), connect_timeout=5) as conn:
                    return [r[0] for r in conn.execute("SELECT game_id FROM games")]
            except psycopg.errors.UndefinedTable:  # the writer has not migrated the schema yet
                return []

        deadline = time.monotonic() + 60
        while archived() != [created.game_id] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert archived() == [created.game_id]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        assert (tmp_path / "redis" / "redis.log").exists()
        assert (Path(database_dir) / "pgdata" / "PG_VERSION").exists()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(database_dir, ignore_errors=True)
