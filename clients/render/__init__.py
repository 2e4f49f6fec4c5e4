"""Plain-text rendering of game states, scores and suggestions, per game where it knows the game.

Everything here turns tabletop.v1 messages into lines of text; nothing talks to the network. A game's own
renderer is the module its registry descriptor names (`renderer="games.x.render"`), with two functions:
`render(state, style) -> lines` (the board; the game's typed view is `state.view`, an Any to unpack) and
`changes(before, after, skip_seat) -> lines` (what happened between two views of one watcher, in words).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from clients.render import generic
from clients.render.style import Style
from clients.render.table import render_moves, render_score, render_seats, render_suggestion
from games import registry
from tabletop.v1 import game_service_pb2 as pb


def _renderer(state: pb.GameState) -> ModuleType | None:
    """The game's own renderer module (its descriptor's `renderer`), or None for a game without one."""
    try:
        reference = registry.descriptor(state.game_type).renderer
    except registry.UnknownGame:
        return None
    return importlib.import_module(reference) if reference else None


def render_state(state: pb.GameState, style: Style) -> list[str]:
    """The board as the caller sees it: the game's own rendering, or a generic one for other games."""
    renderer = _renderer(state)
    if renderer is None or not state.HasField("view"):
        return generic.render(state, style)
    return renderer.render(state, style)


def describe_changes(before: pb.GameState | None, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """What happened between two views of the same watcher, in words; leave out what `skip_seat` did itself
    (its own move is told by its label)."""
    renderer = _renderer(after)
    if renderer is None or before is None or not before.HasField("view") or not after.HasField("view"):
        return []
    return renderer.changes(before, after, skip_seat)


def seat_name(state: pb.GameState, seat: int) -> str:
    for info in state.seats:
        if info.seat == seat:
            return info.name or f"seat {seat}"
    return f"seat {seat}"


__all__ = [
    "Style", "describe_changes", "render_moves", "render_score", "render_seats", "render_state",
    "render_suggestion", "seat_name",
]
