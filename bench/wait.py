"""`tabletop bench wait`: how long a person waits, in a game against AI seats, for the AIs after each move, and
for a hint. A scripted human (a random legal move each turn) plays through the service like `tabletop play`."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from clients import connection
from clients.session import CONNECT_SECONDS, fail, say, service_target
from tabletop.client import Seat, TabletopError
from tabletop.stack.launcher import local_stack
from tabletop.v1 import game_service_pb2 as pb


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop bench wait", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hinode", help="the game to play (default hinode)")
    parser.add_argument("--strength", default="normal", help="the AI seats' strength")
    parser.add_argument("--games", type=int, default=1, help="games played one after the other (default 1)")
    parser.add_argument("--hints", type=int, default=5, help="hints asked for (the first turns with a choice)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the human seat's random moves (default 1)")
    parser.add_argument("--target", help="a running game service (default: start a local stack)")
    connection.add_arguments(parser)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    with service_target(args.target, quiet=True, local=local_stack) as target:
        try:
            link = connection.Connection.from_args(args)
            link.check(target, "a seat token")
            client = link.connect(target, wait=CONNECT_SECONDS)
        except TabletopError as error:
            return fail(f"tabletop bench wait: {error.message}")
        except ValueError as error:  # PlaintextRefused, an unreadable --ca-file, a bad TABLETOP_* flag
            return fail(f"tabletop bench wait: {error}")
        with client:
            game_type = next(t for t in client.game_types() if t.name == args.game)
            seats = [Seat.human("bench")] + [Seat.ai(args.strength)] * (max(game_type.max_seats, 2) - 1)
            waits: list[float] = []
            hints: list[float] = []
            for _ in range(args.games):
                game = client.create_game(args.game, seats, start=True)
                _play(game.player(0), rng, waits, hints, args.hints)
    if not waits:
        return fail("tabletop bench wait: the human seat never had to wait")
    say(f"{args.game}: {len(waits)} waits for {len(seats) - 1} AI seats at {args.strength} after a move: "
        f"mean {statistics.mean(waits):.2f} s, median {statistics.median(waits):.2f} s, max {max(waits):.2f} s")
    if hints:
        say(f"hints ({args.strength}): {len(hints)}, mean {statistics.mean(hints):.2f} s, max {max(hints):.2f} s")
    return 0


def _play(player, rng: random.Random, waits: list[float], hints: list[float], hint_count: int) -> None:
    """Play the human seat to the end as `tabletop play` follows a game: act whenever the seat is to act."""
    moved_at: list[float] = []

    def act(state: pb.GameState) -> None:
        if moved_at:
            waits.append(time.perf_counter() - moved_at.pop())
        if len(hints) < hint_count and len(state.legal_moves) > 1:
            asked = time.perf_counter()
            player.suggest()
            hints.append(time.perf_counter() - asked)
        player.move(rng.choice(list(state.legal_moves)).id, expected_version=state.version)
        moved_at.append(time.perf_counter())

    state = player.state()
    if player.seat in state.to_act and state.legal_moves:
        act(state)
    for update in player.watch(from_version=state.version):
        if update.event.game_over:
            return
        if player.seat in update.state.to_act and update.state.legal_moves:
            now = player.state()
            if now.version != update.event.version or player.seat not in now.to_act:
                continue  # the game moved on: later events are on their way
            act(now)
