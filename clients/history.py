"""`tabletop history` and `tabletop replay GAME_ID`: finished games from the service's archive, in the terminal.

History lists a player's finished games, newest first: yours (with your signed identity, `--token` or
TABLETOP_IDENTITY_TOKEN), or another player's public ones (`--player`). Replay steps through one game event by
event, every move revealed, and draws the board as each seat saw it (every hand shown) with the game's own
renderer: Enter for the next event, `a` for the rest at once, `q` to stop. When its output is not a terminal it
prints the whole game at once, asking nothing.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from itertools import islice

from clients import render
from clients.render import Style
from clients.session import add_service_arguments, connect_by_args, fail, say
from clients.terminal import event_lines, say_fitted
from tabletop.client import TabletopError
from tabletop.v1 import game_service_pb2 as pb


def _place(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M") if ms else "-"


def game_line(game: pb.FinishedGame) -> str:
    """One finished game on one line: when it ended, its id and type, every seat's name, total and place (an
    abandoned game has no result: its seats' names, and that it was abandoned)."""
    abandoned = game.outcome == pb.GAME_OUTCOME_ABANDONED
    seats = ", ".join(
        f"{'*' if s.seat in game.player_seats else ''}{s.name}"
        + ("" if abandoned else f" {s.total} ({_place(s.place)})") for s in game.seats)
    private = " private" if game.visibility == pb.VISIBILITY_PRIVATE else ""
    end = " (abandoned, no result)" if abandoned else ""
    return f"  {_when(game.ended_unix_ms)}  {game.game_id}  {game.game_type}{private}: {seats}{end}"


def history_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tabletop history",
        description="List a player's finished games, newest first: yours (with --token), or another player's public "
                    "ones (--player). Replay one with `tabletop replay GAME_ID`.")
    parser.add_argument("--player", default="", help="list this player's public games (a player id) instead of your "
                                                     "own")
    parser.add_argument("--game-type", default="", help="only games of this type (e.g. hinode)")
    add_service_arguments(parser, limit="list at most this many games")
    args, client = connect_by_args(parser, argv, "history")
    if client is None:
        return 1
    with client:
        try:
            games = islice(client.history(args.player, args.game_type, page_size=min(args.limit, 100)), args.limit)
            lines = [game_line(game) for game in games]
        except TabletopError as error:
            return fail(f"tabletop history: {error.message}")
    whose = f"{args.player}'s public" if args.player else "your"
    if not lines:
        say(f"No finished games in {whose} history.")
        return 0
    say(f"{whose[0].upper()}{whose[1:]} finished games, newest first (* marks the player's seat):", *lines)
    return 0


def seat_state(replay: pb.GetReplayResponse, step: pb.ReplayStep, seat: int) -> pb.GameState:
    """The game after `step` as `seat` saw it, in the form the renderers draw."""
    state = pb.GameState(game_id=replay.game.game_id, game_type=replay.game.game_type, status=step.status,
                         version=step.event.version, seats=step.seats, your_seat=seat, to_act=step.to_act,
                         options_json=replay.game.options_json, visibility=replay.game.visibility)
    if seat < len(step.seat_views):
        state.view.CopyFrom(step.seat_views[seat])
    return state


def step_lines(replay: pb.GetReplayResponse, index: int, seats: list[int], style: Style, board: bool) -> list[str]:
    """The event of step `index` in words and, unless `board` is off, the board as each of `seats` saw it after."""
    step = replay.steps[index]
    first = seats[0] if seats else 0
    before = seat_state(replay, replay.steps[index - 1], first) if index else None
    lines = event_lines(pb.WatchGameResponse(event=step.event, state=seat_state(replay, step, first)), before)
    if board and step.seat_views:
        for seat in seats:
            state = seat_state(replay, step, seat)
            lines += [f"  -- as {render.seat_name(state, seat)} saw it --", *render.render_state(state, style)]
        lines.append("")
    return lines


def replay_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tabletop replay",
        description="Step through a finished game event by event, every move revealed and every hand shown: Enter "
                    "for the next event, a for the rest, q to stop (all at once when the output is not a terminal).")
    parser.add_argument("game_id", help="the id of a finished game, as `tabletop history` lists it")
    parser.add_argument("--seat", type=int, action="append",
                        help="draw the board as this seat saw it (repeat for several; default: every seat)")
    parser.add_argument("--no-board", action="store_true", help="print the events only")
    parser.add_argument("--seat-token", default=None,
                        help="a seat token of the game: the key to a private game's replay for a player who was not "
                             "signed in (while the service still keeps the game)")
    add_service_arguments(parser)
    style = Style.for_stream(sys.stdout)
    args, client = connect_by_args(parser, argv, "replay")
    if client is None:
        return 1
    with client:
        try:
            replay = client.replay(args.game_id, token=args.seat_token)
        except TabletopError as error:
            return fail(f"tabletop replay: {error.message}")
    count = len(replay.game.seats)
    seats = args.seat if args.seat else list(range(count))
    bad = [s for s in seats if not 0 <= s < count]
    if bad:
        return fail(f"tabletop replay: no seat {bad[0]} in this game (seats 0 to {count - 1})")
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    say(f"Replay of {replay.game.game_id} ({replay.game.game_type}), {len(replay.steps)} events:")
    for index in range(len(replay.steps)):
        say_fitted(*step_lines(replay, index, seats, style, not args.no_board))
        if interactive and index + 1 < len(replay.steps):
            try:
                answer = input("  Enter: next event, a: all the rest, q: stop > ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return 130
            if answer == "q":
                return 0
            if answer == "a":
                interactive = False
    if replay.score.seats:
        last = seat_state(replay, replay.steps[-1], seats[0]) if replay.steps else pb.GameState()
        say_fitted(*render.render_score(replay.score, last, style))
    return 0
