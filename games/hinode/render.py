"""Top of the Hinode Town from its typed view (tabletop.v1.HinodeView): the 4 x 3 town, the positions, your hand,
the trick on the table, and what changed since the last view."""

from __future__ import annotations

from tabletop.terminal.screen import clip
from tabletop.terminal.style import Style
from tabletop.terminal.table import STATUS
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import hinode_pb2 as hp

COLOURS = {hp.HINODE_COLOUR_RED: "red", hp.HINODE_COLOUR_BLUE: "blue", hp.HINODE_COLOUR_YELLOW: "yellow",
           hp.HINODE_COLOUR_WHITE: "white"}
TRIBES = {hp.HINODE_TRIBE_KANSAI_GOGAKUREN: "Kansai Gogakuren", hp.HINODE_TRIBE_BLUE_SAMURAI: "Blue SAMURAI",
          hp.HINODE_TRIBE_YOZAKURA_KAI: "Yozakura-kai", hp.HINODE_TRIBE_CHARMONT: "Charmont"}
PHASES = {hp.HINODE_PHASE_CHOOSE_TRIBE: "choosing tribes", hp.HINODE_PHASE_CHOOSE_AREA: "choosing the Battlefield",
          hp.HINODE_PHASE_PLAY: "playing cards", hp.HINODE_PHASE_PICK_RESOURCE: "4th place picks a resource",
          hp.HINODE_PHASE_OVER: "over"}
COLS, ROWS, TRICKS = 4, 3, 9
PLACES = ("1st", "2nd", "3rd", "4th")
CELL = 15


def unpack(state: pb.GameState) -> hp.HinodeView:
    view = hp.HinodeView()
    state.view.Unpack(view)
    return view


def card_name(card: hp.HinodeCard) -> str:
    return "Hero" if card.hero else f"{COLOURS[card.suit]} {card.number}"


def area_name(view: hp.HinodeView, area: int) -> str:
    a = view.areas[area]
    return f"the Area at row {a.row}, column {a.column}"


def position_name(state: pb.GameState, view: hp.HinodeView, position: int) -> str:
    if position >= view.num_players:
        return f"proxy {position + 1}"
    for info in state.seats:
        if info.seat == position:
            return info.name or f"seat {position + 1}"
    return f"seat {position + 1}"


def play_text(state: pb.GameState, view: hp.HinodeView, play: hp.HinodePlayCard) -> str:
    text = card_name(play.card)
    if play.declared_colour:
        text += f" declaring {COLOURS[play.declared_colour]}"
    if play.resource:
        text += f" with a {COLOURS[play.resource]} resource"
    if play.skill:
        text += f" with the {TRIBES[play.skill]} skill"
        if play.HasField("target_area"):
            text += f" on {area_name(view, play.target_area)}"
        if play.HasField("target_position"):
            text += (f", taking a {COLOURS[play.target_colour]} resource from "
                     f"{position_name(state, view, play.target_position)}")
    return text


def _resources(resources: hp.HinodeResources) -> str:
    """'r2 b1 y0': red, blue and yellow resources, as on the Areas."""
    return f"r{resources.red} b{resources.blue} y{resources.yellow}"


def _area_cell(view: hp.HinodeView, area: hp.HinodeArea, battle: bool, style: Style) -> list[str]:
    """Three lines of one Area: colour and VP for 1st/2nd (* marks the Battlefield), resources left, markers."""
    nawabari = area.nawabari
    colour = COLOURS[nawabari.colour]
    head = f"{'*' if battle else ''}{colour} {nawabari.first_place_vp}/{nawabari.second_place_vp}VP"
    res = area.resources
    cubes = f"r{res.red} b{res.blue} y{res.yellow}" if area.row else ""
    first = f"P{area.first_place + 1}" if area.HasField("first_place") else "-"
    second = f"P{area.second_place + 1}" if area.HasField("second_place") else "-"
    lines = [line[:CELL].ljust(CELL) for line in (head, cubes, f"1st {first} 2nd {second}" if area.row else "")]
    lines[0] = style.paint(lines[0], *(("bold", colour) if battle else (colour,)))
    return lines


def _town(view: hp.HinodeView, style: Style) -> list[str]:
    """The 4 x 3 grid (rows and columns counted from 1, as in the Area names), then the Bonus Area."""
    rule = "     +" + "+".join("-" * (CELL + 2) for _ in range(COLS)) + "+"
    lines = ["     " + "".join(f"  column {col + 1}".ljust(CELL + 3) for col in range(COLS)).rstrip()]
    for row in range(ROWS):
        lines.append(rule)
        cells = [_area_cell(view, view.areas[row * COLS + col],
                            view.HasField("battlefield") and view.battlefield == row * COLS + col, style)
                 for col in range(COLS)]
        for i in range(3):
            label = f"  r{row + 1} " if i == 1 else "     "
            lines.append(label + "| " + " | ".join(cell[i] for cell in cells) + " |")
    lines.append(rule)
    bonus = view.bonus_area.nawabari
    lines.append(f"  Bonus Area: {COLOURS[bonus.colour]} (Areas of this colour score a bonus)")
    lines.append("  Each Area: colour and VP for 1st/2nd place (* the Battlefield), resources (r b y), markers")
    return lines


