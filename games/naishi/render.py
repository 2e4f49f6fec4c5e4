"""Naishi from its typed view (tabletop.v1.NaishiView): the River, each territory (Line above Hand), the Imperial
Court, what the viewer knows of the hidden Hands, and what changed between two views.

It reads only the public message, as any frontend would: card names come from the NaishiCard enum's own names.
Positions count from 1, left to right, as the rulebook does.
"""

from __future__ import annotations

from tabletop.terminal.screen import clip
from tabletop.terminal.style import Style
from tabletop.terminal.table import STATUS
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import naishi_pb2 as np

WIDTH = 11
COURT_KINDS = {np.NAISHI_COURT_KIND_SWITCH: "switch", np.NAISHI_COURT_KIND_DISCARD: "discard",
               np.NAISHI_COURT_KIND_DECREE: "decree"}


def card_name(card: int) -> str:
    """'Rice field' for NAISHI_CARD_RICE_FIELD; '?' for a card not known."""
    if card == np.NAISHI_CARD_UNSPECIFIED or card not in np.NaishiCard.values():
        return "?"
    return np.NaishiCard.Name(card).removeprefix("NAISHI_CARD_").replace("_", " ").capitalize()


def a_card(card: int) -> str:
    """'a Fort', 'an Advisor'."""
    name = card_name(card)
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def naishi_view(state: pb.GameState) -> np.NaishiView | None:
    view = np.NaishiView()
    return view if state.HasField("view") and state.view.Unpack(view) else None


def seat_name(state: pb.GameState, seat: int) -> str:
    for info in state.seats:
        if info.seat == seat and info.name:
            return info.name
    return f"seat {seat + 1}"


def space_names(view: np.NaishiView) -> list[str]:
    """'switch 1', 'switch 2', ..., 'decree': each Court space by its kind, numbered within the kind."""
    names, seen = [], {}
    for space in view.court:
        kind = COURT_KINDS.get(space.kind, "?")
        seen[kind] = seen.get(kind, 0) + 1
        names.append(kind if kind == "decree" else f"{kind} {seen[kind]}")
    return names


def _emissary(space: np.NaishiCourtSpace) -> int | None:
    return space.emissary if space.HasField("emissary") else None


def _row(cards, empty: str = "?") -> str:
    return " ".join((card_name(c) if c else empty)[:WIDTH].ljust(WIDTH) for c in cards).rstrip()


def _knowledge(view: np.NaishiView, owner: int) -> np.NaishiHandKnowledge | None:
    """What the viewer knows of `owner`'s hidden Hand: a seat its own knowledge, a spectator the public one."""
    territory = view.territories[owner]
    if view.HasField("seat"):
        return territory.known_to_opponent if territory.HasField("known_to_opponent") else None
    return territory.known_to_everyone


