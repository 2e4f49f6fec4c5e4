"""Top of the Hinode Town from its typed view (tabletop.v1.HinodeView): the 4 x 3 town, the positions, your hand,
the trick on the table, and what changed since the last view.

The codes are those documented in hinode.proto: colour 0 red, 1 blue, 2 yellow, 3 white; battle card c is suit
c // 13, number c % 13 + 1, card 39 the Hero; Nawabari cards 0-3 red, 4-7 blue, 8-11 yellow, 12 white (the
Hinode Tower); positions 0..3 clockwise, those from `num_players` on are proxies.
"""

from __future__ import annotations

from clients.render.style import Style
from clients.render.table import STATUS
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import hinode_pb2

COLOURS = ("red", "blue", "yellow", "white")
PAINT = ("red", "blue", "yellow", "white")
TRIBES = ("Kansai Gogakuren", "Blue SAMURAI", "Yozakura-kai", "Charmont")
HERO = 39
COLS, ROWS, TRICKS = 4, 3, 9
BONUS = COLS * ROWS
PLACES = ("1st", "2nd", "3rd", "4th")
CELL = 15


def nawabari_colour(card: int) -> int:
    return 3 if card == BONUS else card // 4


def card_name(card: int) -> str:
    return "Hero" if card == HERO else f"{'rby'[card // 13]}{card % 13 + 1}"


def area_name(area: int) -> str:
    return "Bonus Area" if area == BONUS else f"r{area // COLS + 1}c{area % COLS + 1}"


def position_name(state: pb.GameState, view: hinode_pb2.HinodeView, position: int) -> str:
    if position >= view.num_players:
        return f"proxy {position}"
    for info in state.seats:
        if info.seat == position:
            return info.name or f"seat {position}"
    return f"seat {position}"


def _opt(values, i: int) -> int | None:
    return values[i].value if i < len(values) and values[i].HasField("value") else None


def play_text(play: hinode_pb2.HinodePlayCard) -> str:
    text = card_name(play.card)
    if play.HasField("declare"):
        text += f" declaring {COLOURS[play.declare]}"
    if play.HasField("resource"):
        text += f" +{COLOURS[play.resource]} resource"
    if play.HasField("skill"):
        text += f" +{TRIBES[play.skill]} skill"
        if play.HasField("target_area"):
            text += f" on {area_name(play.target_area)}"
        if play.HasField("target_seat"):
            text += f" robbing position {play.target_seat} of {COLOURS[play.target_colour]}"
    return text


def _area_cell(view: hinode_pb2.HinodeView, area: int, style: Style) -> list[str]:
    """Three lines of one Area: colour and VP (<= marks the Battlefield), resources left, the markers."""
    card = view.layout[area]
    colour = nawabari_colour(card)
    battle = view.HasField("battlefield") and view.battlefield == area
    head = f"{COLOURS[colour]} {view.vp[2 * card]}/{view.vp[2 * card + 1]}" + (" <=" if battle else "")
    cubes = " ".join(f"{'rby'[c]}{view.cubes[area * 3 + c]}" for c in range(3)) if area < BONUS else ""
    first, second = _opt(view.first, area), _opt(view.second, area)
    markers = f"1st {f'P{first}' if first is not None else '- '} 2nd {f'P{second}' if second is not None else '-'}"
    lines = [line[:CELL].ljust(CELL) for line in (head, f"res {cubes}" if cubes else "", markers)]
    lines[0] = style.paint(lines[0], *(("bold", PAINT[colour]) if battle else (PAINT[colour],)))
    return lines


def _town(view: hinode_pb2.HinodeView, style: Style) -> list[str]:
    """The 4 x 3 grid (rows r1-r3, columns c1-c4, as in the Area names), then the Bonus Area."""
    rule = "     +" + "+".join("-" * (CELL + 2) for _ in range(COLS)) + "+"
    lines = ["     " + "".join(f"  c{col + 1}".ljust(CELL + 3) for col in range(COLS)).rstrip()]
    for row in range(ROWS):
        lines.append(rule)
        cells = [_area_cell(view, row * COLS + col, style) for col in range(COLS)]
        for i in range(3):
            label = f"  r{row + 1} " if i == 1 else "     "
            lines.append(label + "| " + " | ".join(cell[i] for cell in cells) + " |")
    lines.append(rule)
    bonus = [part.strip() for part in _area_cell(view, BONUS, style) if part.strip()]
    lines.append("  Bonus Area: " + ", ".join(bonus))
    return lines


