"""structlog JSON logs: one line per RPC with method, code, duration, game id, seat and request id; never a token."""

from __future__ import annotations

import structlog

from tabletop import logconfig

log = structlog.get_logger("tabletop.service")


def configure(level: str = "info") -> None:
    logconfig.configure(level)


def bind(**fields: object) -> None:
    """Attach fields (game_id, seat, request_id) to every log line of the current RPC."""
    structlog.contextvars.bind_contextvars(**{k: v for k, v in fields.items() if v is not None})
