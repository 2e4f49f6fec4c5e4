"""Checks of caller input, and the game types and engine errors as the API reports them."""

from __future__ import annotations

import json
import re
from typing import Any

from google.protobuf.message import Message

from games import registry
from games.base import Game, GameError, InvalidOptions
from service import errors
from service.store import Timer
from tabletop.wire import undefined_enums

STRENGTHS = ("easy", "normal", "hard")
MAX_NAME = 64
MAX_REQUEST_ID = 128
MAX_OPTIONS_JSON = 16 * 1024

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}\Z")  # \Z, not $: "$" also matches before a final newline


def check_enums(request: Message) -> None:
    """Every enum field of a request (at any depth) holds a value its enum defines: protobuf's parser keeps any
    number (`visibility` 99), which would otherwise be read as some default."""
    undefined = undefined_enums(request)
    if undefined:
        raise errors.invalid("UNKNOWN_ENUM_VALUE", "; ".join(undefined[:4]) + ("; ..." if len(undefined) > 4 else ""))


def check_game_id(game_id: str) -> None:
    if not GAME_ID.match(game_id or ""):
        raise errors.invalid("INVALID_GAME_ID", "game_id must be 1-64 characters of A-Z a-z 0-9 _ -")


def check_request_id(request_id: str) -> None:
    if len(request_id) > MAX_REQUEST_ID or not request_id.isprintable():
        raise errors.invalid("INVALID_REQUEST_ID", f"request_id must be at most {MAX_REQUEST_ID} printable characters")


def check_name(name: str) -> str:
    name = name.strip()
    if len(name) > MAX_NAME or not name.isprintable():
        raise errors.invalid("INVALID_NAME", f"names must be at most {MAX_NAME} printable characters")
    return name


def parse_options(options: str | dict[str, Any] | None) -> dict[str, Any]:
    if options is None or options == "":
        return {}
    if isinstance(options, str):
        if len(options) > MAX_OPTIONS_JSON:
            raise errors.invalid("INVALID_OPTIONS", f"options_json is longer than {MAX_OPTIONS_JSON} characters")
        try:
            options = json.loads(options)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested deeper than json recurses
            raise errors.invalid("INVALID_OPTIONS", f"options_json is not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise errors.invalid("INVALID_OPTIONS", "the options must be a JSON object")
    # Checked here, before any engine sees them: JSON's escapes and number syntax admit what is no text or number
    # (a lone surrogate "\\ud800", NaN, Infinity, 1e400), which engines and the stored game must never hold.
    try:
        raw = json.dumps(options, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        raise errors.invalid("INVALID_OPTIONS", "the options nest too deeply") from None
    except ValueError:  # allow_nan=False
        raise errors.invalid("INVALID_OPTIONS", "the options hold NaN or an infinity: JSON numbers must be finite") \
            from None
    try:
        size = len(raw.encode())
    except UnicodeEncodeError:
        raise errors.invalid("INVALID_OPTIONS", "the options hold a lone UTF-16 surrogate (an escape \\ud800-"
                                                "\\udfff without its pair): not text") from None
    if size > MAX_OPTIONS_JSON:
        raise errors.invalid("INVALID_OPTIONS", f"the options are longer than {MAX_OPTIONS_JSON} bytes as JSON")
    return options


def engine(game_type: str) -> Game:
    try:
        return registry.get(game_type)
    except registry.UnknownGame:
        raise errors.invalid(
            "UNKNOWN_GAME_TYPE", f"unknown game type {game_type!r}; hosted: {', '.join(registry.names())}",
            game_type=game_type[:64],
        ) from None


def engine_error(exc: GameError) -> errors.ServiceError:
    """An engine refusal as a gRPC error: bad setup INVALID_ARGUMENT, an illegal move FAILED_PRECONDITION."""
    if isinstance(exc, InvalidOptions):
        return errors.invalid(exc.reason, exc.message)
    return errors.precondition(exc.reason, exc.message)


def resolve_options(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    try:
        return game.resolve_options(options)
    except InvalidOptions as exc:
        raise errors.invalid("INVALID_OPTIONS", exc.message) from None


MIN_TURN_SECONDS, MAX_TURN_SECONDS = 1, 86_400


def check_timer(timer: Timer | None) -> None:
    if timer is None:
        return
    if not MIN_TURN_SECONDS <= timer.turn_seconds <= MAX_TURN_SECONDS:
        raise errors.invalid("INVALID_TIMER", f"turn_seconds must be within {MIN_TURN_SECONDS}..{MAX_TURN_SECONDS}")
    if not 1 <= timer.away_after <= 100:
        raise errors.invalid("INVALID_TIMER", "away_after must be within 1..100")
    strength(timer.strength)


def strength(name: str) -> str:
    name = name or "normal"
    if name not in STRENGTHS:
        raise errors.invalid("INVALID_STRENGTH", f"strength must be one of {', '.join(STRENGTHS)}")
    return name
