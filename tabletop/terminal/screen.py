"""One decision on a small screen: the board and the legal moves together, within the terminal's width and height.

A long move list is grouped (by card or by action, as the game's renderer names the groups): the first step lists
the groups, the second the moves of the chosen group. Every move keeps one number in the whole list, "3" for an
entry of its own or "3.2" for the 2nd move of group 3, which may be typed at any step; a move id works too.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from tabletop.terminal.style import Style
from tabletop.v1 import game_service_pb2 as pb

ANSI = re.compile(r"\x1b\[[0-9;]*m")
MIN_WIDTH, MIN_HEIGHT = 80, 24


def visible(text: str) -> int:
    """The columns a line takes on screen (ANSI colour codes take none)."""
    return len(ANSI.sub("", text))


def clip(text: str, width: int) -> str:
    """A line cut to `width` visible columns at a word's end, an ellipsis marking the cut ("  On the table: P3
    Hero (14); P4 blue 7…"); a line of one long word is cut where it must. Colour codes are kept only in lines
    that fit."""
    if visible(text) <= width:
        return text
    plain = ANSI.sub("", text)
    room = plain[: width - 1]
    if not plain[width - 1].isspace():  # the cut falls inside a word: end at the word before it
        end = room.rfind(" ")
        if end > 0 and room[:end].strip():
            room = room[:end]
    return room.rstrip(" ,;:") + "…"


def wrap(text: str, width: int, indent: str = "    ") -> list[str]:
    """A long line wrapped at `width` columns, the continuation lines indented; a line that fits is kept as is."""
    if visible(text) <= width:
        return [text]
    plain = ANSI.sub("", text)
    lead = plain[: len(plain) - len(plain.lstrip())]
    return textwrap.wrap(plain, width, initial_indent="", subsequent_indent=lead + indent,
                         break_on_hyphens=False) or [""]


@dataclass
class Entry:
    """One line of the first step: a move of its own, or a group of moves under a name."""

    name: str
    moves: list[pb.LegalMove] = field(default_factory=list)
    group: bool = True

    @property
    def single(self) -> bool:
        """A move listed on its own (typed, it is played), not a group (typed, it is opened)."""
        return not self.group


class Menu:
    """The numbered legal moves: flat ("1".."n") or grouped ("3" a group, "3.2" its 2nd move)."""

    def __init__(self, state: pb.GameState, grouped: bool = False, group_of=None):
        self.state = state
        self.grouped = grouped
        if not grouped:
            self.entries = [Entry(move.label, [move], group=False) for move in state.legal_moves]
        else:
            groups: dict[str, Entry] = {}
            for move in state.legal_moves:
                name = (group_of(move) if group_of else "") or move.label
                groups.setdefault(name, Entry(name)).moves.append(move)
            # a group of one move is that move, played when typed, listed under the group's name
            self.entries = [Entry(e.name, e.moves, group=False) if len(e.moves) == 1 else e for e in groups.values()]

    def number(self, move_id: str) -> str:
        """The move's number as typed: "3" or "3.2"; "?" for a move not in the list."""
        for i, entry in enumerate(self.entries, 1):
            for j, move in enumerate(entry.moves, 1):
                if move.id == move_id:
                    return str(i) if entry.single else f"{i}.{j}"
        return "?"

    def pick(self, answer: str, opened: int | None = None) -> pb.LegalMove | int | None:
        """What a typed answer names: a move, a group to open (its index), or None. In an opened group a plain
        number is one of its moves."""
        answer = answer.strip()
        if re.fullmatch(r"\d+\.\d+", answer):
            i, j = (int(n) for n in answer.split("."))
            if 1 <= i <= len(self.entries) and 1 <= j <= len(self.entries[i - 1].moves):
                return self.entries[i - 1].moves[j - 1]
            return None
        if answer.isdigit():
            n = int(answer)
            if opened is not None:
                moves = self.entries[opened].moves
                return moves[n - 1] if 1 <= n <= len(moves) else None
            if 1 <= n <= len(self.entries):
                entry = self.entries[n - 1]
                return entry.moves[0] if entry.single else n - 1
            return None
        return next((m for m in self.state.legal_moves if m.id == answer), None)

    def choices(self, opened: int | None = None) -> str:
        """The numbers that may be typed, for an error message."""
        if opened is not None:
            return f"1-{len(self.entries[opened].moves)}, 0"
        return f"1-{len(self.entries)}"

    # --- lines ---

    def flat_lines(self, style: Style, width: int, room: int | None = None) -> list[str]:
        """One move a line with its id; in columns without the words they share when that is too long."""
        digits = len(str(len(self.entries)))
        lines = []
        for i, entry in enumerate(self.entries, 1):
            move = entry.moves[0]
            head = f"  {style.paint(str(i).rjust(digits), 'bold')}) {move.label}"
            tag = f"  {style.paint('[' + move.id + ']', 'dim')}"
            if visible(head + tag) <= width:
                lines.append(head + tag)
            else:
                lines += wrap(head, width, " " * (digits + 2))
        if room is not None and len(lines) > room:
            labels = [entry.moves[0].label for entry in self.entries]
            packed = columns([(f"{i})", text) for i, text in enumerate(shorten(labels), 1)], style, width)
            if len(packed) < len(lines):
                return packed
        return lines

    def flat_heading(self) -> str:
        """The words the flat list's labels share, when they are left out of the lines."""
        return common_words([entry.moves[0].label for entry in self.entries])

    def group_words(self) -> str:
        """The words all the groups' names begin with ("Play the"), left out of the cells, or ""."""
        common = common_words([entry.name for entry in self.entries])
        return common if all(entry.name != common for entry in self.entries) else ""

    def group_lines(self, style: Style, width: int) -> list[str]:
        common = self.group_words()
        cells = []
        for i, entry in enumerate(self.entries, 1):
            name = entry.name[len(common):].lstrip(" ,") if common else entry.name
            text = name if entry.single else f"{name} ({len(entry.moves)})"
            cells.append((f"{i})", text))
        return columns(cells, style, width)

    def item_lines(self, opened: int, style: Style, width: int) -> list[str]:
        labels = [move.label for move in self.entries[opened].moves]
        cells = [(f"{j})", text) for j, text in enumerate(shorten(labels), 1)]
        return columns(cells, style, width)


