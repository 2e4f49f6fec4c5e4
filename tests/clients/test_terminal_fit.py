"""`tabletop play` on an 80 x 24 terminal (issue 26, items 10 and 12): a hint is a page that leaves the move list on
the screen, with `h` again for more; a line too long for the screen is cut at a word's end with an ellipsis;
leaving or resigning is told in one truthful message (no watch command for a stack that is stopping, no "it goes
on" for a game that is over); the seat's default name is the service's "Player N", never "You"."""

from __future__ import annotations

import re

import pytest

from clients import render
from clients.render import Style
from tabletop.client import connect
from tabletop.terminal import screen
from tabletop.terminal.table import render_suggestion
from tabletop.v1 import game_service_pb2 as pb
from tests.clients.conftest import REPO, client_env, tabletop
from tests.clients.pty_driver import Terminal, screen_rows
from tests.clients.test_play_terminal import PROMPT
from tests.clients.test_screen import positions

CANDIDATE = re.compile(r"^\s+\*?\s+([\d.?]+)\s+(\d+)%\s+(\d+)%\s+\S", re.M)
GAMES = [("hinode", 4, {}), ("naishi", 2, {}), ("zipang", 5, {}), ("kung-fur-fight", 2, {})]


# --- lines cut at a word's end --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_type", "seats", "options"), GAMES)
def test_a_line_too_long_is_cut_at_a_word_end_with_an_ellipsis(game_type, seats, options):
    """Every line of every board (the full and the compact drawings, in every position of a random game), cut to
    80 or 40 columns: it fits, and a cut line is the start of the line up to a word's end, then "…" (inside a
    word only when the first word alone is too long)."""
    cut = 0
    for message in positions(game_type, seats, options, games=1):
        lines = render.render_state(message, Style()) + render.render_compact(message, Style(), 80)
        for line in lines:
            plain = screen.ANSI.sub("", line)
            for width in (80, 40):
                shown = screen.clip(line, width)
                assert screen.visible(shown) <= width, shown
                if shown == line:
                    continue
                cut += 1
                kept = shown.removesuffix("…")
                assert shown.endswith("…") and plain.startswith(kept), (plain, shown)
                first_word_too_long = " " not in kept.strip()  # the only cut left: inside that word
                assert plain[len(kept)] in " ,;:" or first_word_too_long, f"cut inside a word: {shown!r} from {plain!r}"
    assert cut, "some lines were long enough to cut"


def test_clip_keeps_a_line_that_fits_and_cuts_a_single_long_word_where_it_must():
    assert screen.clip("  On the table: P3 Hero", 80) == "  On the table: P3 Hero"
    assert screen.clip("  On the table: P3 Hero declaring blue (14, follows); P4 blue 7", 40) == (
        "  On the table: P3 Hero declaring blue…")
    assert screen.clip("x" * 100, 10) == "x" * 9 + "…"


# --- a hint is a page --------------------------------------------------------------------------------------------


def suggestion_for(state: pb.GameState, many: int) -> pb.SuggestMoveResponse:
    moves = state.legal_moves[:many]
    candidates = [pb.CandidateMove(move_id=m.id, label=m.label + " and a long tail of words " * 2,
                                   visits=100 - i, win_rate=0.5) for i, m in enumerate(moves)]
    return pb.SuggestMoveResponse(best_move_id=moves[0].id, best_move_label=moves[0].label, candidates=candidates)


def test_a_hint_lists_one_page_of_candidates_wrapped_at_the_screen_width():
    state = next(m for m in positions("naishi", 2, {}) if len(m.legal_moves) > 40)
    suggestion = suggestion_for(state, 40)
    first = render_suggestion(suggestion, state, Style(), first=0, count=5, width=80)
    assert first[0].startswith("Hint: ") and len(CANDIDATE.findall("\n".join(first))) == 5
    page = render_suggestion(suggestion, state, Style(), first=5, count=5, width=80)
    rows = CANDIDATE.findall("\n".join(page))
    assert [number for number, _, _ in rows] == ["6", "7", "8", "9", "10"], page
    assert all(screen.visible(line) <= 80 for line in page), page
    assert "and a long tail of words and a long tail of words" in " ".join(" ".join(page).split()), page
    assert not page[0].startswith("Hint: ")  # a later page: the candidates without the head again
    assert len(render_suggestion(suggestion, state, Style())) == 2 + 40  # all of them when not paged


# --- in a real pty of 80 x 24 --------------------------------------------------------------------------------------


