"""Waiting for what another thread or process does (a server, Redis, a worker), on the thing itself: a fixed sleep
would be too long on a quiet machine and too short on a loaded one.

- `await_turn`: a seat's turn, as the game's watch stream brings the other seats' moves;
- `wait_until`: where no event reaches the test, the condition itself, polled until a deadline, returning the
  moment it holds; `health_status` is one such condition (gRPC health)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tabletop.v1 import game_service_pb2 as pb

T = TypeVar("T")
POLL_SECONDS = 0.02


def wait_until(condition: Callable[[], T], timeout: float, what: str) -> T:
    """The first true value of `condition()`, called until it gives one; AssertionError naming `what` once
    `timeout` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s")
        time.sleep(POLL_SECONDS)


def await_turn(stub, game_id: str, metadata, timeout: float) -> pb.GameState:
    """The state of the caller's seat (`metadata` carries its token) once it is to act or the game is over: at
    once, or when an update of the game's watch stream makes it so (the other seats' moves come as they are made;
    nothing is polled). The state is read afresh then, as a stream may run behind the game."""
    def ready(state: pb.GameState) -> bool:
        return state.status == pb.GAME_STATUS_FINISHED or state.your_seat in state.to_act

    def now() -> pb.GameState:
        return stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=metadata, timeout=10).state

    state = now()
    if ready(state):
        return state
    stream = stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=state.version), metadata=metadata,
                            timeout=timeout)
    try:
        for update in stream:
            if ready(update.state) and ready(state := now()):
                return state
    finally:
        stream.cancel()
    raise AssertionError(f"the watch of game {game_id} ended at version {state.version} with the seat not to act")


def health_status(channel: grpc.Channel, service: str) -> int | None:
    """What gRPC health says of `service` now (a HealthCheckResponse status); None while the server does not
    answer."""
    try:
        return health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service),
                                                         timeout=1).status
    except grpc.RpcError:
        return None