def common_words(labels: list[str]) -> str:
    """The words every label begins with ("You play the Warlord"), at least 8 characters, else ""; a number's
    noun stays with its number ("row 1", not "1")."""
    if len(labels) < 2:
        return ""
    common = labels[0]
    for label in labels[1:]:
        n = 0
        while n < min(len(common), len(label)) and common[n] == label[n]:
            n += 1
        common = common[:n]
    # back off to a word's end: the next character of every label is not a letter or digit
    while common and any(len(label) > len(common) and label[len(common)].isalnum() for label in labels):
        common = common[:-1]
    common = common.rstrip()
    if any(label[len(common):].strip()[:1].isdigit() for label in labels) and " " in common:
        common = common.rsplit(" ", 1)[0]
    return common if len(common) >= 8 else ""


def common_ending(labels: list[str]) -> str:
    """The words every label ends with (" to arena 2 as an assistant"), at least 8 characters, else ""."""
    reverse = common_words([label[::-1] + " " for label in labels])
    return (" " + reverse[::-1].strip()) if reverse.strip() else ""


def shorten(labels: list[str]) -> list[str]:
    """The labels without the words they all begin and end with ("…, attacking Bob", "…Hua…"); a label that is
    nothing but those words stays whole."""
    common = common_words(labels)
    if common:
        labels = [label if label == common else "…" + label[len(common):] for label in labels]
    ending = common_ending(labels)
    if ending and all(len(label) > len(ending) + 1 for label in labels):
        labels = [label[: -len(ending)].rstrip(" ,") + " …" for label in labels]
    return labels


