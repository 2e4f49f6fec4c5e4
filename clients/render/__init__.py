"""Plain-text rendering of game states, scores and suggestions, per game where it knows the game.

Everything here turns tabletop.v1 messages into lines of text; nothing talks to the network. A game's own
renderer is the module its registry descriptor names (`renderer="games.x.render"`), with two functions:
`render(state, style) -> lines` (the board; the game's typed view is `state.view`, an Any to unpack) and
`changes(before, after, skip_seat) -> lines` (what happened between two views of one watcher, in words).
Three more are optional (a renderer without them still works):
`compact(state, style, width) -> lines` (the board for a small screen: a few lines of at most `width` columns, so
that the board and the move list fit on 80 x 24), `legend(state) -> lines` (what the board's abbreviations and
notation mean, shown by `?` in `tabletop play`) and `group(state, move) -> str` (the name of a legal move's group
when a long list is grouped, e.g. "Play the red 5" or "Develop"; moves with one name form one group).
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType

from clients.render import generic
from games import registry
from tabletop.terminal import screen
from tabletop.terminal.style import Style
from tabletop.terminal.table import render_moves, render_score, render_seats, render_suggestion, seat_name
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


def render_compact(state: pb.GameState, style: Style, width: int = screen.MIN_WIDTH) -> list[str]:
    """The board for a small screen: the game's `compact` drawing, else its full one."""
    renderer = _renderer(state)
    if renderer is None or not state.HasField("view"):
        return generic.render(state, style)
    if hasattr(renderer, "compact"):
        return renderer.compact(state, style, width)
    return renderer.render(state, style)


def legend(state: pb.GameState) -> list[str]:
    """What the board's abbreviations mean (the game's `legend`), and the keys of `tabletop play`."""
    renderer = _renderer(state)
    lines = list(renderer.legend(state)) if renderer is not None and hasattr(renderer, "legend") else []
    return lines or ["  (this game's board has no abbreviations to explain)"]


def move_group(state: pb.GameState, move: pb.LegalMove) -> str:
    """The group a legal move is listed under when the list is long: the game's `group`, else the first word of
    its id ("play" for "play:r5") or, for an id without parts, the move on its own."""
    renderer = _renderer(state)
    if renderer is not None and hasattr(renderer, "group") and move.HasField("move"):
        return renderer.group(state, move)
    head = re.split(r"[:>+/]", move.id, maxsplit=1)[0]
    return head.capitalize() if head != move.id else move.label


def decision_screen(state: pb.GameState, style: Style, head: str, width: int = screen.MIN_WIDTH,
                    height: int = screen.MIN_HEIGHT, menu: screen.Menu | None = None,
                    opened: int | None = None) -> screen.Screen:
    """One decision: the board and the legal moves under `head`, fitted to the screen (see tabletop.terminal.screen)."""
    width, height = screen.size(width, height)
    boards = (render_state(state, style), render_compact(state, style, width))
    return screen.decision(state, style, head, width, height, menu=menu, opened=opened, boards=boards,
                           group_of=lambda move: move_group(state, move))


def describe_changes(before: pb.GameState | None, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """What happened between two views of the same watcher, in words; leave out what `skip_seat` did itself
    (its own move is told by its label)."""
    renderer = _renderer(after)
    if renderer is None or before is None or not before.HasField("view") or not after.HasField("view"):
        return []
    return renderer.changes(before, after, skip_seat)


# The kit's game-independent pieces travel with the renderer, so that a client draws a whole table from here.
__all__ = [
    "Style", "decision_screen", "describe_changes", "legend", "move_group", "render_compact", "render_moves",
    "render_score", "render_seats", "render_state", "render_suggestion", "seat_name",
]
