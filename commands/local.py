"""The commands that may start a whole local stack when no service is named: `tabletop play`, `tabletop demo`,
`tabletop bench load`, `tabletop bench wait` and `tabletop bench gateway`. The clients never start servers
themselves; the composition root hands them a starter (clients.session.LocalStarter, clients.loadgen.BenchStarter,
clients.gateway_bench.GatewayStarter)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from clients.session import say


@contextlib.contextmanager
def local_stack(quiet: bool = False) -> Iterator[str]:
    """Redis, game service and AI worker as child processes, stopped on the way out; yields the service target."""
    from commands.launcher import LocalStack

    if not quiet:
        say("Starting a local Tabletop (Redis, game service, AI worker)...")
    with tempfile.TemporaryDirectory(prefix="tabletop-play-") as data_dir:  # Redis's files go with the stack
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


@contextlib.contextmanager
def bench_stack(fsync: str) -> Iterator:
    """Redis (AOF with `fsync`), a game service serving the Echo floor, and the bare floor (service/bare_floor.py)
    in a process of its own; yields a clients.loadgen.BenchStack."""
    import subprocess
    import sys

    from clients.loadgen import BenchStack
    from commands.embedded_redis import EmbeddedRedis, free_port
    from commands.launcher import LocalStack, wait_serving

    os.environ["TABLETOP_BENCH_ECHO"] = "1"
    os.environ.setdefault("TABLETOP_METRICS_PORT", "0")
    with EmbeddedRedis(appendonly=True, appendfsync=fsync) as redis_server, \
            LocalStack(redis_url=redis_server.url, with_worker=False) as stack:
        pid = stack.procs[0][1].pid
        port = free_port()
        floor = subprocess.Popen([sys.executable, "-m", "service.bare_floor", "--port", str(port),
                                  "--redis-url", redis_server.url], start_new_session=True)
        try:
            wait_serving(f"127.0.0.1:{port}", floor, "bare floor")
            print(f"started redis-server ({redis_server.url}, AOF appendfsync {fsync}), tabletop serve "
                  f"({stack.target}, TABLETOP_BENCH_ECHO=1, pid {pid}) and the bare floor "
                  f"(127.0.0.1:{port}, pid {floor.pid})")
            yield BenchStack(stack.target, redis_server.url, pid, f"127.0.0.1:{port}", floor.pid)
        finally:
            floor.terminate()
            floor.wait(timeout=10)


@contextlib.contextmanager
def service_stack(watch_tier: bool = False) -> Iterator:
    """Redis (AOF, fsync everysec as deploy/ runs it) and one game service, and with `watch_tier` a second one on
    the same Redis for the WatchGame streams (the watch tier of deploy/k8s); yields a
    clients.watchbench.LocalServers."""
    from clients.watchbench import LocalServers
    from commands.embedded_redis import EmbeddedRedis
    from commands.launcher import LocalStack

    os.environ.setdefault("TABLETOP_METRICS_PORT", "0")
    with contextlib.ExitStack() as started:
        redis_server = started.enter_context(EmbeddedRedis(appendonly=True, appendfsync="everysec"))
        players = started.enter_context(LocalStack(redis_url=redis_server.url, with_worker=False))
        watch = started.enter_context(LocalStack(redis_url=redis_server.url, with_worker=False)) if watch_tier \
            else players
        print(f"started redis-server ({redis_server.url}) and tabletop serve ({players.target})"
              + (f", and a replica of the watch tier ({watch.target})" if watch is not players else ""))
        yield LocalServers(players.target, redis_server.url, watch.target,
                           (redis_server.proc.pid, players.procs[0][1].pid),
                           (watch.procs[0][1].pid,) if watch is not players else ())


@contextlib.contextmanager
def flood_stack() -> Iterator[str]:
    """Redis, a game service and an AI worker with the Kubernetes base's quotas (unless the environment sets
    others) and the flood benchmark's honest API key; yields the service target."""
    import hashlib
    from pathlib import Path

    from clients.floodbench import HONEST_KEY

    base = Path(__file__).resolve().parents[1] / "deploy" / "k8s" / "base" / "config.env"
    for line in base.read_text().splitlines():
        name, _, value = line.partition("=")
        if name.startswith("TABLETOP_QUOTA_"):
            os.environ.setdefault(name, value)
    os.environ["TABLETOP_API_KEYS"] = f"honest:{hashlib.sha256(HONEST_KEY.encode()).hexdigest()}"
    quotas = ", ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("TABLETOP_QUOTA_"))
    with local_stack(quiet=True) as target:
        print(f"started redis-server, tabletop serve ({target}) and one AI worker; {quotas}")
        yield target


def play(argv: list[str]) -> int:
    from clients.terminal import play_main

    return play_main(argv, local=local_stack)


def demo(argv: list[str]) -> int:
    from clients.demo import main

    return main(argv, local=local_stack)


def bench_wait(argv: list[str]) -> int:
    from clients.waitbench import main

    return main(argv, local=local_stack)


def bench_load(argv: list[str]) -> int:
    from clients.loadgen import main

    return main(argv, local=bench_stack)


def bench_watch(argv: list[str]) -> int:
    from clients.watchbench import main

    return main(argv, local=service_stack)


def bench_flood(argv: list[str]) -> int:
    from clients.floodbench import main

    return main(argv, local=flood_stack)


@contextlib.contextmanager
def gateway_stack() -> Iterator[tuple[str, str, int, int]]:
    """Redis, a game service and a gRPC-Web gateway; yields (service target, gateway URL, their pids)."""
    from commands.embedded_redis import EmbeddedRedis, free_port
    from commands.launcher import LocalStack

    os.environ.setdefault("TABLETOP_METRICS_PORT", "0")
    os.environ.setdefault("TABLETOP_GATEWAY_METRICS_PORT", "0")
    with EmbeddedRedis(appendonly=True) as redis_server, \
            LocalStack(redis_url=redis_server.url, with_worker=False, gateway_port=free_port()) as stack:
        pids = {name: proc.pid for name, proc in stack.procs}
        print(f"started redis-server ({redis_server.url}), tabletop serve ({stack.target}, pid {pids['game service']}) "
              f"and tabletop gateway ({stack.gateway_url}, pid {pids['gateway']})")
        yield stack.target, stack.gateway_url, pids["game service"], pids["gateway"]


def bench_gateway(argv: list[str]) -> int:
    from clients.gateway_bench import main

    return main(argv, local=gateway_stack)
