"""Zipang Portable from its typed view (tabletop.v1.ZipangView): the coin area, the discard pile, each seat's coins
and cards, your hand, the hands you have seen, the pending decision, and what changed between two views.

It reads only the public message, as any frontend would: card names come from the ZipangCard enum's own names,
card values from the view's card_types.
"""

from __future__ import annotations

from collections import Counter

from tabletop.terminal.screen import clip, wrap
from tabletop.terminal.style import Style
from tabletop.terminal.table import STATUS
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import zipang_pb2 as zp

NAME_WIDTH = 14
TAKES_A_COIN = {zp.ZIPANG_CARD_BANDIT: "steals 1 coin from", zp.ZIPANG_CARD_PRINCESS: "takes 1 coin from"}


def zipang_view(state: pb.GameState) -> zp.ZipangView | None:
    view = zp.ZipangView()
    return view if state.HasField("view") and state.view.Unpack(view) else None


def card_name(card: int) -> str:
    """'Shrine Maiden' for ZIPANG_CARD_SHRINE_MAIDEN; '?' for a value this client does not know."""
    if card == zp.ZIPANG_CARD_UNSPECIFIED or card not in zp.ZipangCard.values():
        return "?"
    return zp.ZipangCard.Name(card).removeprefix("ZIPANG_CARD_").replace("_", " ").title()


def card_list(cards) -> str:
    return ", ".join(card_name(c) for c in cards) or "none"


def seat_name(state: pb.GameState, seat: int) -> str:
    for info in state.seats:
        if info.seat == seat and info.name:
            return info.name
    return f"seat {seat + 1}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _viewer(view: zp.ZipangView) -> int | None:
    return view.seat if view.HasField("seat") else None


def _points(view: zp.ZipangView, card: int) -> tuple[int, int]:
    """(BTL, HNR) of a card in this game."""
    for t in view.card_types:
        if t.card == card:
            return t.battle_points, t.honor_points
    return 0, 0


def _monk_may_be_held(view: zp.ZipangView) -> bool:
    """Publicly, a Monk may still be in a hand: not every copy lies face up in the discard pile."""
    copies = next((t.copies for t in view.card_types if t.card == zp.ZIPANG_CARD_MONK), 0)
    return list(view.discard).count(zp.ZIPANG_CARD_MONK) < copies


def _effect_name(state: pb.GameState, card: int, ikki: bool, user: int) -> str:
    """"Bob's Warlord", "Bob's Ikki"."""
    return f"{seat_name(state, user)}'s {'Ikki' if ikki else card_name(card)}"


def decision(state: pb.GameState, view: zp.ZipangView) -> str:
    """The out-of-turn decision pending in the react phase, told to the viewer: "Bob attacks you with the Warlord
    (BTL 6): block it with a coin, cancel it with your Monk, or defend with your hand (BTL 4)"."""
    r = view.reaction
    you = _viewer(view) == r.seat
    who, by = ("you" if you else seat_name(state, r.seat)), seat_name(state, r.from_seat)
    if r.attack_strength:
        what = "an Ikki" if r.ikki else f"the {card_name(r.card)}"
        head = f"{by} attacks {who} with {what} (BTL {r.attack_strength})"
    elif r.card in TAKES_A_COIN:
        head = f"{by}'s {card_name(r.card)} {TAKES_A_COIN[r.card]} {who}"
    elif r.card == zp.ZIPANG_CARD_MERCHANT:
        head = f"{by}'s Merchant makes {who} put 1 coin into the coin area"
    elif r.card == zp.ZIPANG_CARD_SHRINE_MAIDEN:
        head = f"{by}'s Shrine Maiden looks at {'your' if you else who + chr(39) + 's'} hand"
    else:
        head = f"{by}'s {card_name(r.card)} reaches {who}"
    options = []
    if r.coin_block_allowed:
        options.append("block it with a coin")
    if you and r.monk_allowed:
        options.append("cancel it with your Monk")
    elif not you and _monk_may_be_held(view):
        options.append("cancel it with a Monk if they hold one")
    if r.attack_strength:
        options.append(f"defend with {'your hand (BTL ' + str(r.defence) + ')' if you else 'their hand'}")
    else:
        options.append("let it happen")
    if len(options) == 1:
        return f"{head}: {'you' if you else who} can only {options[0]}"
    return f"{head}: {'you' if you else who} may {', '.join(options[:-1])} or {options[-1]}"