def render(state: pb.GameState, style: Style) -> list[str]:
    view = naishi_view(state)
    lines = [style.paint(f"Naishi  game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}"]
    if view is None:
        return [*lines, "  (no Naishi view to show)"]
    seat = view.seat if view.HasField("seat") else None
    name = lambda s: seat_name(state, s)  # noqa: E731
    if view.phase == np.NAISHI_PHASE_GIFT:
        lines.append("  Setup: each player gives one of their 2 development cards to the opponent (secretly).")
        if view.offer:
            lines.append(f"  Your 2 cards: {', '.join(card_name(c) for c in view.offer)}")
        if view.gift_given:
            lines.append(f"  You give: {card_name(view.gift_given)}")
        chosen = [name(t.seat) for t in view.territories if t.gift_chosen]
        lines.append(f"  Gifts chosen: {', '.join(chosen) or 'none yet'}")
    elif view.phase == np.NAISHI_PHASE_OVER:
        lines.append("  The game is over; both Hands are revealed.")
    else:
        notes = []
        if view.developed:
            notes.append("has developed")
        if view.court_used:
            notes.append("has used the Court")
        if view.HasField("final_turn"):
            notes.append(f"final turn: {name(view.final_turn)}")
        extra = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"  Turn: {name(view.turn)}{extra}; first player {name(view.first_player)}")
    lines.append("  River:     " + _row([pile.top for pile in view.river], "(empty)").ljust(WIDTH * 5 + 4)
                 + "   piles: " + " ".join(str(pile.size) for pile in view.river))
    lines.append("  position   " + " ".join(str(i).ljust(WIDTH) for i in range(1, 6)).rstrip())
    for territory in view.territories:
        you = " (you)" if territory.seat == seat else ""
        lines.append(style.paint(f"  {name(territory.seat)}{you}", "bold"))
        lines.append("    Line:    " + _row(territory.line))
        if view.phase == np.NAISHI_PHASE_GIFT:
            lines.append("    Hand:    (3 Mountains, the card kept and the card received, shuffled once both gifts"
                         " are in)")
        elif territory.hand:
            lines.append("    Hand:    " + _row(territory.hand))
        else:
            known = _knowledge(view, territory.seat)
            lines.append("    Hand:    " + _row(known.places if known and known.places else [0] * 5))
            if known and known.among:
                lines.append(f"             (among the ?: {', '.join(card_name(c) for c in known.among)})")
    court = [f"{label}: {name(who) if (who := _emissary(space)) is not None else '-'}"
             for label, space in zip(space_names(view), view.court, strict=True)]
    lines.append("  Imperial Court: " + ", ".join(court))
    if view.gift_received:
        lines.append(f"  You gave {card_name(view.gift_given)} and received {card_name(view.gift_received)}")
    top = f" (last: {card_name(view.discard[-1])})" if view.discard else ""
    lines.append(f"  Discard pile: {len(view.discard)} cards{top}")
    return lines


