"""`tabletop play` driven as a person would: in a real pseudo-terminal, reading the screen and typing keys."""

from __future__ import annotations

import re

import pytest

from tests.clients.conftest import REPO, client_env, tabletop
from tests.clients.pty_driver import Terminal, screen_rows

PROMPT = r"f full board, q quit\] > "
# the first line of a board: the full one or the compact one, of each built-in game
BOARD = re.compile(r"^(Top of the Hinode Town|Hinode|Naishi|Zipang Portable|Kung Fur Fight)  ", re.M)


def final_table(screen: str) -> tuple[list[str], dict[str, list[int]]]:
    """The final score table on the screen: its category rows (name -> points per seat) and the total row."""
    block = screen[screen.rindex("Final score"):].splitlines()
    header = block[1]
    seats = len(re.findall(r"\S+", header)) - 1  # at least one word per seat name after "category"
    rows: dict[str, list[int]] = {}
    for line in block[2:]:
        if line.strip().startswith("ranking:"):
            break
        match = re.match(r"\s+(.+?)((?:\s+-?\d+)+)\s*$", line)
        assert match, f"not a score row: {line!r}"
        rows[match.group(1).strip()] = [int(n) for n in match.group(2).split()]
    totals = rows.pop("total")
    assert all(len(points) == len(totals) for points in rows.values()) and len(totals) <= seats
    return list(rows), {"total": totals, **rows}


def play_to_the_end(term: Terminal, first_prompt_seen: bool = False) -> int:
    """Answer every prompt with move 1 until the game is over; return how many moves were typed."""
    typed = 0
    if not first_prompt_seen:
        term.expect(PROMPT, timeout=60)
    while True:
        term.type("1")
        typed += 1
        which, _ = term.expect(PROMPT, r"The game is over\.", timeout=60)
        if which == 1:
            return typed


def assert_breakdown_adds_up(screen: str) -> None:
    categories, table = final_table(screen)
    assert categories
    for seat, total in enumerate(table["total"]):
        assert sum(table[c][seat] for c in categories) == total


@pytest.mark.integration  # it starts processes
def test_play_hinode_self_contained_with_hint_score_and_final_breakdown():
    # No --target: the command starts its own Redis, game service and AI worker, and stops them at the end.
    argv = tabletop("play", "hinode", "--seats", "human,ai:easy,ai:easy,ai:easy", "--name", "Tester",
                    "--hint-strength", "easy")
    env = client_env()
    env.pop("NO_COLOR", None)
    term = Terminal(argv, env, cwd=REPO)
    try:
        _, board = term.expect(PROMPT, timeout=90)
        assert "Hinode" in board and "Bonus" in board and re.search(r"\n\s+P4 ", board), "the town, the positions"
        assert re.search(r"Your hand: .*Hero", board), "your hand is shown, with your Hero"
        assert "Your move:" in board and re.search(r"\n\s+1\) You choose the tribe", board)

        while not re.search(r"\n\s+2\) ", board):  # a hint is worth asking with a choice to make
            term.type("1")
            _, board = term.expect(PROMPT, timeout=60)
        term.type("h")
        _, hint = term.expect(PROMPT)
        assert "Hint: " in hint
        assert "searched" in hint and "chance to win" in hint and re.search(r"wins about \d+%", hint)
        while "h again shows the next" in hint.rsplit("searched", 1)[-1]:
            term.type("h")  # a hint is paged: the next candidates of the same search
            _, more = term.expect(PROMPT)
            hint += more
        candidates = re.findall(r"^\s+\*?\s+([\d.]+)\s+(\d+)%\s+(\d+)%\s+\S", hint, re.M)
        assert len(candidates) >= 2, hint  # every candidate with its move number, share of the search, win chance
        shares = [int(share) for _, share, _ in candidates]
        assert shares == sorted(shares, reverse=True) and 90 <= sum(shares) <= 110, hint  # most searched first
        assert all(0 <= int(chance) <= 100 for _, _, chance in candidates)

        term.type("s")
        _, score = term.expect(PROMPT)
        assert "Score so far" in score and re.search(r"\n\s+total\s", score)

        term.type("b")
        _, again = term.expect(PROMPT)
        assert "Bonus" in again and "Your move:" in again

        term.type("?")
        _, legend = term.expect(PROMPT)
        assert "Legend (Top of the Hinode Town)" in legend and "r2 b1 y0" in legend

        term.type("f")
        _, full = term.expect(PROMPT)
        assert "Top of the Hinode Town  game" in full and "Positions:" in full

        play_to_the_end(term, first_prompt_seen=True)
        term.expect(r"ranking: .+\n", timeout=30)
        assert term.wait(timeout=60) == 0
        screen = term.screen
        assert re.search(r"v\d+ AI \d plays the ", screen), "what the others did is told"
        assert re.search(r"Trick \d judged: 1st", screen)
        assert "Final score" in screen
        assert_breakdown_adds_up(screen)
        assert "\x1b[" in term.raw, "a terminal gets colours"
    finally:
        term.close()