def _status(state: pb.GameState, view: zp.ZipangView) -> str:
    name = lambda s: seat_name(state, s)  # noqa: E731
    viewer = _viewer(view)
    if view.phase == zp.ZIPANG_PHASE_OVER:
        return "The game is over."
    if view.phase == zp.ZIPANG_PHASE_REACT:
        return decision(state, view)
    e, turn = view.effect, name(view.active)
    if view.phase == zp.ZIPANG_PHASE_TAKE and e.HasField("looked_at"):
        return (f"{turn} looked at {name(e.looked_at)}'s hand with the Shrine Maiden and takes a card from it "
                "(or none)")
    if view.phase == zp.ZIPANG_PHASE_USE:
        if e.taken_card:
            return f"{turn} uses the {card_name(e.taken_card)} they took, at once"
        return f"{turn} uses a card of the discard pile with the Kabuki: {card_list(e.usable)}"
    return f"{'Your' if viewer == view.active else turn + chr(39) + 's'} turn: play a card"


def _player_line(state: pb.GameState, view: zp.ZipangView, p: zp.ZipangPlayer, style: Style) -> str:
    viewer = _viewer(view)
    name = seat_name(state, p.seat) + (" (you)" if p.seat == viewer else "")
    cards = _plural(p.hand_size, "card") if p.in_battle else "out of the battle"
    marks = []
    if p.seat == view.active and view.phase != zp.ZIPANG_PHASE_OVER:
        marks.append("on turn")
    if p.in_battle and not p.had_turn:
        marks.append("no turn yet")
    if p.known_cards:
        marks.append(f"you know: {card_list(p.known_cards)}")
    if p.knows_of_your_hand:
        marks.append(f"knows your {card_list(p.knows_of_your_hand)}")
    line = f"    {name[:NAME_WIDTH + 6].ljust(NAME_WIDTH + 6)} {_plural(p.coins, 'coin').ljust(8)} {cards.ljust(17)}"
    text = (line + "  " + "; ".join(marks)).rstrip()
    return style.paint(text, "dim") if not p.in_battle else text


def _hand(view: zp.ZipangView, style: Style) -> str:
    cards = []
    for c in view.hand:
        btl, hnr = _points(view, c)
        cards.append(f"{style.paint(card_name(c), 'bold')} {btl}/{hnr}")
    if not cards:
        return "  Your hand: (none)"
    defence = sum(_points(view, c)[0] for c in view.hand)
    honour = sum(_points(view, c)[1] for c in view.hand)
    return f"  Your hand: {', '.join(cards)}; defence {defence}, honour {honour}"


