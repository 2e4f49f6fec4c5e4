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

from tabletop.stack import dev_identity
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
    # No default port: another test's stack may hold it at once under xdist (tests/test_stack_lifetime.py says so).
    for variable in ("TABLETOP_GATEWAY_METRICS_PORT", "TABLETOP_ARCHIVE_METRICS_PORT", "TABLETOP_ARCHIVE_HEALTH_PORT"):
        env[variable] = str(free_port())
    env["TABLETOP_DEV_IDENTITY_FILE"] = str(tmp_path / "dev-identity.json")
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
            # Players sign in: the service takes identities signed with the development secret the run made, which
            # `tabletop token` mints (tabletop/stack/dev_identity.py), and its link opens this run's table.
            assert "tabletop token PLAYER_ID" in text, text
            identity = dev_identity.read(tmp_path / "dev-identity.json")
            assert identity.sign_in_link("JWT") == f"http://127.0.0.1:{web_port}/#token=JWT"
            mine = stub.ListMyGames(pb.ListMyGamesRequest(), timeout=10,
                                    metadata=[("authorization", f"Bearer {identity.mint('ann', 'Ann')}")])
            assert list(mine.games) == []
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


# --- ports (issue 26, item 9) -----------------------------------------------------------------------------------

def _run_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("TABLETOP_")}


