"""`tabletop demo GAME`: an all-AI game from start to end, printed move by move as a spectator sees it.

With `--json`, only one JSON object is printed, at the end: game_type, game_id, status, moves (how many),
scores (per seat: total and breakdown by category) and ranking (groups of tied seats, best first).
"""

from __future__ import annotations

import argparse
import json
import sys

from clients import connection, render
from clients.render import Style
from clients.session import CONNECT_SECONDS, STRENGTHS, LocalStarter, fail, say, service_target
from clients.terminal import event_lines
from tabletop.client import Client, Seat, TabletopError
from tabletop.v1 import game_service_pb2 as pb


def run_demo(client: Client, game_type: pb.GameType, seats: int, strength: str, options: dict,
             show: bool, style: Style, seed: int | None = None) -> dict:
    """Play the game to its end (the AI worker holds every seat) and return the summary."""
    game = client.create_game(game_type.name, [Seat.ai(strength) for _ in range(seats)], options=options or None,
                              start=True, seed=seed)
    if show:
        say(f"Game {game.game_id}: {game_type.title}, {seats} AI seats ({strength})")
    moves, last, previous = 0, game.state, None
    for update in client.watch(game.game_id):
        if update.event.kind == pb.GameEvent.KIND_MOVE:
            moves += 1
        if show:
            say(*event_lines(update, previous))
        previous = last = update.state
    score = client.score(game.game_id)
    if show:
        if last.HasField("view"):
            say("", *render.render_state(last, style))
        say("", *render.render_score(score, last, style))
    return {
        "game_type": game_type.name,
        "game_id": game.game_id,
        "status": pb.GameStatus.Name(last.status).removeprefix("GAME_STATUS_").lower(),
        "moves": moves,
        "final": score.final,
        "scores": [{"seat": s.seat, "total": s.total, "breakdown": {i.category: i.points for i in s.breakdown}}
                   for s in score.seats],
        "ranking": [list(group.seats) for group in score.ranking],
        "tie_breaks": list(score.tie_breaks),
    }


def main(argv: list[str], local: LocalStarter | None = None) -> int:
    """`tabletop demo`; `local` starts a local stack when no service is named (see clients.session)."""
    parser = argparse.ArgumentParser(prog="tabletop demo", description="Play an all-AI game from start to end.")
    parser.add_argument("game", help="the game type, e.g. hinode or naishi")
    parser.add_argument("--seed", type=int, help="seed of the game's chance (the deal): same seed, same deal")
    parser.add_argument("--json", action="store_true", help="print only one JSON object with the result, at the end")
    parser.add_argument("--target", help="HOST:PORT of a running game service (default: TABLETOP_SERVICE_TARGET, "
                        "else a local stack is started and stopped)")
    parser.add_argument("--strength", default="easy", choices=STRENGTHS, help="the AI strength of every seat")
    parser.add_argument("--seats", type=int, help="how many seats (default: the game's largest table)")
    parser.add_argument("--options", help="game options as a JSON object")
    connection.add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options) if args.options else {}
    except ValueError as exc:
        return fail(f"--options is not JSON: {exc}")
    style = Style.for_stream(sys.stdout)
    with service_target(args.target, quiet=args.json, local=local) as target:
        try:
            link = connection.Connection.from_args(args)
            link.check(target, "a request whose answer holds the creator token")
            client = link.connect(target, wait=CONNECT_SECONDS)
        except TabletopError as error:
            return fail(f"tabletop demo: {error.message}")
        except ValueError as error:  # PlaintextRefused, an unreadable --ca-file, a bad TABLETOP_* flag
            return fail(f"tabletop demo: {error}")
        with client:
            return _demo(args, client, style, options)


def _demo(args: argparse.Namespace, client, style: Style, options: dict) -> int:
    try:
        types = {t.name: t for t in client.game_types()}
        if args.game not in types:
            return fail(f"unknown game {args.game!r}; this service hosts: {', '.join(sorted(types))}")
        game_type = types[args.game]
        seats = args.seats or max(game_type.max_seats, game_type.min_seats)
        summary = run_demo(client, game_type, seats, args.strength, options, not args.json, style, args.seed)
    except TabletopError as error:
        return fail(f"tabletop demo: {error}")
    if args.json:
        print(json.dumps(summary), flush=True)
    return 0 if summary["status"] == "finished" else 1
