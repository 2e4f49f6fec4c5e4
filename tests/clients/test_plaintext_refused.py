"""Our clients never send a seat token, an API key or the AI service credential in plaintext to another machine
without an explicit flag. Every refusal happens before any connection: the targets here are in TEST-NET-1
(192.0.2.0/24, RFC 5737), and each test checks that its channel never left IDLE."""

from __future__ import annotations

import contextlib
import subprocess

import grpc
import pytest

from bench import flood, load, wait, watch
from clients import demo, terminal
from tabletop.client import PlaintextRefused, Seat, connect
from tests.clients.conftest import client_env, tabletop
from tests.support.waiting import wait_until

REMOTE = "192.0.2.1:50051"


@pytest.fixture
def states():
    """Every connectivity state the channels subscribed with `watch` went through."""
    seen: list[grpc.ChannelConnectivity] = []
    yield seen
    assert set(seen) <= {grpc.ChannelConnectivity.IDLE}, f"a channel tried to connect: {seen}"


@contextlib.contextmanager
def watched(client, states):
    """`client`, its channel's states recorded in `states` until it is closed."""
    record = states.append
    client.channel.subscribe(record, try_to_connect=False)
    try:
        yield client
    finally:
        client.channel.unsubscribe(record)
        # gRPC's thread that polled the channel's state for `record` ends at its next look (within 0.2 s); a
        # channel closed before then makes it fail ("Cannot monitor channel state: Channel closed!").
        polling = client.channel._connectivity_state  # no public way to know: gRPC's own record of it
        wait_until(lambda: not polling.polling, 5, "gRPC's connectivity polling ending")
        client.close()


@pytest.mark.parametrize("call", [
    lambda c: c.state("g1", token="seat-token"),
    lambda c: c.move("g1", "seat-token", "m1", 3),
    lambda c: c.suggest("g1", "seat-token"),
    lambda c: c.score("g1", token="seat-token"),
    lambda c: next(c.watch("g1", token="seat-token")),
    lambda c: c.start_game("g1", "creator-token"),
    lambda c: c.create_game("naishi", [Seat.human("Ann"), Seat.ai()]),
    lambda c: c.join_game(join_code="ABCD"),
])
def test_the_sdk_refuses_every_call_with_a_token_to_a_plaintext_remote_target(call, states):
    with watched(connect(REMOTE), states) as client:
        with pytest.raises(PlaintextRefused) as refused:
            call(client)
    message = str(refused.value)
    assert f"to {REMOTE} without TLS" in message
    assert "tls=True" in message and "allow_insecure=True" in message


def test_an_api_key_is_refused_at_connect(states):
    with pytest.raises(PlaintextRefused, match="an API key"):
        connect(REMOTE, api_key="k-123")


def test_allow_insecure_or_tls_or_a_loopback_target_lift_the_refusal():
    assert connect(REMOTE, allow_insecure=True).plaintext_target is None
    assert connect(REMOTE, tls=True).plaintext_target is None
    for target in ("127.0.0.1:50051", "127.8.9.1:1", "localhost:50051", "[::1]:50051", "dns:///localhost:1",
                   "ipv4:127.0.0.1:1,127.0.0.2:2", "unix:/tmp/tabletop.sock"):
        assert connect(target, api_key="k").plaintext_target is None, target
    assert connect("ipv4:127.0.0.1:1,192.0.2.1:2").plaintext_target is not None
    assert connect("dns://127.0.0.1/play.example.com:443").plaintext_target is not None


def test_a_spectator_without_credentials_may_read_a_plaintext_remote_target():
    client = connect(REMOTE)
    assert client._metadata() == []  # no token, no key: nothing to protect, nothing refused


@pytest.mark.parametrize("main, argv", [
    (terminal.play_main, ["naishi", "--target", REMOTE]),
    (demo.main, ["naishi", "--target", REMOTE]),
    (terminal.watch_main, ["g1", "--target", REMOTE, "--api-key", "k-123"]),
    (load.main, ["--target", REMOTE, "--seconds", "0.1"]),
    (flood.main, ["--target", REMOTE]),
    (watch.main, ["--target", REMOTE]),
    (wait.main, ["--target", REMOTE]),
])
def test_the_commands_refuse_before_connecting_and_say_which_flag_to_give(main, argv, capsys, monkeypatch):
    for name in ("TABLETOP_SERVICE_TLS", "TABLETOP_ALLOW_INSECURE", "TABLETOP_API_KEY", "TABLETOP_TLS_CA_FILE"):
        monkeypatch.delenv(name, raising=False)
    assert main(argv) in (1, 2)
    err = capsys.readouterr().err
    assert f"to {REMOTE} without TLS" in err and "--tls" in err and "--insecure" in err


def test_a_bad_ca_file_is_a_clear_error(tmp_path, capsys):
    missing = tmp_path / "nope.pem"
    assert terminal.watch_main(["g1", "--target", REMOTE, "--ca-file", str(missing)]) == 1
    assert f"--ca-file='{missing}' cannot be read" in capsys.readouterr().err


@pytest.mark.integration  # it starts processes
def test_the_worker_will_not_send_its_credential_to_a_plaintext_remote_service():
    env = client_env(TABLETOP_SERVICE_TARGET=REMOTE, TABLETOP_AI_SERVICE_TOKEN="t", TABLETOP_AI_GRPC_PORT="-1",
                     TABLETOP_REDIS_URL="redis://192.0.2.1:6379/0")
    done = subprocess.run(tabletop("ai-worker"), env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"refusing to send the AI service credential to {REMOTE} without TLS" in done.stderr
    assert "TABLETOP_SERVICE_TLS=true" in done.stderr and "TABLETOP_ALLOW_INSECURE=true" in done.stderr