def test_play_naishi_against_a_running_service_without_colours(stack):
    argv = tabletop("play", "naishi", "--target", stack.target, "--seats", "ai:easy,human", "--name", "Tester",
                    "--hint-strength", "easy")
    term = Terminal(argv, client_env(NO_COLOR="1"), cwd=REPO)
    try:
        _, first = term.expect(PROMPT, timeout=60)
        assert "Naishi" in first and "You give your" in first and "You are seat 2 (Tester)" in first
        typed = play_to_the_end(term, first_prompt_seen=True)
        assert typed >= 3
        term.expect(r"ranking: .+\n", timeout=30)
        assert term.wait(timeout=30) == 0
        screen = term.screen
        assert "River:" in screen and "Line:" in screen and "Hand:" in screen and "Imperial Court" in screen
        assert "Tester (you)" in screen
        assert "The game is over; both Hands are revealed." in screen
        assert_breakdown_adds_up(screen)
        assert "\x1b[" not in term.raw, "NO_COLOR turns colours off"
    finally:
        term.close()


@pytest.mark.parametrize("choice,said", [("l", r"You left: the AI plays your seat from now on\."),
                                         ("r", r"You resigned\.")])
def test_quit_asks_whether_to_leave_or_resign_then_shows_the_score(stack, choice, said):
    argv = tabletop("play", "naishi", "--target", stack.target, "--seats", "human,ai:easy", "--hint-strength", "easy",
                    "--turn-seconds", "600")
    term = Terminal(argv, client_env(NO_COLOR="1"), cwd=REPO)
    try:
        _, first = term.expect(PROMPT, timeout=60)
        assert re.search(r"Your move: \(\d+ s left, then the AI moves for you\)", first), "the countdown"
        term.type("q")
        term.expect(r"l = leave .* r = resign", timeout=30)
        term.type("x")  # anything else: stay
        term.expect(PROMPT, timeout=30)
        term.type("q")
        term.expect(r"l = leave .* r = resign", timeout=30)
        term.type(choice)
        term.expect(said, timeout=30)
        assert term.wait(timeout=30) == 0
        assert "Score so far" in term.screen or "Final score" in term.screen
    finally:
        term.close()


def one_screen(text: str) -> list[str]:
    """The rows from the last board's first line to the prompt, as an 80 x 24 screen shows them: they must all be
    on the screen at once (24 rows, the prompt's included), so the board has not scrolled away."""
    starts = list(BOARD.finditer(text))
    assert starts, f"no board before the prompt:\n{text[-2000:]}"
    block = text[starts[-1].start():]
    rows = screen_rows(block)  # up to the end of the prompt, its last row
    assert len(rows) <= 24, f"{len(rows)} rows:\n{block}"
    assert all(len(line) <= 80 for line in block.split("\n")), "a line wider than 80 columns:\n" + block
    assert "Your move:" in block
    return rows


GAMES = [("hinode", "human,ai:easy,ai:easy,ai:easy"), ("naishi", "human,ai:easy"),
         ("zipang", "human,ai:easy,ai:easy,ai:easy,ai:easy"), ("kung-fur-fight", "human,ai:easy")]


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_on_80_by_24_the_board_and_the_moves_stay_on_one_screen(stack, game, seats):
    """The must-show: in a real pty of 80 x 24, every decision's board and move list (or list of groups, or one
    group's moves) fit on the screen together, in every built-in game; several decisions, one through a group
    (a game that ends before a long list comes up is followed by another)."""
    decisions = grouped = 0
    for _ in range(4):
        more_decisions, more_groups = decide_on_80_by_24(stack, game, seats)
        decisions, grouped = decisions + more_decisions, grouped + more_groups
        if decisions >= 4 and grouped:
            break
    assert decisions >= 4 and grouped, (decisions, grouped)


def decide_on_80_by_24(stack, game: str, seats: str) -> tuple[int, int]:
    """One game in a pty of 80 x 24: decide until 4 decisions and one grouped list (then resign) or the end;
    return (decisions, groups opened)."""
    env = client_env(NO_COLOR="1")
    for name in ("COLUMNS", "LINES"):
        env.pop(name, None)
    argv = tabletop("play", game, "--target", stack.target, "--seats", seats, "--name", "Tester")
    term = Terminal(argv, env, cwd=REPO, rows=24, columns=80)
    decisions = grouped = 0
    try:
        _, text = term.expect(PROMPT, timeout=60)
        while decisions < 40 and (decisions < 4 or not grouped):
            one_screen(text)
            if "(pick a group)" in text:
                groups = text[text.rindex("(pick a group)"):]
                cells = [cell.strip() for row in groups.splitlines() for cell in re.split(r" {2,}", row)]
                first = next(m for c in cells if (m := re.fullmatch(r"(\d+)\) .*\(\d+\)", c)))  # "3) Develop (10)"
                term.type(first.group(1))  # open it: the board again, with that group's moves
                _, opened = term.expect(PROMPT, timeout=30)
                rows = one_screen(opened)
                assert any("(0 = back)" in row for row in rows), groups + "\n---\n" + opened
                grouped += 1
            term.type("1")
            decisions += 1
            which, text = term.expect(PROMPT, r"The game is over\.", timeout=60)
            if which == 1:
                break
        else:
            term.type("q")
            term.expect(r"l = leave .* r = resign", timeout=30)
            term.type("r")
            term.expect(r"You resigned\.", timeout=30)
        assert term.wait(timeout=60) == 0
        return decisions, grouped
    finally:
        term.close()
