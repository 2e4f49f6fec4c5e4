"""Game-independent pieces: the seats, the numbered legal moves, the score breakdown, a suggestion's statistics."""

from __future__ import annotations

import textwrap

from tabletop.terminal.style import Style
from tabletop.v1 import game_service_pb2 as pb

STATUS = {
    pb.GAME_STATUS_WAITING_FOR_PLAYERS: "waiting for players",
    pb.GAME_STATUS_IN_PROGRESS: "in progress",
    pb.GAME_STATUS_FINISHED: "finished",
}


def seat_name(state: pb.GameState, seat: int) -> str:
    """The seat's holder by name, or "seat 3" for a seat without one."""
    for info in state.seats:
        if info.seat == seat:
            return info.name or f"seat {seat + 1}"
    return f"seat {seat + 1}"


def render_seats(state: pb.GameState, style: Style) -> list[str]:
    """One line per seat: who holds it, and whether it is to act."""
    lines = []
    for info in state.seats:
        holder = {pb.SEAT_KIND_HUMAN: "human", pb.SEAT_KIND_AI: f"AI {info.strength}".strip(),
                  pb.SEAT_KIND_OPEN: "open"}.get(info.kind, "?")
        you = " (you)" if state.HasField("your_seat") and state.your_seat == info.seat else ""
        acting = style.paint("  <- to act", "yellow") if info.seat in state.to_act else ""
        lines.append(f"  seat {info.seat + 1}: {info.name}{you} [{holder}]{acting}")
    return lines


def render_moves(state: pb.GameState, style: Style) -> list[str]:
    """The caller's legal moves, numbered from 1."""
    width = len(str(len(state.legal_moves)))
    return [f"  {style.paint(str(i).rjust(width), 'bold')}) {move.label}  {style.paint('[' + move.id + ']', 'dim')}"
            for i, move in enumerate(state.legal_moves, 1)]


def render_score(score: pb.GetScoreResponse, state: pb.GameState, style: Style) -> list[str]:
    """The breakdown as a table: a row per category, a column per seat, the totals and the ranking."""
    if not score.seats:
        return ["  (no score yet)"]
    names = [seat_name(state, s.seat) for s in score.seats]
    categories: list[str] = []
    for seat in score.seats:
        for item in seat.breakdown:
            if item.category not in categories:
                categories.append(item.category)
    points = [{item.category: item.points for item in seat.breakdown} for seat in score.seats]
    first = max([len("category"), len("total"), *map(len, categories)])
    widths = [max(len(n), 6) for n in names]
    title = "Final score" if score.final else "Score so far"
    lines = [style.paint(f"{title} (version {score.version})", "bold"),
             "  " + "category".ljust(first) + "".join("  " + n.rjust(w) for n, w in zip(names, widths, strict=True))]
    for category in categories:
        cells = "".join("  " + str(p.get(category, 0)).rjust(w) for p, w in zip(points, widths, strict=True))
        lines.append("  " + category.ljust(first) + cells)
    totals = "".join("  " + str(s.total).rjust(w) for s, w in zip(score.seats, widths, strict=True))
    lines.append("  " + style.paint("total".ljust(first) + totals, "bold"))
    places = []
    for place, group in enumerate(score.ranking, 1):
        who = " = ".join(seat_name(state, s) for s in group.seats)
        places.append(f"{place}. {who}")
    if places:
        lines.append("  ranking: " + "   ".join(places))
    if score.tie_breaks:
        lines.append("  tie-breaks: " + "; ".join(score.tie_breaks))
    return lines


def render_suggestion(suggestion: pb.SuggestMoveResponse, state: pb.GameState, style: Style,
                      number=None, first: int = 0, count: int | None = None, width: int | None = None) -> list[str]:
    """The AI's pick and its candidates, most searched first: the share of the search each got and the chance to
    win the search estimates after it, with the move's number in the list (`number` maps a move id to it as typed,
    e.g. "3.2" in a grouped list; by default the place in the flat list). `first` and `count` pick a page of the
    candidates (all by default; a later page has no head); `width` wraps each candidate's move under its column."""
    flat = {move.id: str(i) for i, move in enumerate(state.legal_moves, 1)}
    numbers = {move.id: (number(move.id) if number else flat[move.id]) for move in state.legal_moves}
    total = sum(c.visits for c in suggestion.candidates)
    head = style.paint(f"Hint: {suggestion.best_move_label}", "bold", "green")
    head += f"  (move {numbers.get(suggestion.best_move_id, '?')})"
    if total == 0:
        return [head, "  (the only legal move: nothing to search)"]
    best = next((c for c in suggestion.candidates if c.move_id == suggestion.best_move_id), None)
    if best is not None:
        head += f": wins about {100 * best.win_rate:.0f}% of the games the AI played out after it"
    lines = [head] if first == 0 else []
    lines.append("        #  searched  chance to win  move")
    ranked = ranked_candidates(suggestion)
    for candidate in ranked[first:None if count is None else first + count]:
        mark = "*" if candidate.move_id == suggestion.best_move_id else " "
        shown = str(numbers.get(candidate.move_id, "?"))
        share, chance = 100 * candidate.visits / total, 100 * candidate.win_rate
        cells = f"  {mark} {shown.rjust(4)}  {share:7.0f}%  {chance:12.0f}%  "
        if width is None or len(cells) + len(candidate.label) <= width:
            lines.append(cells + candidate.label)
            continue
        label = textwrap.wrap(candidate.label, max(width - len(cells), 20), break_on_hyphens=False) or [""]
        lines += [cells + label[0], *(" " * len(cells) + part for part in label[1:])]
    return lines


def ranked_candidates(suggestion: pb.SuggestMoveResponse) -> list[pb.CandidateMove]:
    """The candidates of a suggestion, most searched first."""
    return sorted(suggestion.candidates, key=lambda c: c.visits, reverse=True)
