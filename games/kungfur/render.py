"""Kung Fur Fight from its typed view (tabletop.v1.KungFurView): the three arenas side by side (rewards, tokens,
each seat's team once it may be seen, and its AP), each seat's board, the decision due, and what changed between
two views.

It reads only the public message, as any frontend would: card names come from the KungFurCard enum's own names.
Arenas count from 1, as the rulebook does.
"""

from __future__ import annotations

import textwrap
from collections import Counter

from tabletop.terminal.screen import ANSI, clip, wrap
from tabletop.terminal.style import Style
from tabletop.terminal.table import STATUS
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import kungfur_pb2 as kp

LABEL = 14  # the width of the row labels left of the arenas
CELL = 26  # the width of one arena's column
ARENAS = 3
# Names the enum cannot spell: its value names are ASCII words joined by underscores.
SPELLING = {"KOGA_GENIN": "Kōga Genin", "KOGA_JONIN": "Kōga Jōnin", "TAI_CHII": "Tai-Chii", "SIU_YAO": "Siu-Yao",
            "HEO_YUN": "Heo-Yun"}
SIDES = {kp.KUNG_FUR_SIDE_CATS: "cats", kp.KUNG_FUR_SIDE_DOGS: "dogs"}
PHASES = {kp.KUNG_FUR_PHASE_PLANNING: "planning", kp.KUNG_FUR_PHASE_BATTLE: "battle",
          kp.KUNG_FUR_PHASE_REGROUP: "regroup", kp.KUNG_FUR_PHASE_OVER: "over"}
STAGES = {kp.KUNG_FUR_BATTLE_STAGE_OPENING: "opening", kp.KUNG_FUR_BATTLE_STAGE_FIGHT: "fighting",
          kp.KUNG_FUR_BATTLE_STAGE_REWARDS: "rewards to take"}
DECISIONS = {
    kp.KUNG_FUR_DECISION_MASTER_SHU: "Master Shu's ability (add an assistant or not)",
    kp.KUNG_FUR_DECISION_RINGO: "Ringo's ability (how many Hidden Weapons to add)",
    kp.KUNG_FUR_DECISION_BANANA: "which card of the Banana's draw to keep",
    kp.KUNG_FUR_DECISION_KKAMI: "which animal Kkami brings back from the rest area",
    kp.KUNG_FUR_DECISION_RECOVERY: "whether and how to recover the rest area",
}
DISHES = {kp.KUNG_FUR_DISH_STATE_NOT_TAKEN: "not taken", kp.KUNG_FUR_DISH_STATE_HELD: "held",
          kp.KUNG_FUR_DISH_STATE_EATEN: "eaten"}


def card_name(card: int) -> str:
    """'Senior Brother Bang' for KUNG_FUR_CARD_SENIOR_BROTHER_BANG; '?' for no card or an unknown value."""
    if card == kp.KUNG_FUR_CARD_UNSPECIFIED or card not in kp.KungFurCard.values():
        return "?"
    word = kp.KungFurCard.Name(card).removeprefix("KUNG_FUR_CARD_")
    return SPELLING.get(word, word.replace("_", " ").title())


def card_list(cards) -> str:
    """'Shaolin Monk x2, Hua' in the order given, repeats counted; '(none)' for no card."""
    counts = Counter(cards)
    names = [card_name(c) + (f" x{counts[c]}" if counts[c] > 1 else "") for c in dict.fromkeys(cards)]
    return ", ".join(names) or "(none)"


def kungfur_view(state: pb.GameState) -> kp.KungFurView | None:
    view = kp.KungFurView()
    return view if state.HasField("view") and state.view.Unpack(view) else None


def seat_name(state: pb.GameState, seat: int) -> str:
    for info in state.seats:
        if info.seat == seat and info.name:
            return info.name
    return f"seat {seat + 1}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _viewer(view: kp.KungFurView) -> int | None:
    return view.seat if view.HasField("seat") else None


