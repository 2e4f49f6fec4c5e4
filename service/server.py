"""The game service process: `tabletop serve`. A grpc.aio server with GameService, health and reflection,
Prometheus metrics on their own port, the timekeeper of turn deadlines, and a graceful stop on SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from games import registry, wire
from service import logs, metrics
from service.config import Config, ConfigError
from service.history import History
from service.identity import Verifier
from service.listing import Listing
from service.lobby import Lobby
from service.play import Play
from service.quotas import Quotas
from service.seats import Seats
from service.servicer import GameServicer, add_to_server
from service.store import GameStore
from service.suggest import Suggest
from service.tables import Tables
from service.timekeeper import Timekeeper
from service.watch import Watch
from tabletop import reflection, transport
from tabletop.v1 import game_service_pb2

SERVICE_NAME = game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name
READINESS_INTERVAL = 2.0
ACTIVE_GAMES_INTERVAL = 15.0
PENDING_CALLS = 20_000  # calls arrived but not yet taken up, before gRPC starts refusing new ones

# Registers other services on the game service's server, given its store, before it starts: how the benchmarks serve
# their Echo floor on the same stack as GameService (bench/floors.py) without the service importing them.
MoreServices = Callable[[grpc.aio.Server, GameStore], None]


@dataclass
class RunningServer:
    """A started game service: its port, and what `stop` must wind down."""

    server: grpc.aio.Server
    port: int
    health: health.aio.HealthServicer
    servicer: GameServicer
    store: GameStore
    tasks: list[asyncio.Task]
    health_server: grpc.aio.Server | None = None  # the plaintext health-only port (config.health_port)

    async def stop(self, grace: float) -> None:
        """Turn NOT_SERVING, refuse new RPCs, give in-flight ones `grace` seconds, then close everything. Each
        step has a bound (`STOP_STEP_SECONDS` past its own grace): a step that overruns it is logged by name and
        left behind, so that the process still gets to close its Redis connections and exit."""
        await _bounded("health", self.health.enter_graceful_shutdown())
        await _bounded("grpc server", self.server.stop(grace), grace)
        if self.health_server is not None:
            await _bounded("health server", self.health_server.stop(0))
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await _bounded("background task", task)
        self.servicer.watch.close()
        await _bounded("AI channel", self.servicer.suggest.close())
        await _bounded("database", self.servicer.history.close())
        await _bounded("Redis", self.store.close())


STOP_STEP_SECONDS = 5.0


def _database(config: Config):
    """The archive's read pool (History), or None without a database; opened at its first use, so a database that
    is down does not stop the service starting (live play needs none)."""
    if not config.database_url:
        return None
    from psycopg_pool import AsyncConnectionPool

    return AsyncConnectionPool(config.database_url, min_size=1, max_size=4, open=False,
                               name="tabletop-history", check=AsyncConnectionPool.check_connection,
                               kwargs={"connect_timeout": 5})


async def _bounded(step: str, awaitable, grace: float = 0.0) -> None:
    try:
        async with asyncio.timeout(grace + STOP_STEP_SECONDS):
            await awaitable
    except TimeoutError:
        logs.log.warning("shutdown step overran its bound", step=step, seconds=grace + STOP_STEP_SECONDS)


async def _watch_readiness(store: GameStore, checker: health.aio.HealthServicer) -> None:
    """GameService is SERVING only while Redis answers (the readiness probe asks this name)."""
    serving = health_pb2.HealthCheckResponse.SERVING
    not_serving = health_pb2.HealthCheckResponse.NOT_SERVING
    while True:
        await checker.set(SERVICE_NAME, serving if await store.ping() else not_serving)
        await asyncio.sleep(READINESS_INTERVAL)


async def _count_active_games(store: GameStore) -> None:
    while True:
        for name in registry.names():
            with contextlib.suppress(Exception):
                metrics.GAMES_ACTIVE.labels(name).set(await store.active_games(name))
        await asyncio.sleep(ACTIVE_GAMES_INTERVAL)


async def start_server(config: Config, more_services: MoreServices | None = None) -> RunningServer:
    """Build and start the server on `config.grpc_host:grpc_port` (port 0: a free one, see `.port`)."""
    store = GameStore.from_url(
        config.redis_url,
        cluster=config.redis_cluster,
        max_connections=config.redis_max_connections,
        retention_seconds=config.retention_seconds,
        abandoned_seconds=config.abandoned_seconds,
        job_shards=config.ai_job_shards,
        job_retention_seconds=config.ai_job_retention_seconds,
        request_seconds=config.request_id_seconds,
        archive=bool(config.database_url),
    )
    # Each game's messages, loaded now: reflection serves them, and a broken plugin fails at start.
    for game in registry.all_games():
        wire.wire_of(game)
        # Counted from 0 for every hosted game type: rate() and increase() then see the first one, and a dashboard
        # panel shows 0, not "no data", where nothing has been abandoned or finished yet.
        metrics.GAMES_FINISHED.labels(game.info.name)
        metrics.GAMES_ABANDONED.labels(game.info.name)
    tables = Tables(store, config.ai_service_token)
    seats = Seats(tables)
    servicer = GameServicer(Lobby(tables, config), Play(tables, seats), Watch(tables, seats),
                            Suggest(tables, config, seats), seats, Listing(store), config.watch_write_seconds,
                            Quotas(store, config), Verifier.from_config(config), History(_database(config), tables))
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_send_message_length", max(config.max_message_bytes, 4 << 20)),
            ("grpc.so_reuseport", 0),
            # Calls that arrived but that the (single-threaded) server has not taken up yet: past gRPC's default
            # soft limit of 1,000 it cancels new ones at random, which a burst of WatchGame streams (thousands of
            # spectators at once) reaches. The per-caller quotas and the watchers' fan-out bound the real load.
            ("grpc.server.max_pending_requests", PENDING_CALLS),
            ("grpc.server.max_pending_requests_hard_limit", 2 * PENDING_CALLS),
        ],
    )
    add_to_server(servicer, server)
    if more_services is not None:
        more_services(server, store)
    checker = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(checker, server)
    reflection.enable((SERVICE_NAME, health.SERVICE_NAME), server)
    port = transport.listen(server, f"{config.grpc_host}:{config.grpc_port}", config.tls_cert_file,
                            config.tls_key_file)
    health_server = None
    if config.health_port:  # kubelet's gRPC probes speak no TLS: health alone, in plaintext, on a port of its own
        health_server = grpc.aio.server(options=[("grpc.so_reuseport", 0)])
        health_pb2_grpc.add_HealthServicer_to_server(checker, health_server)
        transport.listen(health_server, f"{config.grpc_host}:{config.health_port}")
        await health_server.start()
    await server.start()
    await checker.set("", health_pb2.HealthCheckResponse.SERVING)
    await checker.set(SERVICE_NAME, health_pb2.HealthCheckResponse.NOT_SERVING)
    tasks = [
        asyncio.create_task(_watch_readiness(store, checker)),
        asyncio.create_task(_count_active_games(store)),
    ]
    if config.timekeeper:  # stopped with the other tasks: it hands its leases back as it ends
        tasks.append(asyncio.create_task(Timekeeper(tables, seats, config.ai_job_shards).run()))
    return RunningServer(server, port, checker, servicer, store, tasks, health_server)


async def serve(config: Config, more_services: MoreServices | None = None) -> None:
    running = await start_server(config, more_services)
    logs.log.info("serving", host=config.grpc_host, port=running.port, tls=bool(config.tls_cert_file),
                  health_port=config.health_port or None, metrics_port=config.metrics_port,
                  game_types=list(registry.names()))
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    await stopping.wait()
    logs.log.info("shutting down", grace_seconds=config.shutdown_grace_seconds)
    await running.stop(config.shutdown_grace_seconds)
    logs.log.info("stopped")


def main(argv: list[str], more_services: MoreServices | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tabletop serve", description="Run the gRPC game service.")
    parser.add_argument("--host", help="listen address (TABLETOP_GRPC_HOST)")
    parser.add_argument("--port", type=int, help="gRPC port (TABLETOP_GRPC_PORT)")
    parser.add_argument("--redis-url", help="Redis URL (TABLETOP_REDIS_URL)")
    parser.add_argument("--metrics-port", type=int, help="Prometheus port, 0 = off (TABLETOP_METRICS_PORT)")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
    except ConfigError as exc:
        parser.error(str(exc))
    overrides = {"grpc_host": args.host, "grpc_port": args.port, "redis_url": args.redis_url,
                 "metrics_port": args.metrics_port}
    config = dataclasses.replace(config, **{k: v for k, v in overrides.items() if v is not None})
    logs.configure(config.log_level)
    try:
        if config.metrics_port:
            from prometheus_client import start_http_server

            transport.check_bindable(f"{config.grpc_host}:{config.metrics_port}")
            start_http_server(config.metrics_port, addr=config.grpc_host)
        asyncio.run(serve(config, more_services))
    except transport.CannotListen as exc:  # a port in use, an address not this machine's: said, not a traceback
        print(f"tabletop serve: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0