def render(state: pb.GameState, style: Style) -> list[str]:
    view = zipang_view(state)
    lines = [style.paint(f"Zipang Portable  game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}"]
    if view is None:
        return [*lines, "  (no Zipang view to show)"]
    name = lambda s: seat_name(state, s)  # noqa: E731
    if view.phase != zp.ZIPANG_PHASE_OVER:
        lines.append(f"  Battle {view.battle}, started by {name(view.battle_starter)}")
    lines.append("  " + style.paint(_status(state, view), "yellow"))
    lines.append(f"  Coin area: {_plural(view.coin_area, 'coin')}   draw pile: {_plural(view.draw_pile_size, 'card')}")
    face_down = f" (+{view.face_down_discards} face down)" if view.face_down_discards else ""
    lines.append(f"  Discard pile{face_down}: {card_list(view.discard) if view.discard else 'no face-up card'}")
    lines.append("  Players:")
    lines += [_player_line(state, view, p, style) for p in view.players]
    if view.HasField("seat"):
        lines.append(_hand(view, style))
    if view.battle_results:
        results = [f"{r.battle}. {name(r.winner) if r.HasField('winner') else 'tie'}" for r in view.battle_results]
        lines.append("  Battles won: " + "  ".join(results))
    if view.phase == zp.ZIPANG_PHASE_OVER:
        order = sorted(view.players, key=lambda p: -p.coins)
        lines.append("  Coins: " + ", ".join(f"{name(p.seat)} {p.coins}" for p in order))
    values = [f"{card_name(t.card)} {t.battle_points}/{t.honor_points} x{t.copies}" for t in view.card_types]
    lines.append(style.paint("  Cards (BTL/HNR, copies): " + ", ".join(values), "dim"))
    return lines


def changes(before: pb.GameState, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """What happened between two views of one watcher, worked out from the views: the card played, used or taken,
    the answer to an effect, hands shown, coins moving, exclusions, battle ends and the next decision. The move of
    `skip_seat` itself is left out (its label tells it), not its consequences."""
    old, new = zipang_view(before), zipang_view(after)
    if old is None or new is None or len(old.players) != len(new.players) or not old.players:
        return []
    return _Changes(after, old, new, skip_seat).said


class _Changes:
    """One comparison of two views; `said` holds the sentences in the order things happen."""

    def __init__(self, state: pb.GameState, old: zp.ZipangView, new: zp.ZipangView, skip_seat: int | None):
        self.state, self.old, self.new, self.skip = state, old, new, skip_seat
        self.said: list[str] = []
        # The discard pile and who is in the battle carry on while the battle number stays (the game may end
        # within it); coins also move with a battle's end.
        self.same_battle = new.battle == old.battle
        self.battle_ended = len(new.battle_results) > len(old.battle_results)
        kept = list(new.discard[: len(old.discard)]) == list(old.discard)
        self.appended = list(new.discard[len(old.discard):]) if self.same_battle and kept else []
        self.explained: Counter[int | None] = Counter()  # coin moves a move sentence told (None: the coin area)
        self.told_out: set[int] = set()
        mover = old.actor if old.HasField("actor") else None
        if mover is not None:
            sentence = self._move(mover)
            if sentence and mover != skip_seat:
                self.said.append(sentence)
        if self.same_battle:
            self._exclusions()
        self._hands_shown()
        self._coins()
        self._battle_ends()
        self._next_decision()

    def name(self, seat: int) -> str:
        return seat_name(self.state, seat)

    # --- the move ---

    def _move(self, mover: int) -> str:
        phase = self.old.phase
        if phase == zp.ZIPANG_PHASE_PLAY:
            return self._played(mover)
        if phase == zp.ZIPANG_PHASE_REACT:
            return self._answered(mover)
        if phase == zp.ZIPANG_PHASE_TAKE:
            return self._took(mover)
        if phase == zp.ZIPANG_PHASE_USE:
            return self._used(mover)
        return ""

    def _played(self, mover: int) -> str:
        who, added = self.name(mover), self.appended
        if not added:
            return f"{who} played a card" + ("" if self.same_battle else ", and the battle ended")
        if added[:2] == [zp.ZIPANG_CARD_PEASANT] * 2:
            return f"{who} played 2 Peasants: an Ikki (BTL 5) attacking every other player in the battle"
        return f"{who} played the {card_name(added[0])}{self._aim(mover, added[0])}"

    def _aim(self, user: int, card: int) -> str:
        """What a card just played or used does, as far as the views tell."""
        new = self.new
        if card == zp.ZIPANG_CARD_PEASANT:
            return " (alone, no effect)"
        if card == zp.ZIPANG_CARD_MONK:
            return " (on one's own turn, nothing happens)"
        if card == zp.ZIPANG_CARD_MERCHANT:
            return ": every player puts 1 coin into the coin area"
        if card == zp.ZIPANG_CARD_PRINCESS:
            return ": 1 coin from every other player"
        if card == zp.ZIPANG_CARD_EMPEROR:
            return ": the battle ends and honour decides it"
        effect = new.effect
        if new.HasField("effect") and effect.user == user and effect.card == card and effect.targets:
            if effect.attack_strength:
                return f", attacking with BTL {effect.attack_strength}"
        return ""

    def _answered(self, mover: int) -> str:
        old, new = self.old, self.new
        e = old.effect
        who, what = self.name(mover), _effect_name(self.state, e.card, e.ikki, e.user)
        if not self.same_battle:
            return f"{who} answered {what}"
        coins_lost = old.players[mover].coins - new.players[mover].coins
        still_in = new.players[mover].in_battle
        if self.appended[:1] == [zp.ZIPANG_CARD_MONK] and still_in:
            return f"{who} cancelled {what} with a Monk"
        if e.attack_strength and coins_lost == 1 and still_in and not self.battle_ended:
            self.explained[mover] -= 1
            self.explained[None] += 1
            return f"{who} blocked {what} with a coin (into the coin area)"
        if e.attack_strength:
            if still_in:
                return f"{who} defended against {what} (BTL {e.attack_strength}): their hand held"
            self.told_out.add(mover)
            lost = self.appended[: old.players[mover].hand_size]
            return (f"{who} defended against {what} (BTL {e.attack_strength}) and lost: out of the battle, "
                    f"discarding {card_list(lost)}")
        if e.card == zp.ZIPANG_CARD_SHRINE_MAIDEN:
            return f"{who} let {what} look at their hand"
        return f"{who} let {what} take effect"

    def _took(self, mover: int) -> str:
        old, new = self.old, self.new
        victim = self.name(old.effect.looked_at) if old.effect.HasField("looked_at") else "the hand looked at"
        taken = new.effect.taken_card if new.phase == zp.ZIPANG_PHASE_USE and new.HasField("effect") else 0
        if taken:
            return f"{self.name(mover)} took the {card_name(taken)} from {victim}, to use it at once"
        return f"{self.name(mover)} took no card from {victim}"

    def _used(self, mover: int) -> str:
        old, new = self.old, self.new
        e = old.effect
        who = self.name(mover)
        if e.taken_card:
            return f"{who} used the {card_name(e.taken_card)} they took{self._aim(mover, e.taken_card)}"
        card = 0
        if self.same_battle and len(new.discard) >= len(old.discard) > 0:
            card = new.discard[len(old.discard) - 1]  # the Kabuki's choice goes back on top of the discard pile
        elif len(e.usable) == 1:
            card = e.usable[0]
        if not card:
            return f"{who} used a card of the discard pile with the Kabuki"
        if card == zp.ZIPANG_CARD_PEASANT and new.discard[len(old.discard):][:1] == [zp.ZIPANG_CARD_PEASANT]:
            return f"{who} used a Peasant of the discard pile with a Peasant from their hand: an Ikki (BTL 5)"
        return f"{who} used the {card_name(card)} of the discard pile{self._aim(mover, card)}"

    # --- consequences ---

    def _exclusions(self) -> None:
        for a, b in zip(self.old.players, self.new.players, strict=True):
            if a.in_battle and not b.in_battle and b.seat not in self.told_out:
                self.said.append(f"{self.name(b.seat)} is out of the battle")

    def _hands_shown(self) -> None:
        for a, b in zip(self.old.players, self.new.players, strict=True):
            if _learned(a.known_cards, b.known_cards):
                self.said.append(f"{self.name(b.seat)}'s hand was shown to you: {card_list(b.known_cards)}")
            if _learned(a.knows_of_your_hand, b.knows_of_your_hand):
                self.said.append(f"{self.name(b.seat)} saw your hand: {card_list(b.knows_of_your_hand)}")

    def _coins(self) -> None:
        """Coins moving within one battle, or the coin area going to the winner of the battle that just ended."""
        old, new = self.old, self.new
        if new.battle != old.battle:
            return  # a new battle: its start and the coins are told with the battle's end
        if self.battle_ended:  # the game ended with this battle: the winner took the coin area
            return
        delta: Counter[int | None] = Counter()
        for a, b in zip(old.players, new.players, strict=True):
            delta[b.seat] = b.coins - a.coins
        delta[None] = new.coin_area - old.coin_area
        delta.subtract(self.explained)
        losers = [s for s, d in delta.items() if s is not None and d < 0]
        gainers = [s for s, d in delta.items() if s is not None and d > 0]
        if not losers and not gainers:
            return
        payers = " and ".join(self.name(s) for s in losers)
        each = "" if len(losers) == 1 else " each"
        if not gainers and delta[None] == -sum(delta[s] for s in losers) and len({delta[s] for s in losers}) == 1:
            self.said.append(f"{payers} put{'s' if len(losers) == 1 else ''} {_plural(-delta[losers[0]], 'coin')}"
                             f"{each} into the coin area (now {_plural(new.coin_area, 'coin')})")
            return
        if (len(gainers) == 1 and not delta[None] and sum(delta[s] for s in losers) == -delta[gainers[0]]
                and len({delta[s] for s in losers}) == 1):
            self.said.append(f"{self.name(gainers[0])} takes {_plural(-delta[losers[0]], 'coin')}{each} from "
                             f"{payers} (now {new.players[gainers[0]].coins})")
            return
        moves = [f"{self.name(s)} {delta[s]:+d}" for s in sorted(delta, key=lambda s: -1 if s is None else s)
                 if s is not None and delta[s]]
        area = f"; coin area {delta[None]:+d}" if delta[None] else ""
        self.said.append("Coins: " + ", ".join(moves) + area)

    def _battle_ends(self) -> None:
        old, new = self.old, self.new
        for r in new.battle_results[len(old.battle_results):]:
            if r.HasField("winner"):
                taken = ""
                if self.same_battle:  # the game ended with it: no new battle's coin moved yet
                    taken = f" ({_plural(old.coin_area, 'coin')}, now {new.players[r.winner].coins})"
                self.said.append(f"Battle {r.battle} is over: {self.name(r.winner)} wins it and takes the coin area"
                                 + taken)
            else:
                self.said.append(f"Battle {r.battle} is over: a tie for honour; the coins stay in the coin area")
        if new.phase == zp.ZIPANG_PHASE_OVER and old.phase != zp.ZIPANG_PHASE_OVER:
            broke = " and ".join(self.name(p.seat) for p in new.players if p.coins == 0)
            order = sorted(new.players, key=lambda p: -p.coins)
            self.said.append(f"The game is over: {broke or 'a player'} has no coins left. Coins: "
                             + ", ".join(f"{self.name(p.seat)} {p.coins}" for p in order))
        elif new.battle > old.battle:
            coins = ", ".join(f"{self.name(p.seat)} {p.coins}" for p in new.players)
            self.said.append(f"Battle {new.battle} begins, started by {self.name(new.battle_starter)}: everyone "
                             f"puts 1 coin into the coin area and 1 is removed (coins now: {coins})")

    def _next_decision(self) -> None:
        if self.new.phase == zp.ZIPANG_PHASE_REACT and self.new != self.old:
            self.said.append(decision(self.state, self.new))


def _learned(before, after) -> bool:
    """`after` holds a card `before` did not (knowledge only shrinks as cards leave a hand)."""
    return bool(Counter(after) - Counter(before))


# --- a small screen ---------------------------------------------------------------------------------------------


def card_value(view: zp.ZipangView, card: int) -> str:
    """'Warlord 6/2': a card with its BTL/HNR, as everywhere on the board."""
    btl, hnr = _points(view, card)
    return f"{card_name(card)} {btl}/{hnr}"


def compact(state: pb.GameState, style: Style, width: int = 80) -> list[str]:
    """The decision pending, the coins, the discard pile (the last cards on 2 lines at most), a line per seat and
    your hand: at most 13 lines of 80 columns."""
    view = zipang_view(state)
    head = style.paint("Zipang Portable", "bold")
    if view is None:
        return [head, "  (no Zipang view to show)"]
    name = lambda s: seat_name(state, s)  # noqa: E731
    battle = f"  battle {view.battle}, started by {name(view.battle_starter)}" if view.phase != \
        zp.ZIPANG_PHASE_OVER else ""
    lines = [clip(head + battle + f"; coin area {_plural(view.coin_area, 'coin')}, draw pile "
                  f"{_plural(view.draw_pile_size, 'card')}", width)]
    lines += [style.paint(line, "yellow") for line in wrap("  " + _status(state, view), width)][:2]
    face_down = f" +{view.face_down_discards} face down" if view.face_down_discards else ""
    discard = f"  Discard pile ({len(view.discard)} face up{face_down}, last on the right): "
    cards = [card_name(c) for c in view.discard]
    text = discard + (", ".join(cards) or "-")
    while len(wrap(text, width)) > 2 and cards:
        cards = cards[1:]
        text = discard + "…, " + ", ".join(cards)
    lines += wrap(text, width)
    viewer = _viewer(view)
    for p in view.players:
        you = " (you)" if p.seat == viewer else ""
        cards_held = _plural(p.hand_size, "card") if p.in_battle else "out"
        marks = []
        if p.seat == view.active and view.phase != zp.ZIPANG_PHASE_OVER:
            marks.append("on turn")
        if p.in_battle and not p.had_turn:
            marks.append("no turn yet")
        if p.known_cards:
            marks.append(f"you know: {card_list(p.known_cards)}")
        if p.knows_of_your_hand:
            marks.append(f"knows your {card_list(p.knows_of_your_hand)}")
        text = f"  {(name(p.seat) + you)[:20].ljust(20)} {_plural(p.coins, 'coin').ljust(8)} {cards_held.ljust(8)}"
        line = clip((text + " " + "; ".join(marks)).rstrip(), width)
        lines.append(style.paint(line, "dim") if not p.in_battle else line)
    if view.HasField("seat"):
        held = ", ".join(card_value(view, c) for c in view.hand) or "(none)"
        defence = sum(_points(view, c)[0] for c in view.hand)
        honour = sum(_points(view, c)[1] for c in view.hand)
        lines.append(clip(f"  Your hand: {held}; defence {defence}, honour {honour}", width))
    if view.battle_results:
        results = [f"{r.battle}. {name(r.winner) if r.HasField('winner') else 'tie'}" for r in view.battle_results]
        lines.append(clip("  Battles won: " + "  ".join(results), width))
    return lines


def legend(state: pb.GameState) -> list[str]:
    """What the board's numbers mean, and every card's values in this game."""
    view = zipang_view(state)
    lines = [
        "Legend (Zipang Portable):",
        "  Warlord 6/2  a card and its values: BTL (battle points, for attacking and",
        "               defending) / HNR (honour points, deciding a battle's end)",
        "  defence      your hand's BTL summed: an attack stronger than it wins",
        "  out          out of the battle (its cards are discarded)",
        "  coin area    the coins that the battle's winner takes",
        "  Cards in this game (BTL/HNR, copies):",
    ]
    if view is not None:
        values = [f"{card_value(view, t.card)} x{t.copies}" for t in view.card_types]
        lines += wrap("    " + ", ".join(values), 80, "")
    return lines


def group(state: pb.GameState, move: pb.LegalMove) -> str:
    """A long list is grouped by the card played or used, then by action."""
    typed = zp.ZipangMove()
    if not move.move.Unpack(typed):
        return ""
    kind = typed.WhichOneof("kind")
    if kind in ("play", "use"):
        step = getattr(typed, kind)
        what = "2 Peasants (an Ikki)" if step.ikki else f"the {card_name(step.card)}"
        name = f"{'Play' if kind == 'play' else 'Use'} {what}"
        if len(_same_card(state, kind, step)) > 8:  # many targets: a group per number of them
            name += f", {_plural(len(step.targets), 'target')}" if step.targets else ", no target"
        return name
    return {"take": "Take a card", "react": "Answer"}.get(kind, "")


def _same_card(state: pb.GameState, kind: str, step) -> list[pb.LegalMove]:
    """The legal moves that play (or use) the same card as `step`."""
    same = []
    for move in state.legal_moves:
        typed = zp.ZipangMove()
        if move.move.Unpack(typed) and typed.WhichOneof("kind") == kind:
            other = getattr(typed, kind)
            if other.card == step.card and other.ikki == step.ikki:
                same.append(move)
    return same