def changes(before: pb.GameState, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """What happened between two views of one watcher, worked out from the views (the moves' labels travel in
    the events): gifts, Emissaries sent and recalled, developments, the end triggered. What `skip_seat` did
    itself is left out."""
    old, new = naishi_view(before), naishi_view(after)
    if old is None or new is None or len(old.territories) != 2 or len(new.territories) != 2:
        return []
    return _Changes(after, old, new, skip_seat).said


class _Changes:
    """One comparison of two views; `said` holds the sentences, in the order things happen in a turn."""

    def __init__(self, state: pb.GameState, old: np.NaishiView, new: np.NaishiView, skip_seat: int | None):
        self.state, self.old, self.new, self.skip = state, old, new, skip_seat
        self.said: list[str] = []
        self.acted: set[int] = set()
        grew = list(new.discard[: len(old.discard)]) == list(old.discard)
        self.discarded = list(new.discard[len(old.discard):]) if grew else []
        self.shrunk = [p for p, (a, b) in enumerate(zip(old.river, new.river, strict=False)) if b.size < a.size]
        self._gifts()
        placed = [(i, _emissary(b)) for i, (a, b) in enumerate(zip(old.court, new.court, strict=False))
                  if _emissary(a) is None and _emissary(b) is not None]
        for space, seat in placed:
            kind = new.court[space].kind
            if kind == np.NAISHI_COURT_KIND_DISCARD:
                self._discard_river(seat)
            elif kind == np.NAISHI_COURT_KIND_SWITCH:
                self._switch(seat)
            elif kind == np.NAISHI_COURT_KIND_DECREE:
                self._decree(seat)
        self._recalls()
        for pile in list(self.shrunk):
            self._develop(pile)
        self._end()

    def name(self, seat: int) -> str:
        return seat_name(self.state, seat)

    def say(self, seat: int | None, sentence: str) -> None:
        if seat is not None:
            self.acted.add(seat)
        if seat is None or seat != self.skip:
            self.said.append(sentence)

    # --- setup ---

    def _gifts(self) -> None:
        old, new = self.old, self.new
        if old.phase != np.NAISHI_PHASE_GIFT:
            return
        for before, after in zip(old.territories, new.territories, strict=True):
            if after.gift_chosen and not before.gift_chosen:
                self.say(after.seat, f"{self.name(after.seat)} chose the card to give")
        if new.phase != np.NAISHI_PHASE_GIFT:
            self.say(None, "Both gifts are in: each Hand gets its 3 Mountains and is shuffled")
            if new.gift_received:
                self.say(None, f"You received {a_card(new.gift_received)} "
                               f"(you gave {a_card(new.gift_given)})")
            self.say(None, f"The first player is {self.name(new.turn)}")

    # --- the Court ---

    def _discard_river(self, seat: int) -> None:
        old = self.old
        piles = [p for p in self.shrunk if old.river[p].top in self.discarded][:2]
        for p in piles:
            self.shrunk.remove(p)
            self.discarded.remove(old.river[p].top)
        what = " and ".join(f"the {card_name(old.river[p].top)} of pile {p + 1}" for p in piles)
        self.say(seat, f"{self.name(seat)} sent an Emissary to discard 2 River cards: {what or 'two cards'}"
                       + self._revealed(piles))

    def _switch(self, seat: int) -> None:
        old, new = self.old, self.new
        who = self.name(seat)
        tops = [p for p, (a, b) in enumerate(zip(old.river, new.river, strict=True))
                if a.size == b.size and a.top != b.top]
        if len(tops) == 2:
            a, b = tops
            self.say(seat, f"{who} sent an Emissary to switch River cards {a + 1} and {b + 1} "
                           f"(now {card_name(new.river[a].top)} and {card_name(new.river[b].top)})")
            return
        line = [p for p, (a, b) in enumerate(zip(old.territories[seat].line, new.territories[seat].line,
                                                 strict=True)) if a != b and p not in self.shrunk]
        if len(line) == 2:
            a, b = line
            self.say(seat, f"{who} sent an Emissary to switch Line cards {a + 1} and {b + 1}")
        elif len(line) == 1:
            p = line[0]
            self.say(seat, f"{who} sent an Emissary to switch their Hand and Line cards in position {p + 1}: the "
                           f"{card_name(new.territories[seat].line[p])} came up into the Line, the "
                           f"{card_name(old.territories[seat].line[p])} went into the Hand")
        else:
            self.say(seat, f"{who} sent an Emissary to switch 2 of their cards (hidden in their Hand, or alike)")

    def _decree(self, seat: int) -> None:
        old, new = self.old, self.new
        who = self.name(seat)
        lines = [p for p in range(5) if any(a.line[p] != b.line[p]
                                            for a, b in zip(old.territories, new.territories, strict=True))]
        if lines:
            p = lines[0]
            got = ", ".join(f"{self.name(t.seat)} now has the {card_name(t.line[p])}" for t in new.territories)
            self.say(seat, f"{who} imposed the Imperial Decree: the Lines' cards in position {p + 1} are "
                           f"exchanged ({got})")
            return
        place = next((p for p in range(5) if self._hand_seen(old, p) != self._hand_seen(new, p)), None)
        if place is None:
            self.say(seat, f"{who} imposed the Imperial Decree (the cards exchanged are hidden or alike)")
        else:
            self.say(seat, f"{who} imposed the Imperial Decree: the Hands' cards in position {place + 1} are "
                           "exchanged")

    @staticmethod
    def _hand_seen(view: np.NaishiView, p: int) -> tuple[int, ...]:
        """Everything this view shows of place `p` of both Hands (own cards and what is known of the others)."""
        seen = []
        for t in view.territories:
            seen.append(t.hand[p] if len(t.hand) > p else 0)
            for known in (t.known_to_opponent, t.known_to_everyone):
                seen.append(known.places[p] if len(known.places) > p else 0)
        return tuple(seen)

    def _recalls(self) -> None:
        names = space_names(self.old)
        for seat in (0, 1):
            spaces = [names[i] for i, (a, b) in enumerate(zip(self.old.court, self.new.court, strict=False))
                      if _emissary(a) == seat and _emissary(b) is None]
            if spaces:
                emissaries = "Emissaries" if len(spaces) > 1 else "Emissary"
                self.say(seat, f"{self.name(seat)} recalled their {emissaries} from {' and '.join(spaces)}")

    # --- developing ---

    def _develop(self, p: int) -> None:
        old, new = self.old, self.new
        taken = old.river[p].top
        discarded = self.discarded.pop(0) if self.discarded else 0
        seat, row = old.turn, "Hand or Line"
        for t_old, t_new in zip(old.territories, new.territories, strict=True):
            if t_old.line[p] != t_new.line[p]:
                seat, row = t_new.seat, "Line"
                break
            if self._hand_place(t_old, p) != self._hand_place(t_new, p):
                seat, row = t_new.seat, "Hand"
                break
        own = "their " if row != "Hand or Line" else ""
        what = f", discarding the {card_name(discarded)} from {own}{row}" if discarded else ""
        self.say(seat, f"{self.name(seat)} developed: took the {card_name(taken)} of River pile {p + 1} into "
                       f"{own}{row}{what}" + self._revealed([p]))

    @staticmethod
    def _hand_place(t: np.NaishiTerritory, p: int) -> tuple[int, ...]:
        return tuple(cards[p] if len(cards) > p else 0
                     for cards in (t.hand, t.known_to_opponent.places, t.known_to_everyone.places))

    def _revealed(self, piles: list[int]) -> str:
        shown = [f"pile {p + 1} shows {a_card(self.new.river[p].top)}" if self.new.river[p].size
                 else f"pile {p + 1} is empty" for p in piles]
        return f"; {', '.join(shown)}" if shown else ""

    # --- the end ---

    def _end(self) -> None:
        old, new = self.old, self.new
        if new.HasField("declared_by") and not old.HasField("declared_by"):
            self.say(new.declared_by, f"{self.name(new.declared_by)} declared the end of the game: "
                                      f"{self.name(1 - new.declared_by)} plays a final turn")
        elif new.HasField("final_turn") and not old.HasField("final_turn"):
            self.say(None, f"Two River piles are empty: {self.name(new.final_turn)} plays a final turn")
        passed = old.phase == np.NAISHI_PHASE_TURN and (new.turn != old.turn or new.phase != old.phase)
        if passed and old.turn not in self.acted:
            self.say(old.turn, f"{self.name(old.turn)} ended their turn")
        if new.phase == np.NAISHI_PHASE_OVER and old.phase != np.NAISHI_PHASE_OVER:
            self.say(None, "The game is over: both Hands are revealed")


# --- a small screen ---------------------------------------------------------------------------------------------

LABEL, CELL = 10, 14


def _cells(texts: list[str]) -> str:
    return "".join(t[:CELL - 1].ljust(CELL) for t in texts).rstrip()


def _status(state: pb.GameState, view: np.NaishiView) -> str:
    name = lambda s: seat_name(state, s)  # noqa: E731
    if view.phase == np.NAISHI_PHASE_GIFT:
        chosen = [name(t.seat) for t in view.territories if t.gift_chosen]
        mine = f"your 2 cards: {', '.join(card_name(c) for c in view.offer)}; " if view.offer else ""
        given = f"you give the {card_name(view.gift_given)}; " if view.gift_given else ""
        return f"Setup, each gives a card: {mine}{given}chosen: {', '.join(chosen) or 'none yet'}"
    if view.phase == np.NAISHI_PHASE_OVER:
        return "The game is over; both Hands are revealed"
    notes = []
    if view.developed:
        notes.append("has developed")
    if view.court_used:
        notes.append("has used the Court")
    if view.HasField("final_turn"):
        notes.append(f"final turn: {name(view.final_turn)}")
    extra = f" ({', '.join(notes)})" if notes else ""
    return f"Turn: {name(view.turn)}{extra}; first player {name(view.first_player)}"


def compact(state: pb.GameState, style: Style, width: int = 80) -> list[str]:
    """The River with its piles' sizes, each territory (Line above Hand), the Court and the discard pile in 12
    lines of 80 columns."""
    view = naishi_view(state)
    head = style.paint("Naishi", "bold")
    if view is None:
        return [head, "  (no Naishi view to show)"]
    seat = view.seat if view.HasField("seat") else None
    name = lambda s: seat_name(state, s)  # noqa: E731
    lines = [clip(f"{head}  {_status(state, view)}", width),
             " " * LABEL + _cells([str(i) for i in range(1, 6)]),
             "  River".ljust(LABEL) + _cells([f"{card_name(p.top)} x{p.size}" if p.size else "(empty)"
                                             for p in view.river])]
    for territory in view.territories:
        you = " (you)" if territory.seat == seat else ""
        lines.append(style.paint(f"  {name(territory.seat)}{you}"[:width], "bold"))
        lines.append("    Line".ljust(LABEL) + _cells([card_name(c) for c in territory.line]))
        if view.phase == np.NAISHI_PHASE_GIFT:
            lines.append("    Hand".ljust(LABEL) + "(3 Mountains + the card kept + the card received, shuffled)")
        elif territory.hand:
            lines.append("    Hand".ljust(LABEL) + _cells([card_name(c) for c in territory.hand]))
        else:
            known = _knowledge(view, territory.seat)
            places = known.places if known and known.places else [0] * 5
            lines.append("    Hand".ljust(LABEL) + _cells([card_name(c) for c in places]))
            if known and known.among:
                lines.append(clip(" " * LABEL + f"(among the ?: {', '.join(card_name(c) for c in known.among)})",
                                  width))
    names = space_names(view)
    court = [f"{label} {name(who) if (who := _emissary(space)) is not None else '-'}"
             for label, space in zip(names, view.court, strict=True)]
    lines.append(clip("  Court: " + ", ".join(court), width))
    tail = f"  Discard pile: {len(view.discard)}" + (f" (last: {card_name(view.discard[-1])})" if view.discard else "")
    if view.gift_received:
        tail += f"; you gave the {card_name(view.gift_given)}, received the {card_name(view.gift_received)}"
    lines.append(clip(tail, width))
    return lines


def legend(state: pb.GameState) -> list[str]:
    """What the board's words and abbreviations mean."""
    return [
        "Legend (Naishi):",
        "  1..5        positions, left to right, as the rulebook counts them",
        "  River       the top card of each of the 5 River piles; x4: 4 cards in the pile",
        "  Line        a territory's face-up row; Hand: its row of hidden cards",
        "  ?           a card you do not know; '(among the ?: ...)' lists the cards you",
        "              know are somewhere among those",
        "  Court       the Imperial Court's spaces (switch 1-3, discard 1-2, decree)",
        "              and whose Emissary is on each; - for an empty space",
        "  Discard     the discard pile: how many cards, and the last one",
        "  Moves       develop: take River card N into position N of your Hand or Line,",
        "              discarding the card there; an Emissary to the Court switches or",
        "              discards cards, the Decree exchanges both players' cards",
    ]


SWITCHES = {np.NAISHI_SWITCH_KIND_RIVER: "Switch River cards", np.NAISHI_SWITCH_KIND_LINE: "Switch Line cards",
            np.NAISHI_SWITCH_KIND_HAND: "Switch Hand cards", np.NAISHI_SWITCH_KIND_COLUMN: "Switch Hand and Line"}


def group(state: pb.GameState, move: pb.LegalMove) -> str:
    """A long list is grouped by action (a switch by what it switches)."""
    typed = np.NaishiMove()
    if not move.move.Unpack(typed):
        return ""
    kind = typed.WhichOneof("kind")
    if kind == "switch_cards":
        return SWITCHES.get(typed.switch_cards.kind, "Switch")
    return {"give": "Give a card", "develop": "Develop", "discard_river": "Discard River cards",
            "decree": "Impose the Decree", "recall": "Recall Emissaries"}.get(kind, "")
