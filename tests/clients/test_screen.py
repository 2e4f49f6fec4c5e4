"""One decision on an 80 x 24 screen (tabletop/terminal/screen.py): for every built-in game, in every position of
random games, the board and the move list (or the list of groups, or one group's moves) fit in 23 lines of at
most 80 columns, the prompt taking the 24th; every move keeps one number, typed at any step; the legend exists."""

from __future__ import annotations

import random

import pytest

from clients import render
from clients.render import Style
from games import registry
from tabletop.terminal import screen
from tests.clients.test_render import game_state

GAMES = [("hinode", 4, {}), ("hinode", 3, {"advanced": True}), ("naishi", 2, {}), ("zipang", 5, {}),
         ("zipang", 3, {}), ("kung-fur-fight", 2, {})]
HEAD = "Your move: (25 s left, then the AI moves for you)"


def fits(lines: list[str], width: int = 80, height: int = 23) -> None:
    too_wide = [line for line in lines if screen.visible(line) > width]
    assert not too_wide, too_wide
    assert len(lines) <= height, "\n".join(lines)


def positions(game_type: str, seats: int, options: dict, games: int = 2):
    """(message, state) for the seat to act, in every position of a few random games."""
    game = registry.get(game_type)
    for number in range(games):
        rng = random.Random(number)
        state = game.new_game(seats, options, seed=number)
        version = 1
        while not game.is_over(state):
            seat = min(game.to_act(state))
            yield game_state(game_type, game, state, seat, seats, version)
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
            version += 1


@pytest.mark.parametrize(("game_type", "seats", "options"), GAMES)
def test_the_board_and_the_moves_fit_on_80_by_24_in_every_position(game_type, seats, options):
    style = Style(colour=True)
    grouped = 0
    for message in positions(game_type, seats, options):
        shown = render.decision_screen(message, style, HEAD, 80, 24)
        fits(shown.lines)
        menu = shown.menu
        assert sorted(m.id for e in menu.entries for m in e.moves) == sorted(m.id for m in message.legal_moves)
        if menu.grouped:
            grouped += 1
            for opened, entry in enumerate(menu.entries):
                if not entry.single:
                    fits(render.decision_screen(message, style, HEAD, 80, 24, menu=menu, opened=opened).lines)
        for move in message.legal_moves:  # each move's number names it, at the first step and in any group
            number = menu.number(move.id)
            assert menu.pick(number) == move
            assert menu.pick(move.id) == move
    if game_type == "naishi":
        assert grouped, "a Naishi turn's long list is grouped"


@pytest.mark.parametrize(("game_type", "seats", "options"), GAMES[::2] + [GAMES[-1]])
def test_every_game_has_a_legend_and_a_compact_board_within_80_columns(game_type, seats, options):
    message = next(positions(game_type, seats, options, games=1))
    assert len(render.legend(message)) >= 3
    fits(render.legend(message), height=23)
    fits(render.render_compact(message, Style()), height=16)


def test_a_short_list_stays_flat_and_a_long_one_is_grouped_with_numbers_for_both_steps():
    game = registry.get("naishi")
    long = next(m for m in positions("naishi", 2, {}) if len(m.legal_moves) > 40)
    shown = render.decision_screen(long, Style(), "Your move:")
    menu = shown.menu
    assert menu.grouped and len(menu.entries) < 15
    develop = next(i for i, e in enumerate(menu.entries) if e.name == "Develop")
    assert menu.pick(str(develop + 1)) == develop  # a group's number opens it
    first = menu.entries[develop].moves[0]
    assert menu.pick("1", opened=develop) == first and menu.number(first.id) == f"{develop + 1}.1"
    assert menu.pick(f"{develop + 1}.1") == first
    assert menu.pick("99") is None and menu.pick(f"{develop + 1}.99") is None
    listed = render.decision_screen(long, Style(), "Your move:", menu=menu, opened=develop).lines
    assert any("Your move: Develop (0 = back)" in line for line in listed)
    short = next(m for m in positions("naishi", 2, {}) if 1 < len(m.legal_moves) < 5)
    assert not render.decision_screen(short, Style(), "Your move:").menu.grouped
    assert game.info.name == "naishi"


def test_a_group_lists_its_moves_without_the_words_they_share():
    assert screen.shorten(["You play the Warlord without attacking", "You play the Warlord, attacking Bob"]) == [
        "… without attacking", "…, attacking Bob"]
    assert screen.shorten(["You play the red 5", "You play the red 5 with a red resource"]) == [
        "You play the red 5", "… with a red resource"]