def _team_cell(view: kp.KungFurView, team: kp.KungFurTeam) -> list[str]:
    player = view.players[team.seat]
    if player.plan_secret:
        return ["(plan done, hidden)" if player.plan_done else "(planning, hidden)"]
    lines = []
    if team.leader:
        lines.append(card_name(team.leader))
        lines += [f"+ {card_name(c)}" for c in team.assistants]
    else:
        lines.append("-")
    tokens = []
    if team.hidden_weapons:
        tokens.append(_plural(team.hidden_weapons, "Hidden Weapon"))
    if team.coconuts:
        tokens.append(_plural(team.coconuts, "Coconut"))
    if tokens:
        lines.append(", ".join(tokens))
    if team.leader or team.attack_points:
        lines.append(f"AP {team.attack_points}")
    return lines


def _tokens_cell(state: pb.GameState, arena: kp.KungFurArena) -> list[str]:
    tokens = []
    if arena.HasField("raifu_token"):
        tokens.append(f"Raifu ({seat_name(state, arena.raifu_token)})")
    if arena.HasField("hua_token"):
        tokens.append(f"Hua ({seat_name(state, arena.hua_token)})")
    tokens += [f"Songo Mushroom ({seat_name(state, s)})" for s in arena.songo_mushrooms]
    return tokens or ["-"]


def _result_cell(state: pb.GameState, arena: kp.KungFurArena) -> list[str]:
    if arena.HasField("winner"):
        return [f"won by {seat_name(state, arena.winner)}"]
    return ["tie" if arena.fought else "-"]


def _row(label: str, cells: list[list[str]]) -> list[str]:
    """One row of the arenas: the label, then each arena's cell (several lines) side by side."""
    height = max(len(c) for c in cells)
    lines = []
    for i in range(height):
        left = label if i == 0 else ""
        parts = [(cell[i] if i < len(cell) else "")[:CELL].ljust(CELL) for cell in cells]
        lines.append(("  " + left[:LABEL].ljust(LABEL) + "  ".join(parts)).rstrip())
    return lines


def arenas(state: pb.GameState, view: kp.KungFurView, style: Style) -> list[str]:
    """The three arenas side by side, a column each."""
    current = view.phase == kp.KUNG_FUR_PHASE_BATTLE
    heads = []
    for arena in view.arenas:
        head = f"Arena {arena.number}"
        if current and arena.number == view.current_arena:
            head = style.paint(f"*{head}*", "bold")
            head += " " * (CELL - len(f"*Arena {arena.number}*"))  # paint adds invisible characters
        heads.append([head])
    lines = _row("", heads)
    lines += _row("Rewards", [[card_list(a.rewards)] if a.rewards else ["(none)"] for a in view.arenas])
    lines += _row("Tokens", [_tokens_cell(state, a) for a in view.arenas])
    for seat, player in enumerate(view.players):
        label = f"{seat_name(state, seat)} ({SIDES.get(player.side, '?')})"
        lines += _row(label, [_team_cell(view, a.teams[seat]) for a in view.arenas])
    lines += _row("Battle", [_result_cell(state, a) for a in view.arenas])
    return lines


