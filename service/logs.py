"""structlog JSON logs: one line per RPC with method, code, duration, game id, seat and request id; never a token."""

from __future__ import annotations

import logging
import sys

import structlog

log = structlog.get_logger("tabletop.service")


def configure(level: str = "info") -> None:
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping().get(level.upper(), 20)),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


def bind(**fields: object) -> None:
    """Attach fields (game_id, seat, request_id) to every log line of the current RPC."""
    structlog.contextvars.bind_contextvars(**{k: v for k, v in fields.items() if v is not None})
