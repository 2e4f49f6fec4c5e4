"""structlog as every Tabletop process logs: JSON lines on stderr with the context bound per request or job."""

from __future__ import annotations

import logging
import sys

import structlog


def configure(level: str = "info") -> None:
    """One JSON object per line (level, ISO UTC timestamp, bound context such as game_id and seat); never a token."""
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