def _board(state: pb.GameState, view: kp.KungFurView, seat: int, style: Style) -> list[str]:
    p = view.players[seat]
    you = " (you)" if _viewer(view) == seat else ""
    limit = f"card limit {p.limit}"
    if p.HasField("blockade_round") and p.blockade_round == view.round:
        limit += " (-1 this round: Blockade)"
    elif p.HasField("blockade_round"):
        limit += f" (-1 in round {p.blockade_round}: Blockade)"
    head = (f"  {seat_name(state, seat)}{you}, the {SIDES.get(p.side, '?')}: VP {p.vp}  SP {p.sp}  {limit}  "
            f"food {p.food_tokens}  Special Dish {DISHES.get(p.special_dish, '?')}")
    hand, weapons, coconuts, hand_label = list(p.hand), p.hidden_weapons, p.coconuts, "Hand"
    if view.phase == kp.KUNG_FUR_PHASE_PLANNING and not p.plan_secret:
        # The board shows the hand before the plan; what is behind the screen already is on the arenas.
        teams = [a.teams[seat] for a in view.arenas]
        hand = _less(hand, [c for t in teams for c in (t.leader, *t.assistants) if c])
        weapons -= sum(t.hidden_weapons for t in teams)
        coconuts -= sum(t.coconuts for t in teams)
        hand_label = "Hand (not in the plan)"
    lines = [style.paint(head, "bold") if you else head,
             f"    {hand_label}: {card_list(hand)}",
             f"    Rest area: {card_list(p.rest_area)}"]
    tokens = []
    if weapons:
        tokens.append(_plural(weapons, "Hidden Weapon"))
    if coconuts:
        tokens.append(_plural(coconuts, "Coconut"))
    if p.hua_tokens:
        tokens.append(_plural(p.hua_tokens, "Hua token"))
    held = list(tokens)
    if p.items:
        held.append(card_list(p.items))
    if p.apples:
        held.append(_plural(p.apples, "Apple"))
    if p.sinkings:
        held.append(_plural(p.sinkings, "Sinking"))
    if p.ginseng_recovery:
        held.append("Ginseng (free recovery this regroup)")
    if p.face_down_discards:
        held.append(f"{p.face_down_discards} face-down Banana discards")
    lines.append(f"    Tokens and cards: {', '.join(held) or '(none)'}")
    if view.phase == kp.KUNG_FUR_PHASE_PLANNING:
        lines.append("    " + _plan_line(view, seat))
    return lines


def _plan_line(view: kp.KungFurView, seat: int) -> str:
    p = view.players[seat]
    if p.plan_secret:
        return "Plan: finished (hidden)" if p.plan_done else "Plan: still planning (hidden)"
    placed = sum(1 for a in view.arenas for c in [a.teams[seat].leader, *a.teams[seat].assistants]
                 if c and c != kp.KUNG_FUR_CARD_HIMIKO)
    limit = p.limit + p.reinforced - (p.HasField("blockade_round") and p.blockade_round == view.round)
    state = "finished" if p.plan_done else "in progress"
    extra = ", Reinforcements used" if p.reinforced else ""
    own = "Your plan" if _viewer(view) == seat else "Plan"
    return f"{own} ({state}): {placed} of {limit} animals placed{extra}"


def _status(state: pb.GameState, view: kp.KungFurView) -> list[str]:
    name = lambda s: seat_name(state, s)  # noqa: E731
    if view.phase == kp.KUNG_FUR_PHASE_OVER:
        return [f"  The game is over: {_outcome(state, view)}."]
    line = f"  Round {view.round}, {PHASES.get(view.phase, '?')}"
    if view.phase == kp.KUNG_FUR_PHASE_PLANNING:
        done = [name(p.seat) for p in view.players if p.plan_done]
        busy = [name(p.seat) for p in view.players if not p.plan_done]
        parts = [f"{' and '.join(done)} {'has' if len(done) == 1 else 'have'} finished"] if done else []
        parts.append(f"{' and '.join(busy)} {'is' if len(busy) == 1 else 'are'} planning behind the screen")
        line += ": " + "; ".join(parts)
    elif view.phase == kp.KUNG_FUR_PHASE_BATTLE:
        line += f" on arena {view.current_arena} ({STAGES.get(view.stage, '?')})"
    lines = [line]
    if view.decisions:
        due = view.decisions[0]
        who = "You decide" if _viewer(view) == due.seat else f"{name(due.seat)} decides"
        lines.append(f"  Due now: {who} {DECISIONS.get(due.decision, '?')}")
    if view.banana_draw:
        lines.append(f"  The Banana's draw: {card_list(view.banana_draw)} (keep one; the others go face down)")
    elif view.banana_draw_size:
        lines.append(f"  A Banana's draw of {_plural(view.banana_draw_size, 'card')} waits for a choice")
    if view.rewards_to_take:
        lines.append(f"  Rewards still to take: {card_list(view.rewards_to_take)}")
    return lines


def _outcome(state: pb.GameState, view: kp.KungFurView) -> str:
    winners = list(view.winners)
    reason = f" ({view.end_reason})" if view.end_reason else ""
    if len(winners) == 1:
        return f"{seat_name(state, winners[0])} wins{reason}"
    return f"a draw{reason}"


