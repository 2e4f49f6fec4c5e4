"""Bearer tokens: random, shown once, stored only as a hash, compared in constant time, never logged.

A seat token acts for one seat of one game; the creator token may start its game; a signed player identity (a JWT,
service/identity.py) acts for the seat bound to its player in a game, if any; the AI service token (shared
with the AI worker) acts for the seat named in the `x-tabletop-seat` metadata when the AI plays it: an AI seat, a
human seat that is away, left or resigned, or one whose turn timer ran out.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from service import errors
from service.identity import Player, Verifier, looks_like_jwt

SEAT_HEADER = "x-tabletop-seat"
MAX_TOKEN_LENGTH = 256


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """sha256 suffices: tokens carry 256 random bits, so there is nothing to brute-force or look up."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Credentials:
    """What the caller presented in its metadata (the token itself stays out of logs and reprs)."""

    token: str | None = None  # a seat, creator or AI service token
    seat_header: int | None = None
    player: Player | None = None  # a verified identity (the JWT itself is not kept)

    @property
    def anonymous(self) -> bool:
        """Neither a token nor an identity: a spectator."""
        return self.token is None and self.player is None

    def __repr__(self) -> str:
        return (f"Credentials(token={'***' if self.token else None}, seat_header={self.seat_header}, "
                f"player={self.player.player_id if self.player else None})")


@dataclass(frozen=True)
class Caller:
    """Who is calling, once the credentials are checked against one game."""

    role: str  # "spectator", "seat", "creator", "ai", or "player" (an identity with no seat in the game)
    seat: int | None = None
    player_id: str = ""  # the verified identity's player id, when the caller sent one


SPECTATOR = Caller("spectator")


def credentials(metadata: Iterable[tuple[str, str | bytes]] | None, verifier: Verifier | None = None
                ) -> Credentials:
    """Read `authorization: Bearer <token>` and `x-tabletop-seat` from the call metadata. A bearer JWT is a player
    identity, verified here (UNAUTHENTICATED when bad, or when no verifier is configured)."""
    token = None
    seat = None
    player = None
    for key, value in metadata or ():
        if isinstance(value, bytes):
            continue
        if key == "authorization":
            scheme, _, rest = value.strip().partition(" ")
            rest = rest.strip()
            if scheme.lower() == "bearer" and looks_like_jwt(rest):
                player = (verifier or Verifier()).verify(rest)
                continue
            if scheme.lower() != "bearer" or not rest or len(rest) > MAX_TOKEN_LENGTH:
                raise errors.unauthenticated(
                    "MALFORMED_AUTHORIZATION", "the authorization metadata must be `Bearer <token>`"
                )
            token = rest
        elif key == SEAT_HEADER:
            try:
                seat = int(value)
            except ValueError:
                raise errors.invalid("MALFORMED_SEAT", f"{SEAT_HEADER} must be a seat number") from None
    return Credentials(token, seat, player)


def identity(metadata: Iterable[tuple[str, str | bytes]] | None, verifier: Verifier | None = None) -> Player | None:
    """The verified player identity of the call, if it sends one (a bad one is UNAUTHENTICATED); any other
    authorization value is left alone, for the calls that take no token (CreateGame, JoinGame, the listings)."""
    for key, value in metadata or ():
        if key == "authorization" and isinstance(value, str):
            scheme, _, rest = value.strip().partition(" ")
            if scheme.lower() == "bearer" and looks_like_jwt(rest.strip()):
                return (verifier or Verifier()).verify(rest.strip())
    return None


def constant_time_equal(token_digest: str, stored: str | None) -> bool:
    return bool(stored) and hmac.compare_digest(token_digest, stored)


def identify(
    creds: Credentials,
    seat_hashes: list[str | None],
    ai_seats: list[bool],
    creator_hash: str | None,
    ai_service_token: str,
    seat_players: list[str] = (),
    creator_player: str = "",
) -> Caller:
    """Check the credentials against one game; raise UNAUTHENTICATED / PERMISSION_DENIED when they do not fit.
    `ai_seats`: per seat, whether the AI service credential may act for it now. `seat_players`: per seat, the
    player id it is bound to ("" for an anonymous seat); `creator_player`: the identity that created the game."""
    if creds.player is not None:
        player_id = creds.player.player_id
        for seat, bound in enumerate(seat_players):
            if bound and hmac.compare_digest(bound.encode(), player_id.encode()):
                return Caller("seat", seat, player_id)
        if creator_player and hmac.compare_digest(creator_player.encode(), player_id.encode()):
            return Caller("creator", None, player_id)
        return Caller("player", None, player_id)
    if creds.token is None:
        return SPECTATOR
    if ai_service_token and hmac.compare_digest(creds.token.encode(), ai_service_token.encode()):
        seat = creds.seat_header
        if seat is None:
            raise errors.invalid("MISSING_SEAT", f"the AI service credential needs the {SEAT_HEADER} metadata")
        if not 0 <= seat < len(ai_seats) or not ai_seats[seat]:
            raise errors.denied("NOT_AN_AI_SEAT", f"the AI does not play seat {seat} of this game now")
        return Caller("ai", seat)
    digest = token_hash(creds.token)
    found = None
    for seat, stored in enumerate(seat_hashes):  # no early exit: the time does not depend on which seat matched
        if constant_time_equal(digest, stored):
            found = seat
    if found is not None:
        return Caller("seat", found)
    if constant_time_equal(digest, creator_hash):
        return Caller("creator")
    raise errors.unauthenticated("INVALID_TOKEN", "the token is not valid for this game")

