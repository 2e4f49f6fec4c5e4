"""The whole stack on one machine, as separate processes, the way Kubernetes runs it: what `tabletop run`,
`tabletop play` / `demo` without a `--target`, the benchmarks and the tests start.

Redis (the embedded real redis-server unless a URL is given), the game service (`tabletop serve`), the AI worker
(`tabletop ai-worker`) and, for `tabletop run`, PostgreSQL (the embedded real server unless a URL is given) with
the archive writer (`tabletop archive-writer`), and the gRPC-Web gateway (`tabletop gateway`) serving the web table
(clients/web/dist, built by `make web`). Each part is started by its command's name, so this kit imports none of
them.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from tabletop.stack.embedded_postgres import EmbeddedPostgres
from tabletop.stack.embedded_redis import EmbeddedRedis, free_port
from tabletop.stack.watchdog import WATCHDOG

WEB_DIST = Path(__file__).resolve().parents[2] / "clients" / "web" / "dist"


def last_words(log: Path | None, limit: int = 2000) -> str:
    """The end of a child's stderr kept in `log` (its last `limit` characters), for an error saying why it exited;
    "" when there is none."""
    if log is None:
        return ""
    try:
        with open(log, "rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - limit))
            text = f.read().decode("utf-8", "replace").strip()
    except OSError:
        return ""
    return f"; it said: {text}" if text else ""


def wait_serving(target: str, proc: subprocess.Popen, name: str, timeout: float = 30.0, service: str = "",
                 ca_file: str | None = None, log: Path | None = None) -> None:
    """Wait until the gRPC health service at `target` answers SERVING for `service` (or the process dies, the error
    quoting the end of its stderr `log` when given); over TLS trusting `ca_file` ("": the system's roots) when it is
    not None."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from tabletop import transport

    deadline = time.monotonic() + timeout
    channel = (grpc.insecure_channel(target) if ca_file is None
               else grpc.secure_channel(target, transport.channel_credentials(ca_file)))
    with channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with code {proc.returncode} before it was ready"
                                   f"{last_words(log)}")
            try:
                reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.1)
    raise RuntimeError(f"{name} at {target} was not SERVING within {timeout}s")