def render(state: pb.GameState, style: Style) -> list[str]:
    view = kungfur_view(state)
    lines = [style.paint(f"Kung Fur Fight  game {state.game_id}", "bold")
             + f"  version {state.version}, {STATUS.get(state.status, '?')}"]
    if view is None or len(view.players) != 2 or len(view.arenas) != ARENAS:
        return [*lines, "  (no Kung Fur Fight view to show)"]
    lines += _status(state, view)
    lines += arenas(state, view, style)
    for seat in range(2):
        lines += _board(state, view, seat, style)
    last = f" (last: {card_name(view.discard[-1])})" if view.discard else ""
    footer = f"  Reward deck: {_plural(view.reward_deck_size, 'card')}; discard pile: {len(view.discard)}{last}"
    if view.your_face_down_discards:
        footer += f"; your face-down discards: {card_list(view.your_face_down_discards)}"
    lines.append(footer)
    return lines


# --- what changed -------------------------------------------------------------------------------------------
def changes(before: pb.GameState, after: pb.GameState, skip_seat: int | None = None) -> list[str]:
    """What happened between two views of one watcher, worked out from the views (the moves' labels travel in
    the events): plans finished and revealed, battles won and lost, rewards taken, the decisions made in the
    open, VP and SP gained and lost, the regroup and the next round. What `skip_seat` did itself is left out."""
    old, new = kungfur_view(before), kungfur_view(after)
    if old is None or new is None or len(old.players) != 2 or len(new.players) != 2:
        return []
    if len(old.arenas) != ARENAS or len(new.arenas) != ARENAS:
        return []
    return _Changes(after, old, new, skip_seat).said


def _less(a, b) -> list[int]:
    """The cards of `a` not in `b` (as multisets), in the order of `a`."""
    left = Counter(b)
    out = []
    for c in a:
        if left[c]:
            left[c] -= 1
        else:
            out.append(c)
    return out


