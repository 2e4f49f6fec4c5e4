"""A rendering for any game: status, seats and recent events (the legal moves are listed by the caller)."""

from __future__ import annotations

from tabletop.terminal.style import Style
from tabletop.terminal.table import STATUS, render_seats
from tabletop.v1 import game_service_pb2 as pb


def render(state: pb.GameState, style: Style) -> list[str]:
    lines = [style.paint(f"{state.game_type} game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}"]
    lines += render_seats(state, style)
    for event in state.recent_events[-5:]:
        who = f" by seat {event.seat + 1}" if event.HasField("seat") else ""
        what = f": {event.move_label}" if event.move_label else ""
        lines.append(f"  v{event.version} {pb.GameEvent.Kind.Name(event.kind)[5:].lower()}{who}{what}")
    return lines
