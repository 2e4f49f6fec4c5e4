"""The gateway forwards browsers' seat tokens and API keys: to a game service serving TLS it connects with TLS
(trusting TABLETOP_TLS_CA_FILE), and it refuses to start when they would travel in plaintext to another machine
without TABLETOP_ALLOW_INSECURE (as the worker and the SDK do)."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import aiohttp
import pytest

from clients.grpcweb import GrpcWebStub
from tabletop.v1 import game_service_pb2 as pb
from tests.gateway.conftest import GatewayThread, gateway_config
from tests.service.conftest import ServerThread, service_config
from tests.support.certificates import self_signed

SERVICE = pb.DESCRIPTOR.services_by_name["GameService"]


def test_the_gateway_reaches_a_tls_service_with_tls(redis_url, toy_game, tmp_path):
    certificate = self_signed(tmp_path)
    service = ServerThread(service_config(redis_url, tls_cert_file=certificate.cert_file,
                                          tls_key_file=certificate.key_file)).start()
    gateway = GatewayThread(gateway_config(f"localhost:{service.running.port}", service_tls=True,
                                           tls_ca_file=certificate.cert_file)).start()
    try:
        async def call():
            async with aiohttp.ClientSession() as session:
                stub = GrpcWebStub(session, gateway.url, SERVICE)
                seats = [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN), pb.SeatSpec(kind=pb.SEAT_KIND_AI)]
                return await stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=seats))

        created = asyncio.run(call())
        assert created.game_id and created.seat_tokens
    finally:
        gateway.stop()
        service.stop()


def run_gateway(**env) -> subprocess.CompletedProcess:
    base = {"PATH": "/usr/bin:/bin", "TABLETOP_GATEWAY_PORT": "0", "TABLETOP_GATEWAY_METRICS_PORT": "0"}
    return subprocess.run([sys.executable, "-m", "commands.cli", "gateway"], env={**base, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.integration  # it starts processes
def test_the_gateway_will_not_forward_tokens_in_plaintext_to_another_machine():
    refused = run_gateway(TABLETOP_GATEWAY_UPSTREAM="tabletop-game-service:50051")
    assert refused.returncode == 2
    assert "without TLS" in refused.stderr and "TABLETOP_ALLOW_INSECURE" in refused.stderr


@pytest.mark.integration  # it starts processes
def test_nor_to_a_watch_tier_on_another_machine():
    refused = run_gateway(TABLETOP_GATEWAY_WATCH_UPSTREAM="tabletop-game-service-watch:50051")
    assert refused.returncode == 2
    assert "tabletop-game-service-watch:50051" in refused.stderr and "without TLS" in refused.stderr


@pytest.mark.integration  # it starts processes
def test_a_wide_open_cors_setting_stops_the_gateway_with_a_message():
    refused = run_gateway(TABLETOP_GATEWAY_ALLOWED_ORIGINS="*")
    assert refused.returncode == 2 and "TABLETOP_GATEWAY_ALLOWED_ORIGINS" in refused.stderr