class _Changes:
    """One comparison of two views; `said` holds the sentences, in the order things happen in a round."""

    def __init__(self, state: pb.GameState, old: kp.KungFurView, new: kp.KungFurView, skip_seat: int | None):
        self.state, self.old, self.new, self.skip = state, old, new, skip_seat
        self.said: list[str] = []
        self.same_round = new.round == old.round
        self._planning()
        self._decision()
        self._battles()
        self._boards()
        self._regroup()
        self._end()

    def name(self, seat: int) -> str:
        return seat_name(self.state, seat)

    def say(self, seat: int | None, sentence: str) -> None:
        if seat is None or seat != self.skip:
            self.said.append(sentence)

    # --- planning and the reveal ---

    def _planning(self) -> None:
        old, new = self.old, self.new
        if old.phase != kp.KUNG_FUR_PHASE_PLANNING:
            return
        revealed = new.phase != kp.KUNG_FUR_PHASE_PLANNING or not self.same_round
        for before, after in zip(old.players, new.players, strict=True):
            if not before.plan_done and (revealed or after.plan_done):
                self.say(before.seat, f"{self.name(before.seat)} finished their plan")
        if not revealed:
            return
        self.say(None, "Both plans are done: the screens come down")
        if not self.same_round:
            return
        for p in new.players:
            placed = []
            for arena in new.arenas:
                team = arena.teams[p.seat]
                if team.leader:
                    text = f"arena {arena.number}: {card_list([team.leader, *team.assistants])}"
                    tokens = [_plural(n, w) for n, w in ((team.hidden_weapons, "Hidden Weapon"),
                                                         (team.coconuts, "Coconut")) if n]
                    placed.append(text + (f" with {' and '.join(tokens)}" if tokens else ""))
            what = "; ".join(placed) or "no animal on the arenas"
            boost = " (Reinforcements used)" if p.reinforced else ""
            self.say(None, f"{self.name(p.seat)} placed {_plural(p.animals_used, 'animal')}{boost}: {what}")

    # --- a decision made in the open ---

    def _decision(self) -> None:
        old, new = self.old, self.new
        if old.phase == kp.KUNG_FUR_PHASE_PLANNING or not old.decisions or old == new:
            return
        due = old.decisions[0]
        seat, who = due.seat, self.name(due.seat)
        before, after = old.players[seat], new.players[seat]
        arena = old.current_arena
        if due.decision == kp.KUNG_FUR_DECISION_MASTER_SHU:
            added = _less(before.hand, after.hand)
            if added:
                self.say(seat, f"{who}'s Master Shu adds {card_name(added[0])} as an assistant on arena {arena}")
            else:
                self.say(seat, f"{who} declined Master Shu's ability on arena {arena}")
        elif due.decision == kp.KUNG_FUR_DECISION_RINGO:
            n = max(0, before.hidden_weapons - after.hidden_weapons)
            self.say(seat, f"{who}'s Ringo adds {_plural(n, 'Hidden Weapon')} on arena {arena}")
        elif due.decision == kp.KUNG_FUR_DECISION_BANANA:
            kept = self._banana_kept(seat)
            others = max(0, old.banana_draw_size - 1)
            what = card_name(kept) if kept else "a card"
            self.say(seat, f"{who} kept {what} from the Banana's draw"
                           + (f"; the other {others} went face down" if others else ""))
        elif due.decision == kp.KUNG_FUR_DECISION_KKAMI:
            back = _less(before.rest_area, after.rest_area)
            self.say(seat, f"{who}'s Kkami brings {card_name(back[0]) if back else 'an animal'} back to the hand")
        elif due.decision == kp.KUNG_FUR_DECISION_RECOVERY:
            rest = card_list(before.rest_area)
            if after.food_tokens < before.food_tokens:
                self.say(seat, f"{who} spent a food token to recover their animals ({rest})")
            elif before.special_dish == kp.KUNG_FUR_DISH_STATE_HELD and after.special_dish == \
                    kp.KUNG_FUR_DISH_STATE_EATEN:
                self.say(seat, f"{who} ate their Special Dish to recover their animals ({rest})")
            elif kp.KUNG_FUR_CARD_HEAD_CHEF in _less(before.items, after.items):
                self.say(seat, f"{who} used their Head Chef to recover their animals ({rest})")
            else:
                self.say(seat, f"{who} left their animals in the rest area")

    def _banana_kept(self, seat: int) -> int | None:
        old, new = self.old, self.new
        if old.banana_draw:
            buried = _less(new.your_face_down_discards, old.your_face_down_discards)
            kept = _less(old.banana_draw, buried)
        else:
            dealt = [c for a, b in zip(old.arenas, new.arenas, strict=True) for c in _less(b.rewards, a.rewards)]
            kept = _less(_less(old.unseen, new.unseen), dealt)
        return kept[0] if len(kept) == 1 else None

    # --- battles and rewards ---

    def _battles(self) -> None:
        old, new = self.old, self.new
        if not self.same_round:
            return
        fought = [k for k in range(ARENAS) if new.arenas[k].fought and not old.arenas[k].fought]
        last = max((k for k in range(ARENAS) if new.arenas[k].fought), default=None)
        for k in fought:
            arena = new.arenas[k]
            by = f" by {new.ap_difference} AP" if k == last else ""
            if arena.HasField("winner"):
                w = arena.winner
                self.say(None, f"Arena {k + 1}: {self.name(w)} won the battle against {self.name(1 - w)}{by}")
                if old.arenas[k].rewards:
                    self.say(None, f"{self.name(w)} took the rewards of arena {k + 1}: "
                                   f"{card_list(old.arenas[k].rewards)}")
            else:
                stay = f"; its rewards stay ({card_list(arena.rewards)})" if arena.rewards else ""
                self.say(None, f"Arena {k + 1}: a tie, nobody won{stay}")
        draws = [d for d in new.decisions if d.decision == kp.KUNG_FUR_DECISION_BANANA]
        if draws and not any(d.decision == kp.KUNG_FUR_DECISION_BANANA for d in old.decisions):
            self.say(None, f"{self.name(draws[0].seat)} drew {_plural(new.banana_draw_size, 'card')} with the "
                           f"Banana and keeps one")

    def _boards(self) -> None:
        for before, after in zip(self.old.players, self.new.players, strict=True):
            who = self.name(after.seat)
            for field, unit in (("vp", "VP"), ("sp", "SP")):
                a, b = getattr(before, field), getattr(after, field)
                if a != b:
                    verb = "gains" if b > a else "loses"
                    self.say(None, f"{who} {verb} {abs(b - a)} {unit} (now {b})")
            if after.limit > before.limit:
                self.say(None, f"{who}'s card limit rises to {after.limit}")
            if before.special_dish == kp.KUNG_FUR_DISH_STATE_NOT_TAKEN and \
                    after.special_dish != kp.KUNG_FUR_DISH_STATE_NOT_TAKEN:
                self.say(None, f"{who} takes the Special Dish")
            if after.HasField("blockade_round") and (not before.HasField("blockade_round")
                                                     or before.blockade_round != after.blockade_round):
                self.say(None, f"{who} has card limit -1 in round {after.blockade_round}'s planning (Blockade)")

    # --- the regroup and the next round ---

    def _regroup(self) -> None:
        old, new = self.old, self.new
        if new.phase == kp.KUNG_FUR_PHASE_REGROUP and (old.phase != kp.KUNG_FUR_PHASE_REGROUP or not self.same_round):
            self.say(None, "Regroup: the animals used go to the rest area")
        if new.round > old.round and new.phase != kp.KUNG_FUR_PHASE_OVER:
            rewards = "; ".join(f"arena {a.number}: {card_list(a.rewards)}" for a in new.arenas)
            self.say(None, f"Round {new.round} begins; the rewards on the arenas: {rewards}")

    def _end(self) -> None:
        if self.new.phase == kp.KUNG_FUR_PHASE_OVER and self.old.phase != kp.KUNG_FUR_PHASE_OVER:
            self.say(None, f"The game is over: {_outcome(self.state, self.new)}")