def _start_run(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """`tabletop run ARGS`, read up to its banner's end (or its exit); returns the process and what it printed."""
    proc = subprocess.Popen([sys.executable, "-m", "commands.cli", "run", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("Stop with Ctrl-C"):
            break
    return proc, "".join(lines)


def _stop_run(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _listening(port: int) -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except OSError:
        return False
    return True


def _port_in_time_wait() -> int:
    """A port whose last connection, closed by the listening side first, is in TIME-WAIT (as after a restart)."""
    import socket

    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the gateway's, gRPC's, Prometheus's
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = server.accept()
        accepted.close()  # the server's end closes first: it is the one left in TIME-WAIT
        client.recv(1)
        client.close()
    with socket.socket() as probe, pytest.raises(OSError):  # without SO_REUSEADDR the port looks taken
        probe.bind(("127.0.0.1", port))
    return port


@pytest.mark.integration  # it starts processes
def test_run_uses_every_port_asked_for_and_says_where_everything_listens(tmp_path):
    """A port asked for is used even when the last run's connections are in TIME-WAIT (the web table moved to a
    random port); the embedded Redis's and PostgreSQL's ports can be set; the banner lists every port, the gateway's
    metrics and the archive writer's health too."""
    web_port = _port_in_time_wait()
    ports = {name: free_port() for name in ("grpc", "ai", "redis", "metrics", "ai_metrics", "gateway_metrics",
                                            "database", "archive_health")}
    env = _run_env()
    env.update(TABLETOP_GATEWAY_PORT=str(web_port), TABLETOP_AI_GRPC_PORT=str(ports["ai"]),
               TABLETOP_REDIS_PORT=str(ports["redis"]), TABLETOP_GATEWAY_METRICS_PORT=str(ports["gateway_metrics"]),
               TABLETOP_ARCHIVE_HEALTH_PORT=str(ports["archive_health"]),
               TABLETOP_ARCHIVE_METRICS_PORT=str(free_port()))
    database_dir = tempfile.mkdtemp(prefix="tabletop-run-test-")  # as root: a folder PostgreSQL's user can enter
    proc, text = _start_run(["--port", str(ports["grpc"]), "--metrics-port", str(ports["metrics"]),
                             "--ai-metrics-port", str(ports["ai_metrics"]), "--database-port", str(ports["database"]),
                             "--data-dir", str(tmp_path / "redis"), "--database-dir", database_dir], env)
    try:
        assert "Tabletop is running." in text, text
        assert f"http://127.0.0.1:{web_port}/" in text or f"http://127.0.0.1:{web_port} " in text, text
        assert f"game service   127.0.0.1:{ports['grpc']}" in text, text
        assert f"AI worker      127.0.0.1:{ports['ai']}" in text, text
        assert f"redis://127.0.0.1:{ports['redis']}/0" in text, text
        assert f"@127.0.0.1:{ports['database']}/" in text, text
        assert f"archive writer running (health at 127.0.0.1:{ports['archive_health']})" in text, text
        for part, port in (("service", ports["metrics"]), ("worker", ports["ai_metrics"]),
                           ("gateway", ports["gateway_metrics"])):
            assert f"http://127.0.0.1:{port}/metrics ({part})" in text, text
        for port in (web_port, *ports.values()):
            assert _listening(port), f"nothing listens on {port}:\n{text}"
        with urllib.request.urlopen(f"http://127.0.0.1:{ports['gateway_metrics']}/metrics", timeout=5) as reply:
            assert b"tabletop_gateway" in reply.read()
    finally:
        _stop_run(proc)
        shutil.rmtree(database_dir, ignore_errors=True)
    assert proc.returncode == 0


@pytest.mark.integration  # it starts processes
def test_run_says_metrics_are_off_when_they_are(tmp_path):
    env = _run_env()
    env.update(TABLETOP_METRICS_PORT="0", TABLETOP_AI_METRICS_PORT="0", TABLETOP_GATEWAY_METRICS_PORT="0")
    proc, text = _start_run(["--port", "0", "--ai-port", "0", "--web-port", str(free_port()), "--no-database",
                             "--data-dir", str(tmp_path / "redis"), "--database-dir", str(tmp_path / "postgres")], env)
    try:
        assert "Tabletop is running." in text, text
        assert ":0/" not in text and "127.0.0.1:0" not in text, text
        assert "metrics        service: off, worker: off, gateway: off" in text, text
    finally:
        _stop_run(proc)


@pytest.mark.integration  # it may start processes (it must not)
@pytest.mark.parametrize("flag", ["--port", "--web-port", "--ai-port", "--redis-port", "--database-port",
                                  "--archive-health-port", "--metrics-port", "--ai-metrics-port",
                                  "--gateway-metrics-port"])
def test_run_refuses_a_port_asked_for_that_is_taken(flag, tmp_path):
    """Before anything starts, with one clear line: no traceback, no "Tabletop is running."."""
    import socket

    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        others = [f for f in ("--port", "--web-port", "--ai-port", "--metrics-port") if f != flag]
        args = [flag, str(port), *(x for f in others for x in (f, str(free_port()))),
                "--data-dir", str(tmp_path / "redis"), "--database-dir", str(tmp_path / "postgres")]
        done = subprocess.run([sys.executable, "-m", "commands.cli", "run", *args], env=_run_env(),
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done
    assert "Tabletop is running." not in done.stdout, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert f"port {port}" in done.stderr and flag in done.stderr and "is in use" in done.stderr, done.stderr
    assert not (tmp_path / "redis").exists() and not (tmp_path / "postgres").exists(), "nothing was started"


# --- a child that cannot start says why; ports drawn in two processes at once differ -----------------------------

@pytest.mark.integration  # it starts processes
def test_a_stack_whose_service_cannot_start_quotes_its_last_words(tmp_path):
    """The stack's children are quiet (their logs go to files of their own); when one exits before it is ready,
    the error quotes what it said, not just its exit code, and nothing is left running."""
    import socket

    from tabletop.stack.launcher import LocalStack

    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        stack = LocalStack(data_dir=tmp_path / "redis", grpc_port=port, with_worker=False)
        with pytest.raises(RuntimeError) as failed:
            stack.start()
    message = str(failed.value)
    assert "game service exited with code 1 before it was ready" in message, message
    assert f"cannot listen on 127.0.0.1:{port}" in message and "in use" in message, message
    assert stack.procs == [] and stack.redis is None and stack.logs is None, "stopped and cleaned up"


@pytest.mark.integration  # it binds sockets
def test_free_ports_given_in_another_process_are_not_given_here():
    """A test run's two workers draw ports at once; a port one of them gave, whose server has not bound it yet,
    must not be given by the other (two servers on one port: one fails to listen). 200 ports drawn in a process
    still running and 2,000 here would share about 17 if each process drew on its own."""
    from tabletop.stack.embedded import free_port as draw

    child = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom tabletop.stack.embedded import free_port\n"
                               "print(' '.join(str(free_port()) for _ in range(200)), flush=True)\nsys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        theirs = {int(p) for p in child.stdout.readline().split()}
        ours = {draw() for _ in range(2000)}
    finally:
        child.communicate(timeout=60)
    assert len(theirs) == 200 and len(ours) == 2000
    assert not theirs & ours, sorted(theirs & ours)
