"""A browser that goes away takes its streams with it (issue 26, item 1): a WatchGame stream opened through the
gateway by a raw HTTP client, whose TCP connection is then closed (FIN) or reset (RST) while the game is idle (no
update that a write could fail on), ends upstream too: the gateway's in-flight gauge and the service's open
WatchGame streams go back down, and the game has no watcher left on the service."""

from __future__ import annotations

import socket
import struct

import grpc
import pytest
from prometheus_client import REGISTRY

from tabletop import grpcweb
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.gateway.conftest import GatewayThread, gateway_config
from tests.service.conftest import ServerThread, service_config
from tests.support.waiting import wait_until

WATCH = "/tabletop.v1.GameService/WatchGame"
HUMAN = pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann")
BOUND = 60.0  # generous: how soon it happens is not what is checked


@pytest.fixture(scope="module")
def stack(redis_url, toy_game):  # own service and gateway: nothing else streams through them
    service = ServerThread(service_config(redis_url)).start()
    front = GatewayThread(gateway_config(service.target)).start()
    yield service, front
    front.stop()
    service.stop()


def in_flight() -> float:
    return REGISTRY.get_sample_value("tabletop_gateway_calls_in_flight")


def service_streams() -> float:
    return REGISTRY.get_sample_value("tabletop_streams_open", {"method": "WatchGame"}) or 0.0


def cancelled() -> float:
    return REGISTRY.get_sample_value("tabletop_gateway_calls_total", {"method": WATCH, "code": "CANCELLED"}) or 0.0


def watchers(service: ServerThread, game_id: str) -> int:
    """The WatchGame streams of the game that the service follows now."""
    follower = service.running.servicer.watch.feed._followers.get(game_id)  # noqa: SLF001 - the service's own count
    return follower.watchers if follower else 0


class RawStream:
    """A WatchGame call through the gateway over a plain TCP socket: HTTP/1.1 by hand, the chunked body and its
    gRPC-Web frames decoded as they come."""

    def __init__(self, port: int, game_id: str):
        body = grpcweb.frame(grpcweb.MESSAGE, pb.WatchGameRequest(game_id=game_id).SerializeToString())
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
        self.sock.sendall(f"POST {WATCH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          f"Content-Type: application/grpc-web+proto\r\nContent-Length: {len(body)}\r\n\r\n"
                          .encode() + body)
        self.raw, self.body = b"", b""
        while b"\r\n\r\n" not in self.raw:
            self._receive()
        head, _, self.raw = self.raw.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and b"chunked" in head.lower(), head

    def _receive(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            pytest.fail(f"the gateway closed the connection: {self.raw!r}")
        self.raw += data

    def update(self) -> pb.WatchGameResponse:
        """The next update of the stream, waiting for it."""
        while True:
            while b"\r\n" in self.raw:
                size_line, _, after = self.raw.partition(b"\r\n")
                size = int(size_line.split(b";")[0], 16)
                if len(after) < size + 2:
                    break
                self.body, self.raw = self.body + after[:size], after[size + 2:]
            if len(self.body) >= 5:
                flag, length = struct.unpack(">BI", self.body[:5])
                if len(self.body) >= 5 + length:
                    assert flag == grpcweb.MESSAGE, self.body
                    message, self.body = self.body[5:5 + length], self.body[5 + length:]
                    return pb.WatchGameResponse.FromString(message)
            self._receive()

    def caught_up(self, version: int) -> None:
        """Read the updates up to the game's `version`: from then on the idle game writes nothing."""
        while self.update().event.version < version:
            pass


def create_idle_game(service: ServerThread) -> pb.CreateGameResponse:
    """A game that waits for its players: both seats human, both to choose their gift, no AI and no timer."""
    with grpc.insecure_channel(service.target) as channel:
        return game_service_pb2_grpc.GameServiceStub(channel).CreateGame(
            pb.CreateGameRequest(game_type="naishi", seats=[HUMAN, HUMAN], start=True))


@pytest.mark.parametrize("drop", ["close", "reset"])
def test_a_dropped_connection_ends_the_upstream_watch_stream(stack, drop):
    service, front = stack
    created = create_idle_game(service)
    wait_until(lambda: in_flight() == 0, BOUND, "no call in flight through the gateway before the stream")
    streams_before = service_streams()
    cancelled_before = cancelled()

    stream = RawStream(front.port, created.game_id)
    try:
        stream.caught_up(created.state.version)
        # The stream is open end to end and the game idle: nothing will be written to the dropped connection, so
        # only noticing the connection itself can end the call.
        wait_until(lambda: watchers(service, created.game_id) == 1 and in_flight() == 1
                   and service_streams() == streams_before + 1, BOUND, "the stream open through the gateway")
        if drop == "reset":
            stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    finally:
        stream.sock.close()

    wait_until(lambda: in_flight() == 0, BOUND, "the gateway's calls_in_flight back to 0 after the client left")
    wait_until(lambda: watchers(service, created.game_id) == 0 and service_streams() == streams_before, BOUND,
               "the service's WatchGame stream ended after the client left")
    assert cancelled() == cancelled_before + 1


def test_streaming_connections_are_probed_for_a_silent_peer(stack):
    """A peer that vanishes without a FIN or RST (a laptop closed, a network gone) is found by TCP keepalive
    probes within seconds rather than the system's default two hours: the kernel probes an idle connection, and a
    connection whose data goes unacknowledged times out."""
    from gateway.app import KEEPALIVE_COUNT, KEEPALIVE_IDLE_SECONDS, KEEPALIVE_INTERVAL_SECONDS

    if not hasattr(socket, "TCP_KEEPIDLE"):
        pytest.skip("TCP keepalive timing is set only where the system has TCP_KEEPIDLE (Linux)")
    service, front = stack
    created = create_idle_game(service)
    stream = RawStream(front.port, created.game_id)
    with stream.sock:
        stream.caught_up(created.state.version)
        local = stream.sock.getsockname()
        handlers = [h for h in front._runner.server.connections  # noqa: SLF001 - the gateway's accepted sockets
                    if h.transport and h.transport.get_extra_info("peername") == local]
        assert len(handlers) == 1
        accepted = handlers[0].transport.get_extra_info("socket")
        assert accepted.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == KEEPALIVE_IDLE_SECONDS
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == KEEPALIVE_INTERVAL_SECONDS
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == KEEPALIVE_COUNT
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == 1000 * (
                KEEPALIVE_IDLE_SECONDS + KEEPALIVE_INTERVAL_SECONDS * KEEPALIVE_COUNT)