# --- a small screen ---------------------------------------------------------------------------------------------

COMPACT_LABEL, COMPACT_CELL = 14, 22


def _compact_row(label: str, cells: list[list[str]]) -> list[str]:
    """One row of the arenas: each cell's words wrapped in its column."""
    wrapped = [[part for line in cell for part in (textwrap.wrap(line, COMPACT_CELL - 1) or [""])] for cell in cells]
    height = max(len(c) for c in wrapped)
    lines = []
    for i in range(height):
        parts = [(cell[i] if i < len(cell) else "").ljust(COMPACT_CELL) for cell in wrapped]
        lines.append(((label if i == 0 else "")[:COMPACT_LABEL - 1].ljust(COMPACT_LABEL) + "".join(parts)).rstrip())
    return lines


def _compact_team(view: kp.KungFurView, team: kp.KungFurTeam) -> list[str]:
    player = view.players[team.seat]
    if player.plan_secret:
        return ["(plan done, hidden)" if player.plan_done else "(planning, hidden)"]
    parts = [" + ".join(card_name(c) for c in (team.leader, *team.assistants))] if team.leader else ["-"]
    tokens = [_plural(n, w) for n, w in ((team.hidden_weapons, "Hidden Weapon"), (team.coconuts, "Coconut")) if n]
    if tokens:
        parts.append(", ".join(tokens))
    if team.leader or team.attack_points:
        parts.append(f"AP {team.attack_points}")
    return ["; ".join(parts)]


