"""`tabletop serve` as a real process: health, reflection, metrics, JSON logs without tokens, SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import wait_serving
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def serve(redis_url, tmp_path):
    port, metrics_port = free_port(), free_port()
    env = dict(
        os.environ,
        TABLETOP_REDIS_URL=redis_url,
        TABLETOP_GRPC_PORT=str(port),
        TABLETOP_METRICS_PORT=str(metrics_port),
        TABLETOP_SHUTDOWN_GRACE_SECONDS="2",
        TABLETOP_AI_SERVICE_TOKEN="secret-ai-token",
        TABLETOP_LOG_LEVEL="debug",  # every RPC's line (at info: failed and slow ones only)
    )
    log = (tmp_path / "serve.log").open("w+")
    proc = subprocess.Popen([sys.executable, "-m", "commands.cli", "serve"], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        wait_serving(f"127.0.0.1:{port}", proc, "tabletop serve", service="tabletop.v1.GameService")
    except RuntimeError as exc:
        raise AssertionError(Path(log.name).read_text()) from exc
    yield proc, channel, metrics_port, Path(log.name)
    channel.close()
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    log.close()


def test_serve_answers_health_reflection_and_metrics_then_stops_on_sigterm(serve):
    proc, channel, metrics_port, log_path = serve
    stub = game_service_pb2_grpc.GameServiceStub(channel)
    created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                                   options_json='{"start_player": "seat0"}', start=True))
    token = created.seat_tokens[0].token
    auth = [("authorization", f"Bearer {token}")]
    state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth).state
    stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=state.legal_moves[0].id, request_id="r1"),
                  metadata=auth)
    with pytest.raises(grpc.RpcError):
        stub.GetState(pb.GetStateRequest(game_id="no-such-game"))

    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
    listed = next(reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {s.name for s in listed.list_services_response.service}
    assert {"tabletop.v1.GameService", "grpc.health.v1.Health"} <= names
    # grpc.reflection.v1 (what grpcurl asks first) answers the same, listing itself among the services.
    v1 = channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                               request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                               response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    listed_v1 = next(v1(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    assert {s.name for s in listed_v1.list_services_response.service} >= names | {"grpc.reflection.v1.ServerReflection"}
    # Each game's messages are served too, so grpcurl can render a view packed in an Any.
    for symbol in ("tabletop.v1.HinodeView", "tabletop.v1.NaishiMove"):
        found = next(reflection.ServerReflectionInfo(iter([
            reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol)])))
        assert found.HasField("file_descriptor_response"), symbol

    text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5).read().decode()
    for needle in (
        'tabletop_rpc_requests_total{code="OK",method="CreateGame"} 1.0',
        'tabletop_rpc_requests_total{code="OK",method="MakeMove"} 1.0',
        'tabletop_rpc_requests_total{code="NOT_FOUND",method="GetState"} 1.0',
        'tabletop_rpc_duration_seconds_count{method="GetState"} 2.0',
        'tabletop_games_created_total{game_type="hinode"} 1.0',
        'tabletop_moves_total{game_type="hinode"} 1.0',
        'tabletop_games_active{game_type="hinode"}',
        "tabletop_version_conflicts_total",
        'tabletop_redis_duration_seconds_count{op="commit"}',
    ):
        assert needle in text, needle
    # Health probes (asked above, many times while starting) and reflection are not API traffic.
    assert 'method="Check"' not in text and "ServerReflectionInfo" not in text
    # A stream has no series in the unary latency histogram (its quantiles would be the streams' lifetimes).
    assert 'tabletop_rpc_duration_seconds_count{method="WatchGame"}' not in text

    watch = stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id))
    next(watch)  # an open stream in flight while the server shuts down
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=15) == 0
    assert time.monotonic() - started < 10

    lines = [json.loads(line) for line in log_path.read_text().splitlines() if line.startswith("{")]
    rpcs = [line for line in lines if line.get("event") == "rpc"]
    moves = [line for line in rpcs if line["method"] == "MakeMove"]
    assert moves and moves[0]["game_id"] == created.game_id and moves[0]["seat"] == 0
    assert moves[0]["request_id"] == "r1" and moves[0]["code"] == "OK" and "duration_ms" in moves[0]
    assert any(line.get("event") == "stopped" for line in lines)
    assert token not in log_path.read_text() and "secret-ai-token" not in log_path.read_text()


def test_identities_are_logged_by_player_id_never_by_token(redis_url, tmp_path):
    """A real `tabletop serve` configured from its environment with a shared secret: the log line of an RPC with
    an identity names the player, and neither a good nor a refused JWT appears in the log."""
    from tests.service.test_identity import AUDIENCE, ISSUER, SECRET, mint

    port = free_port()
    env = dict(os.environ, TABLETOP_REDIS_URL=redis_url, TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT="0",
               TABLETOP_AI_SERVICE_TOKEN="secret-ai-token", TABLETOP_LOG_LEVEL="debug", TABLETOP_JWT_SECRET=SECRET,
               TABLETOP_JWT_ISSUER=ISSUER, TABLETOP_JWT_AUDIENCE=AUDIENCE)
    log_path = tmp_path / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "commands.cli", "serve"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
    try:
        wait_serving(f"127.0.0.1:{port}", proc, "tabletop serve", service="tabletop.v1.GameService")
        good, expired = mint("dana-42"), mint("dana-42", lifetime=-3600)
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            created = stub.CreateGame(pb.CreateGameRequest(game_type="hinode", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                                           start=True), metadata=[("authorization", f"Bearer {good}")])
            with pytest.raises(grpc.RpcError):
                stub.GetState(pb.GetStateRequest(game_id=created.game_id),
                              metadata=[("authorization", f"Bearer {expired}")])
            stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=[("authorization", f"Bearer {good}")])
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    text = log_path.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    reads = [line for line in lines if line.get("event") == "rpc" and line["method"] == "GetState"]
    assert {(r["code"], r.get("player"), r.get("seat")) for r in reads} == {("UNAUTHENTICATED", None, None),
                                                                            ("OK", "dana-42", 0)}
    assert good not in text and expired not in text
    assert good.split(".")[2] not in text and expired.split(".")[2] not in text  # not even their signatures
