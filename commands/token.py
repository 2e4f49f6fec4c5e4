"""`tabletop token PLAYER_ID [--name NAME]`: a signed identity for a player of the local stack, and the link that
signs the web table in with it. It stands in for a real site's sign-in: the JWT is signed with the secret `tabletop
run` gives its game service (TABLETOP_JWT_SECRET, else the development secret kept in var/dev-identity.json)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from service.identity import MAX_PLAYER_ID_LENGTH, PLAYER_ID
from tabletop.stack import dev_identity


def player_id(text: str) -> str:
    if not 0 < len(text) <= MAX_PLAYER_ID_LENGTH or not PLAYER_ID.match(text):
        raise argparse.ArgumentTypeError(
            f"{text!r}: a player id is 1 to {MAX_PLAYER_ID_LENGTH} printable characters, no spaces")
    return text


def hours(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not 0 < value <= 24 * 366:
        raise argparse.ArgumentTypeError(f"{value:g} hours: give more than 0 and at most a year")
    return value


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop token", description=__doc__)
    parser.add_argument("player_id", type=player_id, metavar="PLAYER_ID",
                        help="the player's id (the token's sub): their seats, games and ratings are bound to it")
    parser.add_argument("--name", default="", help="the player's display name (the token's name claim)")
    parser.add_argument("--hours", type=hours, default=24.0, help="how long the token is valid (default: 24)")
    parser.add_argument("--url", default=None,
                        help="the web table's address for the link (default: the last `tabletop run`'s)")
    parser.add_argument("--identity-file", type=Path, default=Path(os.environ.get("TABLETOP_DEV_IDENTITY_FILE")
                                                                   or dev_identity.DEFAULT_FILE),
                        help="the development secret `tabletop run` made (default: $TABLETOP_DEV_IDENTITY_FILE, else "
                             "var/dev-identity.json); unused when TABLETOP_JWT_SECRET is set")
    parser.add_argument("--json", action="store_true", help="print one JSON object: player_id, token, link")
    args = parser.parse_args(argv)
    args.name = " ".join(args.name.split())  # as the service reads a name claim
    if not args.name.isprintable() or len(args.name) > 64:
        parser.error("--name: at most 64 printable characters")
    try:
        identity = dev_identity.from_environment(os.environ) or dev_identity.read(args.identity_file)
    except dev_identity.IdentityFileError as exc:
        print(f"tabletop token: {exc}", file=sys.stderr)
        return 2
    if identity is None:
        print(f"tabletop token: no secret to sign with: {args.identity_file} does not exist and "
              "TABLETOP_JWT_SECRET is not set. Start the stack once with `make run` (it makes the file; run this "
              "in the folder it runs in), or set TABLETOP_JWT_SECRET (and TABLETOP_JWT_ISSUER / "
              "TABLETOP_JWT_AUDIENCE) as the service has them.",
              file=sys.stderr)
        return 2
    token = identity.mint(args.player_id, args.name, lifetime_seconds=int(args.hours * 3600))
    link = identity.sign_in_link(token, args.url)
    if args.json:
        print(json.dumps({"player_id": args.player_id, "token": token, "link": link}))
        return 0
    who = f"{args.player_id} ({args.name})" if args.name else args.player_id
    print(f"Sign-in link for {who}, valid {args.hours:g} h (open it in a browser; another browser or a private "
          f"window for another player):\n  {link}\n"
          f"The token alone (the table's sign-in box; tabletop play/history/replay --token):\n  {token}")
    return 0