def _hand(view: hp.HinodeView, style: Style) -> str:
    suits = []
    for suit in (hp.HINODE_COLOUR_RED, hp.HINODE_COLOUR_BLUE, hp.HINODE_COLOUR_YELLOW):
        numbers = sorted(c.number for c in view.hand if not c.hero and c.suit == suit)
        if numbers:
            suits.append(style.paint(f"{COLOURS[suit]} {' '.join(map(str, numbers))}", COLOURS[suit]))
    if view.HasField("seat") and view.positions[view.seat].hero_available:
        suits.append("Hero")
    return "  Your hand: " + ("  |  ".join(suits) or "(empty)")


def render(state: pb.GameState, style: Style) -> list[str]:
    view = unpack(state)
    trick = min(view.tricks_done + 1, TRICKS)
    mode = "advanced" if view.advanced else "basic"
    lines = [style.paint(f"Top of the Hinode Town  game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}, {mode} rules"]
    if view.phase == hp.HINODE_PHASE_OVER:
        lines.append("  The game is over.")
    else:
        where = f" on {area_name(view, view.battlefield)}" if view.HasField("battlefield") else ""
        colour = f" ({COLOURS[view.battlefield_colour]})" if view.battlefield_colour else ""
        actor = position_name(state, view, view.actor) if view.HasField("actor") else "-"
        lines.append(f"  Trick {trick}/{TRICKS}{where}{colour}; start player "
                     f"{position_name(state, view, view.start_player)}; {PHASES[view.phase]}, {actor} to decide")
    lines += _town(view, style)
    lines.append("  Positions:")
    for p in view.positions:
        you = " (you)" if view.HasField("seat") and view.seat == p.position else ""
        hero = "Hero in front" if p.hero_available else "Hero played"
        lines.append(f"    P{p.position + 1} {(position_name(state, view, p.position) + you)[:16].ljust(16)}"
                     f" {TRIBES.get(p.tribe, 'no tribe yet').ljust(17)}"
                     f" cards {p.hand_size}  {hero.ljust(13)}  {_resources(p.resources)}")
    if view.trick:
        lines.append("  On the table:")
        lines += [f"    P{p.position + 1} {position_name(state, view, p.position)}: "
                  f"{play_text(state, view, p.play)}, power {p.power}{', follows' if p.follow else ''}"
                  for p in view.trick]
    if view.ranking:
        order = ", ".join(f"{PLACES[min(i, 3)]} {position_name(state, view, p)}" for i, p in enumerate(view.ranking))
        lines.append(f"  Last trick: {order}")
    if view.HasField("seat"):
        lines.append(_hand(view, style))
    return lines


def changes(before: pb.GameState, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """The public effects between two views: tribes chosen, Battlefields, cards played, tricks won, resources."""
    old, new = unpack(before), unpack(after)
    said = []
    name = lambda p: position_name(after, new, p)  # noqa: E731
    for p_old, p_new in zip(old.positions, new.positions, strict=True):
        if p_new.position != skip_seat and not p_old.tribe and p_new.tribe:
            said.append(f"{name(p_new.position)} chose the tribe {TRIBES[p_new.tribe]}")
    chosen = new.HasField("battlefield") and (not old.HasField("battlefield") or old.tricks_done != new.tricks_done)
    if chosen and new.start_player != skip_seat:
        said.append(f"{name(new.start_player)} chose the Battlefield: {area_name(new, new.battlefield)}")
    for played in new.history[len(old.history):]:
        if played.position != skip_seat:
            said.append(f"{name(played.position)} played {play_text(after, new, played.play)}")
    if new.tricks_done > old.tricks_done and new.ranking:
        order = ", ".join(f"{PLACES[min(i, 3)]} {name(p)}" for i, p in enumerate(new.ranking))
        said.append(f"Trick {new.tricks_done} judged: {order}")
    if old.phase == hp.HINODE_PHASE_PICK_RESOURCE and len(new.history) == len(old.history):
        for p_old, p_new in zip(old.positions, new.positions, strict=True):
            if p_new.position == skip_seat:
                continue
            for colour in ("red", "blue", "yellow"):
                if getattr(p_new.resources, colour) > getattr(p_old.resources, colour):
                    said.append(f"{name(p_new.position)} got a {colour} resource")
    return said


# --- a small screen ---------------------------------------------------------------------------------------------

COMPACT_CELL = 18


def _status(state: pb.GameState, view: hp.HinodeView) -> str:
    if view.phase == hp.HINODE_PHASE_OVER:
        return "The game is over."
    trick = min(view.tricks_done + 1, TRICKS)
    where = ""
    if view.HasField("battlefield"):
        a = view.areas[view.battlefield]
        colour = COLOURS.get(view.battlefield_colour or a.nawabari.colour, "?")
        where = f" on *r{a.row}c{a.column} ({colour})"
    actor = ""
    if view.HasField("actor"):
        who = "you" if view.HasField("seat") and view.seat == view.actor else position_name(state, view, view.actor)
        actor = f"; P{view.actor + 1} {who}: {PHASES[view.phase]}"
    mode = "advanced" if view.advanced else "basic"
    return f"Trick {trick}/{TRICKS}{where}, start P{view.start_player + 1}{actor} ({mode})"


def compact(state: pb.GameState, style: Style, width: int = 80) -> list[str]:
    """The town in two lines per row, a line per position, the table and your hand: 14 lines of 80 columns."""
    view = unpack(state)
    bonus = COLOURS[view.bonus_area.nawabari.colour]
    lines = [clip(style.paint("Hinode", "bold") + "  " + _status(state, view), width),
             # "col": "column 4" and "Bonus yellow" after three 18-column cells were 82 columns
             "      " + "".join(f"col {c + 1}".ljust(COMPACT_CELL) for c in range(COLS - 1))
             + f"col {COLS}".ljust(7) + f"Bonus {bonus}"]
    for row in range(ROWS):
        heads, marks = [], []
        for col in range(COLS):
            index = row * COLS + col
            area = view.areas[index]
            battle = view.HasField("battlefield") and view.battlefield == index
            n = area.nawabari
            colour = COLOURS[n.colour]
            head = f"{'*' if battle else ''}{colour} {n.first_place_vp}/{n.second_place_vp}VP"
            heads.append(style.paint(head.ljust(COMPACT_CELL), *(("bold", colour) if battle else (colour,))))
            first = f"P{area.first_place + 1}" if area.HasField("first_place") else "-"
            second = f"P{area.second_place + 1}" if area.HasField("second_place") else "-"
            r = area.resources
            marks.append(f"r{r.red} b{r.blue} y{r.yellow} {first}/{second}".ljust(COMPACT_CELL))
        lines.append(f"  r{row + 1}  " + "".join(heads).rstrip())
        lines.append("      " + "".join(marks).rstrip())
    for p in view.positions:
        you = " (you)" if view.HasField("seat") and view.seat == p.position else ""
        hero = "Hero" if p.hero_available else "no Hero"
        lines.append(f"  P{p.position + 1} {(position_name(state, view, p.position) + you)[:20].ljust(20)} "
                     f"{TRIBES.get(p.tribe, 'no tribe yet').ljust(17)} {p.hand_size} cards  {hero.ljust(7)}  "
                     f"{_resources(p.resources)}")
    if view.trick:
        plays = [f"P{p.position + 1} {play_text(state, view, p.play)} ({p.power}{', follows' if p.follow else ''})"
                 for p in view.trick]
        lines.append(clip("  On the table: " + "; ".join(plays), width))
    elif view.ranking:
        order = ", ".join(f"{PLACES[min(i, 3)]} P{p + 1}" for i, p in enumerate(view.ranking))
        lines.append(f"  Last trick: {order}")
    if view.HasField("seat"):
        lines.append(clip(_hand(view, style), width))
    return lines




def legend(state: pb.GameState) -> list[str]:
    """What the board's words and abbreviations mean."""
    return [
        "Legend (Top of the Hinode Town):",
        "  P1..P4      the four positions, clockwise; P1 is seat 1; 'proxy N' is a",
        "              position no player holds",
        "  red 6/3VP   an Area: its colour, then the VP for 1st / 2nd place there",
        "              (negative VP: a penalty); * marks this trick's Battlefield",
        "  r1..r3      the town's rows (top to bottom); columns 1..4 left to right;",
        "              *r1c3 is the Area at row 1, column 3",
        "  r2 b1 y0    resources: red, blue and yellow, left on an Area or held",
        "  P3/P1       an Area's markers: P3 holds its 1st place, P1 its 2nd; - none",
        "  red 5       a battle card, its colour and number; Hero: the Hero card",
        "  (9)         on the table: the power of the card played; 'follows': it",
        "              follows the colour of the trick",
        "  Bonus       Areas of the Bonus Area's colour score a bonus at the end",
        "  Hero        the position's Hero card is still in front of it (else: no Hero)",
    ]


def group(state: pb.GameState, move: pb.LegalMove) -> str:
    """A long list is grouped by card played (and skill used), else by action."""
    typed = hp.HinodeMove()
    if not move.move.Unpack(typed):
        return ""
    kind = typed.WhichOneof("kind")
    if kind == "play_card":
        play = typed.play_card
        if play.skill and _skill_plays(state, play) > 2:
            return f"Play the {card_name(play.card)}, skill"
        return f"Play the {card_name(play.card)}"
    return {"choose_tribe": "Choose a tribe", "choose_area": "Choose the Battlefield",
            "take_resource": "Take a resource"}.get(kind, "")


def _skill_plays(state: pb.GameState, play: hp.HinodePlayCard) -> int:
    """How many legal moves play this card with a skill."""
    count = 0
    for move in state.legal_moves:
        typed = hp.HinodeMove()
        if move.move.Unpack(typed) and typed.WhichOneof("kind") == "play_card":
            other = typed.play_card
            count += other.card == play.card and bool(other.skill)
    return count
