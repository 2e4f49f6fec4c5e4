"""The web table is accessible and fits the screen (issue 28, items 6 and 3), in a real headless Chromium against a
local stack of its own (clients/web/tests/a11y_layout.mjs): on the lobby and on a table of each of the four games, at
1280x800 and at 390x844, axe-core (injected into the page) finds no serious or critical violation, the rules and card
table opened too; every control has a name; a control reached with the Tab key shows a focus ring; no colour is the
only cue (Hinode's suits and resources carry a shape and a word); the hand and the moves are on screen with the page
at its top (a panel that sticks to the bottom of the screen while the board scrolls above it), and the page never
overflows sideways. With TABLETOP_SCREENSHOTS=1 it also rewrites the screenshots of docs/frontends.md (docs/img/);
otherwise it writes no file. Without Node.js, the build, axe-core or Chromium it skips, saying what is missing."""

from __future__ import annotations

import pytest

from tests.frontends.test_frontends import run_page_script

# A stack, a browser, node: none of it in the fast tier (make test-fast starts no process).
pytestmark = pytest.mark.integration

GAMES = ["naishi", "hinode", "zipang", "kung-fur-fight"]
SIZES = ["desktop", "phone"]


@pytest.fixture(scope="module")
def seen(tmp_path_factory) -> dict:
    return run_page_script(tmp_path_factory, "a11y_layout.mjs", timeout=900)


@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_no_serious_violation_and_every_control_has_a_name_in_the_lobby(seen, size):
    assert seen["lobby"][size]["axe"] == []
    assert seen["lobby"][size]["unnamed"] == []


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_axe_finds_no_serious_violation_on_the_table(seen, game, size):
    table = seen["games"][f"{game}@{size}"]
    assert table["axe"] == [], table["axe"]
    assert table["axeOpened"] == [], table["axeOpened"]  # the rules and the card table opened
    assert table["unnamed"] == [], table["unnamed"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_focus_is_visible_and_colour_is_never_the_only_cue(seen, game, size):
    table = seen["games"][f"{game}@{size}"]
    # the first move reached with Tab: an outline of its own, not the browser's thin default
    assert table["focus"] and table["focus"]["style"] != "none" and table["focus"]["width"] >= 2, table["focus"]
    assert table["colourOnly"] == [], table["colourOnly"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_hand_and_the_moves_are_on_screen_and_the_page_does_not_overflow_sideways(seen, game, size):
    layout = seen["games"][f"{game}@{size}"]["layout"]
    width, _ = layout["viewport"]
    assert layout["panelFits"], layout  # the whole moves panel within the viewport, the page at its top
    assert layout["moveFits"], layout   # and a move to click inside it
    assert layout["handFits"], layout   # the hand too
    assert layout["pageWidth"] <= width, layout
    assert layout["wrappedRows"] == [], layout  # Naishi's rows of 5 stay one row, on a phone too


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_the_seats_score_and_log_are_folded_and_open_on_a_laptop(seen, game):
    assert seen["games"][f"{game}@phone"]["folds"] == [["seats", False], ["score", False], ["log", False]]
    assert seen["games"][f"{game}@desktop"]["folds"] == [["seats", True], ["score", True], ["log", True]]