def wait_http(url: str, proc: subprocess.Popen, name: str, timeout: float = 30.0, log: Path | None = None) -> None:
    """Wait until `url` answers 200 (or the process dies, the error quoting the end of its stderr `log`)."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with code {proc.returncode} before it was ready{last_words(log)}")
        try:
            with urllib.request.urlopen(url, timeout=1) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{name} at {url} was not ready within {timeout}s")


class LocalStack:
    """Redis + game service + AI worker as child processes; `target` is the game service address."""

    def __init__(
        self,
        redis_url: str | None = None,
        data_dir: str | Path | None = None,
        grpc_port: int | None = None,
        with_worker: bool = True,
        quiet: bool = True,
        ai_port: int | None = None,
        gateway_port: int | None = None,
        static_dir: str | Path | None = None,
        service_command: tuple[str, ...] = ("commands.cli", "serve"),
        database: bool = False,
        database_url: str | None = None,
        database_dir: str | Path | None = None,
        redis_port: int | None = None,
        metrics_port: int | None = None,
        ai_metrics_port: int | None = None,
        gateway_metrics_port: int | None = None,
        archive_metrics_port: int | None = None,
        database_port: int | None = None,
        archive_health_port: int | None = None,
        identity_env: dict[str, str] | None = None,
    ):
        self.redis_url = redis_url
        self.redis_port = redis_port  # of the embedded Redis; None: a free port
        # Prometheus ports of the service, the worker, the gateway and the archive writer (0: none; None: the
        # TABLETOP_*_METRICS_PORT variable, else a free port); once started, `metrics` has the ports they serve on.
        self.metrics_ports = {"service": metrics_port, "worker": ai_metrics_port, "gateway": gateway_metrics_port,
                              "writer": archive_metrics_port}
        self.metrics: dict[str, int] = {}
        self.data_dir = Path(data_dir) if data_dir else None
        self.grpc_port = grpc_port or free_port()
        self.ai_port = ai_port or free_port()
        self.with_worker = with_worker and importlib.util.find_spec("ai.worker") is not None
        self.quiet = quiet
        self.gateway_port = gateway_port  # None: no gateway
        self.static_dir = static_dir
        # What `python -m` runs as the game service: `tabletop serve`, or a server that registers more services on
        # the same stack (the benchmarks' Echo floor, `bench.floors echo`).
        self.service_command = service_command
        self.redis: EmbeddedRedis | None = None
        # The archive (docs/archive.md): with `database`, PostgreSQL at `database_url`, else an embedded one keeping
        # its files in `database_dir` (a temporary folder when None), and the archive writer.
        self.database = database or bool(database_url)
        self.database_url = database_url
        self.database_dir = Path(database_dir) if database_dir else None
        self.postgres: EmbeddedPostgres | None = None
        self.database_port = database_port  # of the embedded PostgreSQL; None: a free port
        # The archive writer's health port (0: none; None: TABLETOP_ARCHIVE_HEALTH_PORT, else a free port).
        self.archive_health_port = archive_health_port
        # The game service's identity settings (TABLETOP_JWT_*: tabletop/stack/dev_identity.py), over the environment's.
        self.identity_env = dict(identity_env or {})
        self.procs: list[tuple[str, subprocess.Popen]] = []
        # Quiet, each child's stderr (its logs) goes to a file here, removed on stop, whose end a start's error quotes.
        self.logs: tempfile.TemporaryDirectory | None = None
        self.tls_ca_file: str | None = None  # once started with TLS: the CA file to trust ("": system roots)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.grpc_port}"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.setdefault("TABLETOP_AI_SERVICE_TOKEN", secrets.token_urlsafe(32))

        def metrics(part: str, variable: str) -> str:
            port = self.metrics_ports[part]
            return str(port) if port is not None else env.get(variable) or str(free_port())

        env.update(
            TABLETOP_REDIS_URL=self.redis_url or "",
            TABLETOP_GRPC_HOST="127.0.0.1",
            TABLETOP_GRPC_PORT=str(self.grpc_port),
            TABLETOP_METRICS_PORT=metrics("service", "TABLETOP_METRICS_PORT"),
            TABLETOP_SERVICE_TARGET=self.target,
            TABLETOP_AI_GRPC_HOST="127.0.0.1",
            TABLETOP_AI_GRPC_PORT=str(self.ai_port),
            TABLETOP_AI_TARGET=f"127.0.0.1:{self.ai_port}",
            TABLETOP_AI_METRICS_PORT=metrics("worker", "TABLETOP_AI_METRICS_PORT"),
            TABLETOP_DATABASE_URL=self.database_url or "",
            TABLETOP_ARCHIVE_METRICS_PORT=metrics("writer", "TABLETOP_ARCHIVE_METRICS_PORT"),
            TABLETOP_ARCHIVE_HEALTH_PORT=(str(self.archive_health_port) if self.archive_health_port is not None
                                          else env.get("TABLETOP_ARCHIVE_HEALTH_PORT") or str(free_port())),
        )
        env.update(self.identity_env)
        if env.get("TABLETOP_TLS_CERT_FILE"):  # both servers serve TLS: each reaches the other with TLS
            env.update(TABLETOP_SERVICE_TLS="true", TABLETOP_AI_TLS="true")
        if self.gateway_port is not None:
            env.update(TABLETOP_GATEWAY_HOST="127.0.0.1", TABLETOP_GATEWAY_PORT=str(self.gateway_port),
                       TABLETOP_GATEWAY_UPSTREAM=self.target, TABLETOP_GATEWAY_STATIC_DIR=str(self.static_dir or ""),
                       TABLETOP_GATEWAY_METRICS_PORT=metrics("gateway", "TABLETOP_GATEWAY_METRICS_PORT"))
        return env

    @property
    def gateway_url(self) -> str:
        return f"http://127.0.0.1:{self.gateway_port}"

    def log(self, name: str) -> Path | None:
        """Where the child named `name` writes its stderr when quiet (None: the terminal's)."""
        return Path(self.logs.name) / f"{name.replace(' ', '-')}.log" if self.logs else None

    def _spawn(self, name: str, command: tuple[str, ...], env: dict[str, str]) -> subprocess.Popen:
        """Start `python -m *command` (a module and its arguments) as a child process named `name`."""
        if self.quiet and self.logs is None:
            self.logs = tempfile.TemporaryDirectory(prefix="tabletop-logs-")
            WATCHDOG.clean(self.logs.name)  # removed even if this process is killed
        log = self.log(name)
        with open(log, "wb") if log else contextlib.nullcontext() as err:
            proc = subprocess.Popen([sys.executable, "-m", *command], env=env,
                                    stdout=subprocess.DEVNULL if self.quiet else None, stderr=err,
                                    start_new_session=True)
        WATCHDOG.guard(proc.pid)  # stopped even if this process is killed (tabletop/stack/watchdog.py)
        self.procs.append((name, proc))
        return proc

    def start(self) -> LocalStack:
        try:
            if not self.redis_url:
                self.redis = EmbeddedRedis(directory=self.data_dir, port=self.redis_port, appendonly=True).start()
                self.redis_url = self.redis.url
            if self.database and not self.database_url:
                self.postgres = EmbeddedPostgres(directory=self.database_dir, port=self.database_port).start()
                self.database_url = self.postgres.url
            env = self.env()
            self.archive_health_port = int(env["TABLETOP_ARCHIVE_HEALTH_PORT"])
            if env.get("TABLETOP_TLS_CERT_FILE"):
                self.tls_ca_file = env.get("TABLETOP_TLS_CA_FILE", "")
            service = self._spawn("game service", self.service_command, env)
            wait_serving(self.target, service, "game service", ca_file=self.tls_ca_file, log=self.log("game service"))
            if self.database:
                # It applies the schema's migrations, then drains finished games into PostgreSQL; nothing waits
                # for it (a game finished before it is up waits on the archive stream).
                self._spawn("archive writer", ("commands.cli", "archive-writer"), env)
            if self.with_worker:
                worker = self._spawn("AI worker", ("commands.cli", "ai-worker"), env)
                wait_serving(env["TABLETOP_AI_TARGET"], worker, "AI worker", ca_file=self.tls_ca_file,
                             log=self.log("AI worker"))
            if self.gateway_port is not None:
                gateway = self._spawn("gateway", ("commands.cli", "gateway"), env)
                wait_http(f"{self.gateway_url}/readyz", gateway, "gateway", log=self.log("gateway"))
            self.metrics = {"service": int(env["TABLETOP_METRICS_PORT"])}
            if self.with_worker:
                self.metrics["worker"] = int(env["TABLETOP_AI_METRICS_PORT"])
            if self.gateway_port is not None:
                self.metrics["gateway"] = int(env["TABLETOP_GATEWAY_METRICS_PORT"])
            if self.database:
                self.metrics["writer"] = int(env["TABLETOP_ARCHIVE_METRICS_PORT"])
            return self
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """SIGTERM every process (workers first), wait for their graceful shutdown, then stop PostgreSQL and Redis."""
        for _, proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for _, proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            WATCHDOG.release(proc.pid)
        self.procs.clear()
        if self.postgres:
            self.postgres.cleanup()  # stops it; removes its directory only if it made a temporary one
            self.postgres = None
        if self.redis:
            self.redis.cleanup()  # stops it; removes its directory only if it made a temporary one
            self.redis = None
        if self.logs:
            self.logs.cleanup()
            WATCHDOG.forget(self.logs.name)
            self.logs = None

    def __enter__(self) -> LocalStack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def port_free(port: int) -> bool:
    """Whether a server of the stack may listen on 127.0.0.1:`port` now. Checked as the servers bind (gRPC, the
    Prometheus server and the gateway all set SO_REUSEADDR): a socket listening there counts, the connections of a
    process that stopped a moment ago (in TIME-WAIT for a minute) do not."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def port_or_free(port: int) -> int:
    """`port` if a server may listen on it (`port_free`), else a free one."""
    return port if port_free(port) else free_port()


@contextlib.contextmanager
def local_stack(quiet: bool = False, say: Callable[[str], None] = print) -> Iterator[str]:
    """Redis, game service and AI worker as child processes, stopped on the way out; yields the service target."""
    if not quiet:
        say("Starting a local Tabletop (Redis, game service, AI worker)...")
    with tempfile.TemporaryDirectory(prefix="tabletop-play-") as data_dir:  # Redis's files go with the stack
        WATCHDOG.clean(data_dir)  # and with this process, should it be killed (tabletop/stack/watchdog.py)
        stack = LocalStack(data_dir=data_dir)
        try:
            stack.start()
        except Exception as exc:  # noqa: BLE001 - reported as a message, not a traceback
            stack.stop()
            raise SystemExit(f"could not start the local stack: {exc}") from None
        try:
            yield stack.target
        finally:
            stack.stop()
            WATCHDOG.forget(data_dir)
