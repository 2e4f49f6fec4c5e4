"""structlog as every Tabletop process logs: JSON lines on stderr with the context bound per request or job."""

from __future__ import annotations

import contextvars
import logging
import sys

import structlog

# The level configured last (a number of `logging`): a caller may skip building a line that would be dropped.
level = logging.INFO
# Fields bound to every log line of the current task (the game service: one RPC). One context variable holding an
# immutable-by-convention dict, replaced at each bind, rather than structlog's one variable per field: binding at
# every RPC costs a dict copy instead of a variable lookup, a set and a token per field. None: nothing bound yet.
_bound: contextvars.ContextVar[dict[str, object] | None] = contextvars.ContextVar("tabletop_log_fields", default=None)


def configure(level_name: str = "info") -> None:
    """One JSON object per line (level, ISO UTC timestamp, bound context such as game_id and seat); never a token."""
    global level
    level = logging.getLevelNamesMapping().get(level_name.upper(), logging.INFO)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            _merge_bound,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )


def new_context() -> None:
    """Start the current task's bound fields afresh (at the start of an RPC)."""
    _bound.set({})


def bind(**fields: object) -> None:
    """Attach fields to every later log line of the current task (and of tasks it starts later), as structlog's
    bind_contextvars does; None values are left out."""
    _bound.set({**(_bound.get() or {}), **{k: v for k, v in fields.items() if v is not None}})


def _merge_bound(logger: object, method: str, event: dict) -> dict:
    bound = _bound.get()
    return {**bound, **event} if bound else event
