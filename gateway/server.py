"""The gateway process: `tabletop gateway`. gRPC-Web for browsers on one HTTP port, forwarded to the game service;
the web table at / when TABLETOP_GATEWAY_STATIC_DIR names a build; metrics on their own port; SIGTERM stops it
gracefully (open streams are given the grace period, then cancelled)."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

import structlog
from aiohttp import web

from gateway.app import build_app
from gateway.config import Config, ConfigError
from tabletop import logconfig, transport

PLAINTEXT_REMEDIES = (
    "Set TABLETOP_SERVICE_TLS=true (and TABLETOP_TLS_CA_FILE for a certificate from a private CA), or",
    "TABLETOP_ALLOW_INSECURE=true if the network is trusted (e.g. in-cluster, behind the NetworkPolicies).",
)


def check_upstream_transport(config: Config) -> None:
    """Raise PlaintextRefused if browsers' tokens would go in plaintext to another machine unasked."""
    if not (config.service_tls or config.allow_insecure):
        for target in filter(None, (config.upstream, config.watch_upstream)):
            transport.refuse_plaintext(target, "browsers' seat tokens and API keys", PLAINTEXT_REMEDIES)

log = structlog.get_logger("gateway")


async def start(config: Config) -> tuple[web.AppRunner, int]:
    """Start the gateway on config.host:port (0: a free port); returns the runner and the port."""
    # handler_cancellation: a client's connection lost cancels its handler, and a streaming call's upstream call with
    # it (an idle WatchGame stream writes nothing that could fail; without this it would stay open upstream).
    runner = web.AppRunner(build_app(config), access_log=None, shutdown_timeout=config.shutdown_grace_seconds,
                           handler_cancellation=True)
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # noqa: SLF001 - aiohttp exposes the bound port only here
    return runner, port


async def serve(config: Config) -> None:
    if config.metrics_port:
        from prometheus_client import start_http_server

        start_http_server(config.metrics_port, addr=config.host)
    runner, port = await start(config)
    log.info("gateway serving", host=config.host, port=port, upstream=config.upstream,
             watch_upstream=config.watch_upstream or config.upstream,
             origins=sorted(config.allowed_origins), static_dir=config.static_dir or None)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    log.info("gateway stopping", grace_seconds=config.shutdown_grace_seconds)
    await runner.cleanup()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop gateway", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, help="HTTP port (default TABLETOP_GATEWAY_PORT, 8080)")
    parser.add_argument("--upstream", help="the game service (default TABLETOP_GATEWAY_UPSTREAM, 127.0.0.1:50051)")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env()
        overrides = {k: v for k, v in (("port", args.port), ("upstream", args.upstream)) if v is not None}
        if overrides:
            import dataclasses

            config = dataclasses.replace(config, **overrides)
        check_upstream_transport(config)
        if config.tls_ca_file:
            transport.check_certificate("", "", config.tls_ca_file)
    except (ConfigError, transport.PlaintextRefused) as exc:
        print(f"tabletop gateway: {exc}", file=sys.stderr)
        return 2
    logconfig.configure(config.log_level)
    asyncio.run(serve(config))
    return 0
