"""`tabletop ratings [PLAYER]` and `tabletop leaderboard GAME`: the ratings of rated games (docs/ratings.md), as
plain tables that fit 80 columns.

Ratings prints a player's rating in each game type it has played rated games of: yours (with your signed
identity, `--token` or TABLETOP_IDENTITY_TOKEN), or any player's by id, `ai:<strength>` for an AI strength. The
leaderboard prints a game type's best players first, AI strengths marked; a player id too long for its column is
cut, an ellipsis marking the cut.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from itertools import islice

from clients.session import add_service_arguments, connect_by_args, fail, say
from tabletop.client import TabletopError
from tabletop.terminal.screen import clip
from tabletop.v1 import game_service_pb2 as pb

NUMBERS = ("rating", "mu", "sigma", "games")  # the numeric columns, each NUMBER_WIDTH wide
NUMBER_WIDTH = 8
GAME_TYPE_WIDTH = 20
PLAYER_WIDTH = 37  # 2 + rank 5 + 2 + 37 + 4 x 8 = 78 columns
RANK_WIDTH = 5


def _numbers(rating: pb.Rating) -> str:
    values = (f"{rating.ordinal:.2f}", f"{rating.mu:.2f}", f"{rating.sigma:.2f}", str(rating.games))
    return "".join(" " + value.rjust(NUMBER_WIDTH - 1) for value in values)  # a space between columns, always


def _numbers_head() -> str:
    return "".join(name.rjust(NUMBER_WIDTH) for name in NUMBERS)


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M") if ms else "-"


def rating_lines(ratings: list[pb.Rating]) -> list[str]:
    """A player's ratings as a table: a row per game type, with when a rated game last changed it (UTC)."""
    lines = ["  " + "game type".ljust(GAME_TYPE_WIDTH) + _numbers_head() + "  last rated game"]
    for rating in ratings:
        lines.append("  " + clip(rating.game_type, GAME_TYPE_WIDTH).ljust(GAME_TYPE_WIDTH) + _numbers(rating)
                     + "  " + _when(rating.updated_unix_ms))
    return lines


def leaderboard_lines(ratings: list[pb.Rating]) -> list[str]:
    """Leaderboard rows as a table: rank, player (an AI strength marked "(AI)"), rating, mu, sigma, games."""
    lines = ["  " + "rank".rjust(RANK_WIDTH) + "  " + "player".ljust(PLAYER_WIDTH) + _numbers_head()]
    for rating in ratings:
        player = f"{rating.player_id} (AI)" if rating.ai else rating.player_id
        lines.append("  " + str(rating.rank).rjust(RANK_WIDTH) + "  " + clip(player, PLAYER_WIDTH).ljust(PLAYER_WIDTH)
                     + _numbers(rating))
    return lines


def ratings_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tabletop ratings",
        description="Print a player's ratings, one per game type it has played rated games of (the rating shown is "
                    "mu - 3 sigma, 0 for a new player): yours (with --token), or another player's.")
    parser.add_argument("player", nargs="?", default="",
                        help="the player id, or ai:easy / ai:normal / ai:hard for an AI strength (default: you, by "
                             "your --token)")
    add_service_arguments(parser)
    args, client = connect_by_args(parser, argv, "ratings")
    if client is None:
        return 1
    with client:
        if not args.player and not client.identity:
            return fail("tabletop ratings: give a PLAYER id, or your signed identity (--token or "
                        "TABLETOP_IDENTITY_TOKEN) for your own ratings")
        try:
            ratings = client.ratings(args.player)
        except TabletopError as error:
            return fail(f"tabletop ratings: {error.message}")
    if not ratings:
        say(f"No ratings for {args.player or 'you'} yet: no rated game counted.")
        return 0
    say(f"Ratings of {args.player}:" if args.player else "Your ratings:", *rating_lines(ratings))
    return 0


def leaderboard_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tabletop leaderboard",
        description="Print a game type's leaderboard: its rated players, AI strengths included, best rating first.")
    parser.add_argument("game_type", help="the game type (e.g. hinode)")
    add_service_arguments(parser, identity=False, limit="print at most this many players")
    args, client = connect_by_args(parser, argv, "leaderboard")
    if client is None:
        return 1
    with client:
        try:
            ratings = list(islice(client.leaderboard(args.game_type, page_size=min(args.limit, 100)), args.limit))
        except TabletopError as error:
            return fail(f"tabletop leaderboard: {error.message}")
    if not ratings:
        say(f"No rated players in {args.game_type} yet.")
        return 0
    say(f"Leaderboard of {args.game_type}, best first:", *leaderboard_lines(ratings))
    return 0