def columns(cells: list[tuple[str, str]], style: Style, width: int) -> list[str]:
    """Numbered cells in as many columns as fit (read down, then across, each column as wide as its widest cell);
    one cell a line, wrapped, when two columns do not fit."""
    if not cells:
        return []
    tag = max(len(number) for number, _ in cells)
    texts = [f"{number.rjust(tag)} {text}" for number, text in cells]
    for across in range(min(len(texts), 8), 1, -1):
        rows = -(-len(texts) // across)
        if -(-len(texts) // rows) < across:
            continue  # as many rows with fewer columns: try those
        widths = [max(len(t) for t in texts[c * rows:(c + 1) * rows]) for c in range(across)]
        if sum(widths) + 2 * (across - 1) <= width - 2:
            lines = []
            for r in range(rows):
                parts = []
                for c in range(across):
                    k = c * rows + r
                    if k < len(texts):
                        text = texts[k].ljust(widths[c] + 2)
                        parts.append(style.paint(cells[k][0].rjust(tag), "bold") + text[tag:])
                lines.append(("  " + "".join(parts)).rstrip())
            return lines
    lines = []
    for (number, _), text in zip(cells, texts, strict=True):
        painted = "  " + style.paint(number.rjust(tag), "bold") + text[tag:]
        lines += wrap(painted, width, " " * (tag + 1))
    return lines


@dataclass
class Screen:
    """What one decision shows: `lines` (board, a head line, the moves), without the prompt below them."""

    lines: list[str]
    menu: Menu
    compact: bool


def size(width: int, height: int) -> tuple[int, int]:
    """The screen's size, 80 x 24 at the least."""
    return max(width, MIN_WIDTH), max(height, MIN_HEIGHT)


def decision(state: pb.GameState, style: Style, head: str, width: int = MIN_WIDTH, height: int = MIN_HEIGHT,
             menu: Menu | None = None, opened: int | None = None, boards=None, group_of=None) -> Screen:
    """The board (the full one if it fits, else the compact one) and the moves under `head`, in `height - 1`
    lines (the prompt takes the last) of at most `width` columns. A list that does not fit is grouped; `menu`
    keeps the numbering of an earlier step; `opened` lists one group's moves."""
    width, height = size(width, height)
    room = height - 1
    full, compact = boards if boards is not None else ([], [])
    candidates = [(b, c) for b, c in ((full, False), (compact, True)) if b and all(visible(x) <= width for x in b)]
    if not candidates:
        candidates = [([clip(x, width) for x in compact or full], True)]
    if menu is None:
        flat = Menu(state)
        smallest = candidates[-1][0]
        fits = len(smallest) + 1 + len(flat.flat_lines(style, width, room - len(smallest) - 1)) <= room
        grouped = Menu(state, grouped=True, group_of=group_of)
        menu = flat if fits or len(grouped.entries) < 2 else grouped
    if opened is not None:
        entry = menu.entries[opened]
        heading = f"{head} {entry.name} (0 = back)"
        moves = menu.item_lines(opened, style, width)
    elif menu.grouped:
        common = menu.group_words()
        heading = f"{head} {common + ' … ' if common else ''}(pick a group)"
        moves = menu.group_lines(style, width)
    else:
        moves = menu.flat_lines(style, width)
        heading = head
        for board, _ in candidates[::-1]:
            packed = menu.flat_lines(style, width, room - len(board) - 1)
            if len(packed) < len(moves):
                moves, heading = packed, f"{head} {menu.flat_heading()} …"
                break
    heading_lines = wrap(heading, width)
    for board, is_compact in candidates:
        if len(board) + len(heading_lines) + len(moves) <= room:
            return Screen([*board, *heading_lines, *moves], menu, is_compact)
    board, is_compact = candidates[-1]
    return Screen([*board, *heading_lines, *moves], menu, is_compact)
