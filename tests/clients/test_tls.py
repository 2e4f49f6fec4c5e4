"""Encryption in transit: a whole stack (Redis, `tabletop serve`, `tabletop ai-worker`) started as `tabletop run`
starts it, serving TLS with a self-signed certificate made here. A game is played to its end through the SDK over
TLS, the AI seat's moves coming from the worker over TLS too; a plaintext client and a client that does not
trust the certificate fail with errors that say so; kubelet-style plaintext probes reach health alone."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tabletop.client import RetryPolicy, Seat, Unauthenticated, Unavailable, connect
from tabletop.stack.embedded_redis import free_port
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.clients.conftest import FastStack
from tests.support.certificates import self_signed

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_stack(certificate, tmp_path_factory):
    health_ports = (free_port(), free_port())
    with pytest.MonkeyPatch.context() as env:  # what a user of `tabletop run` exports
        env.setenv("TABLETOP_TLS_CERT_FILE", certificate.cert_file)
        env.setenv("TABLETOP_TLS_KEY_FILE", certificate.key_file)
        env.setenv("TABLETOP_TLS_CA_FILE", certificate.cert_file)  # self-signed: the certificate is its own CA
        env.setenv("TABLETOP_HEALTH_PORT", str(health_ports[0]))
        env.setenv("TABLETOP_AI_HEALTH_PORT", str(health_ports[1]))
        env.setenv("TABLETOP_METRICS_PORT", "0")
        env.setenv("TABLETOP_AI_METRICS_PORT", "0")
        with FastStack(data_dir=tmp_path_factory.mktemp("tls-redis")) as stack:
            stack.health_ports = health_ports
            yield stack


def test_a_game_is_played_to_its_end_over_tls_with_an_ai_seat(tls_stack, certificate):
    assert tls_stack.tls_ca_file == certificate.cert_file
    with connect(tls_stack.target, root_certificates=certificate.pem, wait=10) as client:
        game = client.create_game("naishi", [Seat.human("Ann"), Seat.ai("easy")], start=True)
        ann = game.player(0)
        hint = ann.suggest(strength="easy")  # the game service asks the worker's AIService, over TLS
        assert hint.best_move_id in {m.id for m in ann.state().legal_moves}
        moves = 0
        for update in ann.watch():  # the AI seat's moves come from the worker, a TLS client of the service
            if update.event.game_over:
                break
            state = update.state
            if 0 in state.to_act and state.legal_moves:
                now = ann.state()
                if now.version == update.event.version and 0 in now.to_act:
                    legal = [m.id for m in now.legal_moves if m.id != "declare_end"] or [now.legal_moves[0].id]
                    ann.move(legal[0])
                    moves += 1
        final = client.state(game.game_id)
        assert final.status == pb.GAME_STATUS_FINISHED
        assert moves > 0
        assert client.score(game.game_id).final


def test_a_plaintext_client_cannot_talk_to_the_tls_port(tls_stack):
    with pytest.raises(Unavailable, match=r"expect TLS \(tls=True\)"):
        connect(tls_stack.target, wait=2)
    client = connect(tls_stack.target, retry=RetryPolicy(attempts=1))
    with client, pytest.raises(Unavailable):
        client.game_types()


def test_a_client_that_does_not_trust_the_certificate_fails_saying_why(tls_stack):
    with pytest.raises(Unavailable, match="CERTIFICATE_VERIFY_FAILED") as failure:
        connect(tls_stack.target, tls=True, wait=3)  # the system's roots know nothing of a self-signed certificate
    assert "root_certificates" in str(failure.value)


def test_a_certificate_for_another_name_is_refused_unless_that_name_is_expected(tls_stack, certificate):
    with pytest.raises(Unavailable, match="Hostname Verification"):
        connect(tls_stack.target, root_certificates=certificate.pem, server_name="tabletop.example", wait=3)
    with connect(tls_stack.target, root_certificates=certificate.pem, server_name="localhost", wait=5) as client:
        assert {t.name for t in client.game_types()} >= {"naishi"}


def test_the_health_ports_answer_in_plaintext_and_serve_nothing_else(tls_stack):
    for port, service in zip(tls_stack.health_ports, ("tabletop.v1.GameService", "tabletop.v1.AIService"),
                             strict=True):
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service),
                                                               timeout=5)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
            with pytest.raises(grpc.RpcError) as refused:
                game_service_pb2_grpc.GameServiceStub(channel).ListGameTypes(pb.ListGameTypesRequest(), timeout=5)
            assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_the_sdk_sends_its_api_key_over_tls(tls_stack, certificate):
    """The stack knows no API key, so the service answers the one the SDK sent: proof that it arrived."""
    with connect(tls_stack.target, root_certificates=certificate.pem, api_key="not-a-configured-key") as client:
        with pytest.raises(Unauthenticated) as refused:
            client.create_game("naishi", [Seat.human("Ann"), Seat.ai("easy")])
    assert refused.value.reason == "INVALID_API_KEY"
