"""What the paged lists (AIP-158: ListGames, ListMyGames, ListFinishedGames, GetLeaderboard) share: the page size a
request may ask for, and the page token's envelope. A token is opaque to clients: a versioned JSON list of the
fields its list needs to go on (a cursor, and what the filter was), base64url without padding. Each list says
which fields and checks them, and whether the token was made for the request's filter."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from service import errors

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 100
TOKEN_VERSION = 1
MAX_TOKEN_LENGTH = 512


def page_size(asked: int) -> int:
    """The page size to use: `asked` (0 = the default), at most MAX_PAGE_SIZE (AIP-158: a larger size is coerced);
    a negative one is INVALID_PAGE_SIZE."""
    if asked < 0:
        raise errors.invalid("INVALID_PAGE_SIZE", "page_size must not be negative")
    return min(asked or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def encode_token(*fields: Any) -> str:
    raw = json.dumps([TOKEN_VERSION, *fields], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_token(token: str, rpc: str, valid: Callable[..., bool]) -> list[Any]:
    """The fields of a token that `encode_token` made, when `valid(*fields)` says they are what `rpc`'s tokens
    hold; else INVALID_PAGE_TOKEN, naming `rpc`."""
    try:
        if len(token) > MAX_TOKEN_LENGTH:
            raise ValueError("too long")
        version, *fields = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        if version != TOKEN_VERSION or not valid(*fields):
            raise ValueError("not a page token")
    except (ValueError, TypeError, UnicodeDecodeError):
        raise errors.invalid("INVALID_PAGE_TOKEN", f"page_token is not a next_page_token of {rpc}") from None
    return fields
