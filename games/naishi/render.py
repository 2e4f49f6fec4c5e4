"""Naishi from its view: the River, each territory (Line above Hand), the Imperial Court, and the game's log.

The service sends Naishi's view as the typed `NaishiView` (`view.naishi`, protos/tabletop/v1/naishi.proto); the
engine's JSON envelope (`view.view_json`, what services before the typed message sent) reads the same. Card
codes as in docs/rules/naishi.md: 0 Mountain, 1 Naishi, 2 Advisor, 3 Sentinel, 4 Monk, 5 Horseman, 6 Ronin,
7 Ninja, 8 Fort, 9 Torii, 10 Rice field, 11 Banner. Positions count from 1, left to right, as the rulebook does.
"""

from __future__ import annotations

import json
from typing import Any

from clients.render.style import Style
from clients.render.table import STATUS
from tabletop.v1 import game_service_pb2 as pb

NAMES = ("Mountain", "Naishi", "Advisor", "Sentinel", "Monk", "Horseman", "Ronin", "Ninja", "Fort", "Torii",
         "Rice field", "Banner")
SPACES = ("switch 1", "switch 2", "switch 3", "discard 1", "discard 2", "decree")
WIDTH = 11


def view_data(state: pb.GameState) -> dict[str, Any]:
    """The view's fields by their engine names, from the typed message (or the JSON envelope)."""
    if state.view.WhichOneof("kind") == "view_json":
        return json.loads(state.view.view_json).get("data", {})
    view = state.view.naishi

    def optional(message: Any, name: str) -> Any:
        return getattr(message, name) if message.HasField(name) else None

    def cells(items: Any) -> list[int | None]:
        return [optional(item, "value") for item in items]

    return {
        "seat": optional(view, "seat"), "phase": view.phase, "first": view.first, "turn": view.turn,
        "developed": view.developed, "court_used": view.court_used, "final_turn": optional(view, "final_turn"),
        "declared_by": optional(view, "declared_by"), "offer": list(view.offer),
        "gifts_chosen": list(view.gifts_chosen), "gift_given": optional(view, "gift_given"),
        "gift_received": optional(view, "gift_received"), "hand": list(view.hand),
        "revealed_hands": [list(hand.values) for hand in view.revealed_hands],
        "lines": [list(line.values) for line in view.lines], "river": cells(view.river),
        "pile_sizes": list(view.pile_sizes), "discard": list(view.discard), "court": cells(view.court),
        "knowledge": [{"slots": cells(entry.value.slots), "among": list(entry.value.among)}
                      if entry.HasField("value") else None for entry in view.knowledge],
        "log": list(view.log),
    }


def _name(state: pb.GameState, seat: int) -> str:
    for info in state.seats:
        if info.seat == seat:
            return info.name or f"seat {seat}"
    return f"seat {seat}"


def _cards(cards: list[int | None], unknown: str = "?") -> str:
    return " ".join((NAMES[c] if c is not None else unknown)[:WIDTH].ljust(WIDTH) for c in cards).rstrip()


def _known_hand(data: dict[str, Any], owner: int) -> list[int | None]:
    """What the viewer knows of `owner`'s hidden Hand: known cards in place, '?' elsewhere."""
    seat = data.get("seat")
    index = 2 + owner if seat is None else seat  # see games.naishi.state.knowledge_index
    knowledge = data["knowledge"][index] if index < len(data.get("knowledge", ())) else None
    if not knowledge or not knowledge.get("slots"):
        return [None] * 5
    return list(knowledge["slots"])


def _among(data: dict[str, Any], owner: int) -> str:
    seat = data.get("seat")
    index = 2 + owner if seat is None else seat
    knowledge = data["knowledge"][index] if index < len(data.get("knowledge", ())) else None
    among = knowledge.get("among") if knowledge else None
    return f"             (among the ?: {', '.join(NAMES[c] for c in among)})" if among else ""


def render(state: pb.GameState, style: Style) -> list[str]:
    data = view_data(state)
    seat = data.get("seat")
    lines = [style.paint(f"Naishi  game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}"]
    phase = data.get("phase")
    if phase == "gift":
        lines.append("  Setup: each player gives one of their 2 development cards to the opponent (secretly).")
        if data.get("offer"):
            lines.append(f"  Your 2 cards: {', '.join(NAMES[c] for c in data['offer'])}")
        chosen = [_name(state, s) for s, done in enumerate(data.get("gifts_chosen", [])) if done]
        lines.append(f"  Gifts chosen: {', '.join(chosen) or 'none yet'}")
    elif phase == "over":
        lines.append("  The game is over; both Hands are revealed.")
    else:
        turn = data.get("turn", 0)
        notes = []
        if data.get("developed"):
            notes.append("has developed")
        if data.get("court_used"):
            notes.append("has used the Court")
        if data.get("final_turn") is not None:
            notes.append(f"final turn: {_name(state, data['final_turn'])}")
        extra = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"  Turn: {_name(state, turn)}{extra}; first player {_name(state, data.get('first', 0))}")
    river = data.get("river", [])
    sizes = data.get("pile_sizes", [])
    piles = " ".join(map(str, sizes))
    lines.append("  River:     " + _cards(river, "(empty)").ljust(WIDTH * 5 + 4) + "   piles: " + piles)
    lines.append("  position   " + " ".join(str(i).ljust(WIDTH) for i in range(1, 6)).rstrip())
    revealed = data.get("revealed_hands") or []
    for owner in (0, 1):
        you = " (you)" if seat == owner else ""
        lines.append(style.paint(f"  {_name(state, owner)}{you}", "bold"))
        lines.append("    Line:    " + _cards(data["lines"][owner]))
        if phase == "gift":
            lines.append("    Hand:    (3 Mountains and the card kept, shuffled once both gifts are in)")
        elif revealed:
            lines.append("    Hand:    " + _cards(revealed[owner]))
        elif owner == seat:
            lines.append("    Hand:    " + _cards(data.get("hand", [])))
        else:
            lines.append("    Hand:    " + _cards(_known_hand(data, owner)))
            if _among(data, owner):
                lines.append(_among(data, owner))
    court = data.get("court", [])
    spaces = [f"{SPACES[i]}: {_name(state, who) if who is not None else '-'}" for i, who in enumerate(court)]
    lines.append("  Imperial Court: " + ", ".join(spaces))
    if data.get("gift_received") is not None:
        lines.append(f"  You gave {NAMES[data['gift_given']]} and received {NAMES[data['gift_received']]}")
    lines.append(f"  Discard pile: {len(data.get('discard', []))} cards")
    return lines


def changes(before: pb.GameState, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """The new lines of the game's log (the engine writes what each seat did, as everyone may know it)."""
    old, new = view_data(before).get("log", []), view_data(after).get("log", [])
    said = new[len(old):] if new[: len(old)] == old else new[-1:]
    said = [line for line in said if skip_seat is None or not line.startswith(f"Seat {skip_seat} ")]
    for info in after.seats:
        said = [line.replace(f"Seat {info.seat} ", f"{info.name or f'Seat {info.seat}'} ") for line in said]
    return said