def play_until_a_long_list(term: Terminal, text: str) -> str:
    """Answer move 1 until a decision's list is grouped (a Naishi turn has about 47 moves); its screen."""
    for _ in range(20):
        if "(pick a group)" in text:
            return text
        term.type("1")
        which, text = term.expect(PROMPT, r"The game is over\.", timeout=60)
        assert which == 0, "the game ended before a long list came up"
    raise AssertionError("no long list in 20 decisions")


def test_a_hint_fits_the_screen_and_h_again_pages_and_the_default_name_is_not_you(stack):
    argv = tabletop("play", "naishi", "--target", stack.target, "--seats", "human,ai:easy", "--hint-strength",
                    "easy")
    term = Terminal(argv, client_env(NO_COLOR="1"), cwd=REPO, rows=24, columns=80)
    try:
        _, first = term.expect(PROMPT, timeout=60)
        assert "You are seat 1 (Player 1)." in first, first
        game_id = re.search(r"Game (\S+):", first).group(1)
        with connect(stack.target) as spectator:  # what the other players read: the seat's name, not "You"
            names = [seat.name for seat in spectator.state(game_id).seats]
        assert names == ["Player 1", "AI 2"], names

        play_until_a_long_list(term, first)
        term.type("h")
        _, hint = term.expect(PROMPT, timeout=60)
        hint = hint[hint.index("thinking"):]
        rows = screen_rows(hint)
        assert len(rows) <= 17, "a hint is a page, well within the screen:\n" + hint
        assert all(len(line) <= 80 for line in hint.split("\n")), hint
        shown = CANDIDATE.findall(hint)
        assert 2 <= len(shown) <= 5, hint
        more = re.search(r"candidates 1-(\d+) of (\d+); h again shows the next (\d+)", hint)
        assert more and int(more.group(1)) == len(shown) == 5 and int(more.group(2)) > 5, hint

        term.type("h")  # the next page of the same search: no new search
        _, again = term.expect(PROMPT, timeout=60)
        assert "thinking" not in again and "candidates 6-" in again, again
        assert 1 <= len(CANDIDATE.findall(again)) <= 5 and not set(CANDIDATE.findall(again)) & set(shown), again

        term.type("q")  # resigning a 2-seat game ends it: said once, with the final score
        term.expect(r"l = leave .* r = resign", timeout=30)
        term.type("r")
        term.expect(r"ranking: .+\n", timeout=30)
        assert term.wait(timeout=30) == 0
        end = term.screen[term.screen.rindex("r = resign"):]
        assert "You resigned." in end and "The game is over." in end and "Final score" in end, end
        assert "goes on" not in end and "Score so far" not in end and "tabletop watch" not in end, end
    finally:
        term.close()


def test_leaving_a_game_on_a_running_service_tells_how_to_follow_it(stack):
    argv = tabletop("play", "naishi", "--target", stack.target, "--seats", "human,ai:easy")
    term = Terminal(argv, client_env(NO_COLOR="1"), cwd=REPO)
    try:
        _, first = term.expect(PROMPT, timeout=60)
        game_id = re.search(r"Game (\S+):", first).group(1)
        term.type("q")
        term.expect(r"l = leave .* r = resign", timeout=30)
        term.type("l")
        assert term.wait(timeout=30) == 0
        end = term.screen[term.screen.rindex("r = resign"):]
        assert "You left: the AI plays your seat from now on." in end, end
        assert f"tabletop watch {game_id} --target {stack.target}" in end and "Score so far" in end, end
    finally:
        term.close()


@pytest.mark.integration  # it starts a whole local stack
def test_leaving_with_the_stack_it_started_prints_no_watch_command_for_it():
    argv = tabletop("play", "naishi", "--seats", "human,ai:easy", "--name", "Ann")
    term = Terminal(argv, client_env(NO_COLOR="1"), cwd=REPO)
    try:
        _, first = term.expect(PROMPT, timeout=120)
        assert "You are seat 1 (Ann)." in first and "Others may watch it while you play:" in first, first
        term.type("q")
        term.expect(r"l = leave \(the game stops with the local stack\), r = resign", timeout=30)
        term.type("l")
        assert term.wait(timeout=60) == 0
        end = term.screen[term.screen.rindex("r = resign"):]
        assert "You left. The game ends here: the local stack this command started stops now." in end, end
        assert "tabletop watch" not in end and "goes on" not in end and "AI plays your seat" not in end, end
    finally:
        term.close()