def compact(state: pb.GameState, style: Style, width: int = 80) -> list[str]:
    """The arenas in three columns of 22, each seat's board in 2 or 3 lines: about 16 lines of 80 columns."""
    view = kungfur_view(state)
    head = style.paint("Kung Fur Fight", "bold")
    if view is None or len(view.players) != 2 or len(view.arenas) != ARENAS:
        return [head, "  (no Kung Fur Fight view to show)"]
    status = _status(state, view)
    first = status[0].strip()
    if view.phase == kp.KUNG_FUR_PHASE_PLANNING:
        first = f"Round {view.round}, planning: " + ", ".join(
            f"{seat_name(state, p.seat)} {'done' if p.plan_done else 'planning'}" for p in view.players)
    lines = [clip(f"{head}  {first}", width)]
    lines += [part for line in status[1:] for part in wrap(line, width)]
    current = view.phase == kp.KUNG_FUR_PHASE_BATTLE
    heads = [f"*Arena {a.number}*" if current and a.number == view.current_arena else f"Arena {a.number}"
             for a in view.arenas]
    lines.append(f" deck {view.reward_deck_size}".ljust(COMPACT_LABEL)
                 + "".join(h.ljust(COMPACT_CELL) for h in heads).rstrip())
    lines += _compact_row(" Rewards", [[card_list(a.rewards)] if a.rewards else ["-"] for a in view.arenas])
    tokens = [_tokens_cell(state, a) for a in view.arenas]
    if any(cell != ["-"] for cell in tokens):
        lines += _compact_row(" Tokens", [[", ".join(cell)] for cell in tokens])
    for seat, player in enumerate(view.players):
        label = f" {seat_name(state, seat)[:8]} {SIDES.get(player.side, '?')}"
        lines += _compact_row(label, [_compact_team(view, a.teams[seat]) for a in view.arenas])
    results = [_result_cell(state, a) for a in view.arenas]
    if any(cell != ["-"] for cell in results):
        lines += _compact_row(" Battle", results)
    for seat in range(2):
        lines += _compact_board(state, view, seat, style, width)
    return lines


def _compact_board(state: pb.GameState, view: kp.KungFurView, seat: int, style: Style, width: int) -> list[str]:
    full = _board(state, view, seat, style)  # head, hand, rest area, tokens and cards, [plan]
    p = view.players[seat]
    you = " (you)" if _viewer(view) == seat else ""
    limit = f"limit {p.limit}" + (" (-1: Blockade)" if p.HasField("blockade_round")
                                   and p.blockade_round == view.round else "")
    head = (f"  {seat_name(state, seat)}{you}, the {SIDES.get(p.side, '?')}: VP {p.vp}  SP {p.sp}  {limit}  "
            f"food {p.food_tokens}  Dish {DISHES.get(p.special_dish, '?')}")
    lines = [style.paint(clip(head, width), "bold") if you else clip(head, width)]
    lines += wrap(full[1].replace("Hand (not in the plan):", "Hand, not placed:"), width, "  ")[:2]
    rest = ANSI.sub("", full[2]).strip().replace("Rest area: (none)", "Rest area: -")
    held = ANSI.sub("", full[3]).strip().replace("Tokens and cards: (none)", "").replace("Tokens and cards", "held")
    plan = ANSI.sub("", full[4]).strip() if len(full) > 4 else ""
    lines.append(clip("    " + "; ".join(part for part in (rest, held, plan) if part), width))
    return lines


def legend(state: pb.GameState) -> list[str]:
    """What the board's words and abbreviations mean."""
    return [
        "Legend (Kung Fur Fight):",
        "  Arena 1..3   the three arenas; *Arena 2* is the one fought now",
        "  deck 22      the cards left in the reward deck",
        "  Rewards      the cards the winner of an arena's battle takes",
        "  Ann cats     Ann's team on each arena: leader + assistants; its tokens;",
        "               AP: its attack points (the higher wins the battle)",
        "  VP, SP       victory points and spirit points",
        "  limit        the card limit: how many animals you may place when planning",
        "  food, Dish   food tokens and the Special Dish (not taken, held, eaten),",
        "               which recover the animals in the rest area",
        "  Rest area    the animals used, until they are recovered",
        "  hidden       a plan behind the screen; both plans are shown when done",
    ]


def group(state: pb.GameState, move: pb.LegalMove) -> str:
    """A long list is grouped by arena (leading, assisting, tokens), then by decision."""
    typed = kp.KungFurMove()
    if not move.move.Unpack(typed):
        return ""
    kind = typed.WhichOneof("kind")
    if kind == "lead":
        return f"Lead arena {typed.lead.arena}"
    if kind == "assist":
        return f"Assist on arena {typed.assist.arena}"
    if kind == "place_token":
        return "Place a token"
    if kind == "reinforce":
        return "Use Reinforcements"
    if kind == "finish_plan":
        return "Finish your plan"
    return {"master_shu": "Master Shu", "ringo": "Ringo", "banana_pick": "Keep a card of the Banana's draw",
            "kkami": "Kkami", "recover": "Recover the rest area"}.get(kind, "")
