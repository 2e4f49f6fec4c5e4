"""Every game is played by pointing (issue 28, item 2 and its "done when"), in a real headless Chromium against a
local stack of its own (clients/web/tests/click_play.mjs): one game of each of the four games against an easy AI, at
1280x800 and at 390x844, played to its end with a score by clicking the cards and places the board highlights (one
of three with the keyboard), a move button only where no card or place stands for any move; every element clicked
within reach without scrolling past the board (the rule is stated in click_play.mjs); Escape cancels a choice half
made; axe-core finds no serious or critical violation with the highlights shown and with a choice half made; a
highlighted card reached with Tab is a named button with a focus ring. With TABLETOP_SCREENSHOTS=1 it also rewrites
the screenshots of a choice half made in docs/frontends.md (docs/img/); otherwise it writes no file. Without Node.js,
the build, axe-core or Chromium it skips, saying what is missing."""

from __future__ import annotations

import re

import pytest

from tests.frontends.test_frontends import run_page_script

# A stack, a browser, node: none of it in the fast tier (make test-fast starts no process).
pytestmark = pytest.mark.integration

GAMES = ["naishi", "hinode", "zipang", "kung-fur-fight"]
SIZES = ["desktop", "phone"]

# The moves no card or place of the board stands for, by game (the labels the service sends the seat): the only
# ones a move button may be needed for.
BUTTON_ONLY = {
    "naishi": r"You (end your turn|declare the end|recall your Emissaries)",
    "hinode": r"You choose the tribe",
    "zipang": r"You (block|defend|let|take no card)",
    "kung-fur-fight": r"You (finish your plan|use your Reinforcements|decline|add \d+ Hidden Weapon|spend|leave"
                      r"|use your Head Chef|eat)",
}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    return run_page_script(tmp_path_factory, "click_play.mjs", timeout=1200)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_played_to_its_end_by_clicking_the_board(played, game, size):
    seen = played["games"][f"{game}@{size}"]
    assert seen["status"] == "FINISHED", seen
    assert len(seen["totals"]) == 2 and all(t.strip().lstrip("-").isdigit() for t in seen["totals"]), seen["totals"]
    assert seen["refused"] == [], seen["refused"]
    # moves are chosen on the board; a button only where no card or place was lit, for a move no card stands for
    assert seen["boardClicks"] > 0, seen
    assert seen["pointedWithoutTarget"] == [], seen  # a move a card stands for always had its card lit
    assert all(re.match(BUTTON_ONLY[game], label) for label in seen["fallbackLabels"]), seen["fallbackLabels"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_element_clicked_is_within_reach_without_scrolling_past_the_board(played, game, size):
    assert played["games"][f"{game}@{size}"]["unreachable"] == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_highlights_pass_axe_and_the_keyboard_reaches_and_cancels_them(played, game, size):
    seen = played["games"][f"{game}@{size}"]
    assert seen["axe"] == [], seen["axe"]
    assert seen["axeChoosing"] in ([], None), seen["axeChoosing"]  # None: no choice of several parts came up
    focus = seen["focus"]
    assert focus and focus["role"] == "button" and focus["name"], focus
    assert focus["style"] != "none" and focus["width"] >= 2, focus
    assert seen["escape"] in (True, None), seen  # None: no choice of several parts came up


@pytest.mark.parametrize("size", SIZES)
def test_the_keyboard_chose_moves_at_each_size(played, size):
    assert sum(played["games"][f"{game}@{size}"]["keyboard"] for game in GAMES) > 0


def test_choices_of_several_parts_came_up_and_escape_cancelled_them(played):
    # Naishi's switches and Kung Fur Fight's animals (a card, then an arena) are choices of several parts.
    for game in ("naishi", "kung-fur-fight"):
        for size in SIZES:
            seen = played["games"][f"{game}@{size}"]
            assert seen["escape"] is True, (game, size, seen)
            assert seen["axeChoosing"] == [], (game, size, seen["axeChoosing"])
