"""Plain-text rendering of game states, scores and suggestions, per game where it knows the game.

Everything here turns tabletop.v1 messages into lines of text; nothing talks to the network.
"""

from __future__ import annotations

from clients.render.style import Style
from clients.render.table import render_moves, render_score, render_seats, render_suggestion
from tabletop.v1 import game_service_pb2 as pb


def render_state(state: pb.GameState, style: Style) -> list[str]:
    """The board as the caller sees it: the game's own rendering, or a generic one for unknown games."""
    from clients.render import generic, hinode, naishi

    kind = state.view.WhichOneof("kind")
    if kind == "hinode":
        return hinode.render(state, style)
    if kind == "naishi" or (kind == "view_json" and state.game_type == "naishi"):
        return naishi.render(state, style)
    return generic.render(state, style)


def describe_changes(before: pb.GameState | None, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """What happened between two views of the same watcher, in words; leave out what `skip_seat` did itself
    (its own move is told by its label)."""
    from clients.render import hinode, naishi

    if before is None or before.view.WhichOneof("kind") is None:
        return []
    if after.view.WhichOneof("kind") == "hinode":
        return hinode.changes(before, after, skip_seat)
    if after.game_type == "naishi" and after.view.WhichOneof("kind") in ("naishi", "view_json"):
        return naishi.changes(before, after, skip_seat)
    return []


def seat_name(state: pb.GameState, seat: int) -> str:
    for info in state.seats:
        if info.seat == seat:
            return info.name or f"seat {seat}"
    return f"seat {seat}"


__all__ = [
    "Style", "describe_changes", "render_moves", "render_score", "render_seats", "render_state",
    "render_suggestion", "seat_name",
]