def _hand(view: hinode_pb2.HinodeView, style: Style) -> str:
    suits = []
    for suit in range(3):
        numbers = [str(c % 13 + 1) for c in sorted(view.hand) if c // 13 == suit]
        if numbers:
            suits.append(style.paint(f"{COLOURS[suit]} {' '.join(numbers)}", PAINT[suit]))
    if view.HasField("seat") and view.heroes[view.seat]:
        suits.append("Hero")
    return "  Your hand: " + ("  |  ".join(suits) or "(empty)")


def render(state: pb.GameState, style: Style) -> list[str]:
    view = state.view.hinode
    trick = min(view.trick + 1, TRICKS)
    mode = "advanced" if view.advanced else "basic"
    lines = [style.paint(f"Top of the Hinode Town  game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}, {mode} rules"]
    if view.phase == "over":
        lines.append("  The game is over.")
    else:
        where = f" on {area_name(view.battlefield)}" if view.HasField("battlefield") else ""
        colour = f" ({COLOURS[view.colour]})" if view.HasField("colour") else ""
        actor = position_name(state, view, view.actor) if view.HasField("actor") else "-"
        lines.append(f"  Trick {trick}/{TRICKS}{where}{colour}; start player {position_name(state, view, view.start)}"
                     f"; phase {view.phase}, {actor} to decide")
    lines += _town(view, style)
    lines.append("  Positions:")
    for p in range(4):
        tribe = _opt(view.tribes, p)
        you = " (you)" if view.HasField("seat") and view.seat == p else ""
        res = " ".join(f"{'rby'[c]}{view.resources[p * 3 + c]}" for c in range(3))
        hero = "Hero in front" if view.heroes[p] else "Hero played"
        lines.append(f"    P{p} {(position_name(state, view, p) + you)[:16].ljust(16)}"
                     f" {(TRIBES[tribe] if tribe is not None else 'no tribe yet').ljust(17)}"
                     f" cards {view.hand_sizes[p]}  {hero.ljust(13)}  res {res}")
    if view.plays:
        lines.append("  On the table:")
        lines += [f"    P{p.seat} {position_name(state, view, p.seat)}: {play_text(p.move)}, power {p.power}"
                  f"{', follows' if p.follow else ''}" for p in view.plays]
    if view.ranking:
        order = ", ".join(f"{PLACES[min(i, 3)]} {position_name(state, view, p)}" for i, p in enumerate(view.ranking))
        lines.append(f"  Last trick: {order}")
    if view.HasField("seat"):
        lines.append(_hand(view, style))
    return lines


def changes(before: pb.GameState, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """The public effects between two views: tribes chosen, Battlefields, cards played, tricks won, resources."""
    old, new = before.view.hinode, after.view.hinode
    said = []
    name = lambda p: position_name(after, new, p)  # noqa: E731
    for p in range(4):
        if p != skip_seat and _opt(old.tribes, p) is None and _opt(new.tribes, p) is not None:
            said.append(f"{name(p)} chose the tribe {TRIBES[_opt(new.tribes, p)]}")
    chosen = new.HasField("battlefield") and (not old.HasField("battlefield") or old.trick != new.trick)
    if chosen and new.start != skip_seat:
        said.append(f"{name(new.start)} chose the Battlefield {area_name(new.battlefield)}")
    for played in new.history[len(old.history):]:
        if played.seat != skip_seat:
            said.append(f"{name(played.seat)} played {play_text(played.move)}")
    if new.trick > old.trick and new.ranking:
        order = ", ".join(f"{PLACES[min(i, 3)]} {name(p)}" for i, p in enumerate(new.ranking))
        said.append(f"Trick {new.trick} judged: {order}")
    if old.phase == "pick" and len(new.history) == len(old.history):
        for p in set(range(4)) - {skip_seat}:
            for c in range(3):
                gained = new.resources[p * 3 + c] - old.resources[p * 3 + c]
                if gained > 0:
                    said.append(f"{name(p)} got a {COLOURS[c]} resource")
    return said
