"""structlog JSON logs: one line per RPC with method, code, duration, game id, seat and request id; never a token."""

from __future__ import annotations

import logging

import structlog

from tabletop import logconfig

log = structlog.get_logger("tabletop.service")


def configure(level: str = "info") -> None:
    logconfig.configure(level)


def bind(**fields: object) -> None:
    """Attach fields (game_id, seat, request_id) to every log line of the current RPC."""
    logconfig.bind(**fields)


def new_call() -> None:
    """A new RPC: no fields bound yet (each RPC runs in a task of its own; this is for safety, and cheap)."""
    logconfig.new_context()


def debugging() -> bool:
    """Whether debug lines are written (else a caller need not build them)."""
    return logconfig.level <= logging.DEBUG
