"""`tabletop bench flood`: one caller floods the service with all-AI "hard" games and SuggestMove calls while
another plays Naishi against one AI seat; how long the honest player waits for the AI's replies, alone and during
the flood, and what the flooder was told.

The honest player has its own API key; the flooder is anonymous (the quotas of every anonymous caller from its
address). The local stack runs with the Kubernetes base's quotas (deploy/k8s/base/config.env) unless the
environment sets others. An AI reply is timed from the answer to the player's move to the WatchGame update that
hands the turn back to the player (or ends the game).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc

from clients import connection
from clients.connection import Connection
from tabletop.client import error_from_rpc
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

HONEST_KEY = "bench-flood-honest-key"  # the local stack lists its sha256 (local_stack below)
HUMAN, AI = pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_AI


async def honest_replies(stub, replies: int, strength: str, seed: int) -> list[float]:
    """Play Naishi against one AI seat until `replies` AI replies were timed; their seconds."""
    rng = random.Random(seed)
    key = (("x-api-key", HONEST_KEY),)
    timed: list[float] = []
    while len(timed) < replies:
        created = await stub.CreateGame(pb.CreateGameRequest(
            game_type="naishi", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=AI, strength=strength)],
            start=True), metadata=key, timeout=30)
        metadata = key + (("authorization", f"Bearer {created.seat_tokens[0].token}"),)
        updates = stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id, from_version=created.state.version),
                                 metadata=metadata)
        state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=metadata,
                                     timeout=30)).state
        try:
            while len(timed) < replies and state.status != pb.GAME_STATUS_FINISHED:
                if 0 not in state.to_act:  # the AI opens: wait for the turn
                    state = await _next_turn(updates)
                    continue
                try:
                    answer = await stub.MakeMove(pb.MakeMoveRequest(
                        game_id=created.game_id, move_id=rng.choice(state.legal_moves).id,
                        expected_version=state.version, request_id=f"m{state.version}"), metadata=metadata, timeout=30)
                except grpc.aio.AioRpcError as error:
                    # Naishi's seats may act at once: the AI's move came first. Read the state and decide again.
                    if error.code() != grpc.StatusCode.ABORTED:
                        raise
                    state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=metadata,
                                                 timeout=30)).state
                    continue
                moved = time.perf_counter()
                state = answer.state
                if state.status == pb.GAME_STATUS_FINISHED or 0 in state.to_act:
                    continue  # nothing for the AI to do
                state = await _next_turn(updates, answer.version)
                timed.append(time.perf_counter() - moved)
        finally:
            updates.cancel()
    return timed


async def _next_turn(updates, after: int = 0) -> pb.GameState:
    while True:
        update = await updates.read()
        if update is grpc.aio.EOF:
            raise RuntimeError("the watch ended before the turn came back")
        state = update.state
        if state.version > after and (0 in state.to_act or state.status == pb.GAME_STATUS_FINISHED):
            return state


async def flood(stub, seconds: float, suggesters: int, told: Counter) -> None:
    """All-AI hard Hinode games as fast as they are taken, and `suggesters` concurrent hard SuggestMove calls."""
    until = time.perf_counter() + seconds

    def note(kind: str, error: grpc.aio.AioRpcError | None) -> None:
        told[f"{kind} {error.code().name} {error_from_rpc(error).reason}".strip() if error else f"{kind} OK"] += 1

    async def creator() -> None:
        while time.perf_counter() < until:
            try:
                await stub.CreateGame(pb.CreateGameRequest(
                    game_type="hinode", seats=[pb.SeatSpec(kind=AI, strength="hard")] * 4, start=True), timeout=30)
                note("CreateGame", None)
            except grpc.aio.AioRpcError as error:
                note("CreateGame", error)
                await asyncio.sleep(0.05)

    async def suggester(token: str, game_id: str) -> None:
        while time.perf_counter() < until:
            try:
                await stub.SuggestMove(pb.SuggestMoveRequest(game_id=game_id, strength="hard"),
                                       metadata=(("authorization", f"Bearer {token}"),), timeout=30)
                note("SuggestMove", None)
            except grpc.aio.AioRpcError as error:
                note("SuggestMove", error)
                await asyncio.sleep(0.05)

    own = await stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                                     start=True), timeout=30)
    to_act = own.state.to_act[0]
    token = next(t.token for t in own.seat_tokens if t.seat == to_act)
    await asyncio.gather(creator(), creator(), *(suggester(token, own.game_id) for _ in range(suggesters)))


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    return (f"median {statistics.median(ordered):.2f} s, p90 {ordered[int(0.9 * (len(ordered) - 1))]:.2f} s, "
            f"max {ordered[-1]:.2f} s over {len(ordered)} replies")


async def run(target: str, replies: int, strength: str, suggesters: int, seed: int,
              link: Connection | None = None) -> int:
    async with (link or Connection()).aio_channel(target, []) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        await honest_replies(stub, 2, strength, seed)  # warm up
        alone = await honest_replies(stub, replies, strength, seed + 1)
        print(f"honest player, alone:        AI ({strength}) replies {_summary(alone)}", flush=True)
        told: Counter = Counter()
        flooding = asyncio.create_task(flood(stub, float("inf"), suggesters, told))
        await asyncio.sleep(2.0)  # the flood is on before the honest player starts again
        try:
            flooded = await honest_replies(stub, replies, strength, seed + 2)
        finally:
            flooding.cancel()
            await asyncio.gather(flooding, return_exceptions=True)
    print(f"honest player, during flood: AI ({strength}) replies {_summary(flooded)}")
    print(f"ratio    median {statistics.median(flooded) / statistics.median(alone):.2f}x, p90 "
          f"{sorted(flooded)[int(0.9 * (len(flooded) - 1))] / sorted(alone)[int(0.9 * (len(alone) - 1))]:.2f}x")
    print("flooder was told: " + ", ".join(f"{k} {n}" for k, n in sorted(told.items())))
    return 0


@contextlib.contextmanager
def local_stack() -> Iterator[str]:
    """Redis, a game service and an AI worker with the Kubernetes base's quotas (unless the environment sets
    others) and the honest player's API key; yields the service target."""
    from tabletop.stack.launcher import local_stack as whole_stack

    base = Path(__file__).resolve().parents[1] / "deploy" / "k8s" / "base" / "config.env"
    for line in base.read_text().splitlines():
        name, _, value = line.partition("=")
        if name.startswith("TABLETOP_QUOTA_"):
            os.environ.setdefault(name, value)
    os.environ["TABLETOP_API_KEYS"] = f"honest:{hashlib.sha256(HONEST_KEY.encode()).hexdigest()}"
    quotas = ", ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("TABLETOP_QUOTA_"))
    with whole_stack(quiet=True) as target:
        print(f"started redis-server, tabletop serve ({target}) and one AI worker; {quotas}")
        yield target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench flood", description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="a running game service that knows the honest player's API key")
    parser.add_argument("--replies", type=int, default=12, help="AI replies timed in each phase (default 12)")
    parser.add_argument("--strength", default="normal", help="the honest player's AI seat (default normal)")
    parser.add_argument("--suggesters", type=int, default=8, help="concurrent SuggestMove loops of the flooder")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random choices (default 1)")
    connection.add_arguments(parser, api_key=False)
    args = parser.parse_args(argv)
    if args.replies < 1 or args.suggesters < 0:
        parser.error("--replies must be at least 1 and --suggesters not negative")
    if args.target:
        try:
            link = Connection.from_args(args)
            link.check(args.target, "seat tokens and an API key")
        except ValueError as error:  # PlaintextRefused, a bad TABLETOP_* flag
            print(f"tabletop bench flood: {error}", file=sys.stderr)
            return 2
        return asyncio.run(run(args.target, args.replies, args.strength, args.suggesters, args.seed, link))
    with local_stack() as target:
        return asyncio.run(run(target, args.replies, args.strength, args.suggesters, args.seed))
