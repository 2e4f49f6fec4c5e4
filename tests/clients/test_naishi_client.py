"""The terminal client reads Naishi's typed view (tabletop.v1.NaishiView) and shows a seat what it may know: its Hand in
order, both Lines, the opponent's hidden Hand slot by slot with the cards known to be in it, the River, the Imperial
Court, and the score so far; `tabletop demo naishi --seed 7 --json` prints a finished game that adds up."""

from __future__ import annotations

import json
import random
import re

import pytest

from clients import render
from clients.render import Style
from games import registry, wire
from games.naishi.data import NAMES
from games.naishi.scoring import CATEGORY_NAMES
from tests.clients.test_demo import assert_finished_game, run
from tests.clients.test_render import game_state

GAME = registry.get("naishi")


def _states(games: int, seed: int):
    rng = random.Random(seed)
    for number in range(games):
        state = GAME.new_game(2, {}, seed=number)
        while True:
            yield state
            if GAME.is_over(state):
                break
            seat = min(GAME.to_act(state))
            state = GAME.apply(state, seat, rng.choice(list(GAME.legal_moves(state, seat))))


def _mid_game(seed: int = 3):
    """A position some turns in, where seat 0 knows a card of seat 1's Hand from the River."""
    for state in _states(10, seed):
        if state.phase == "turn" and any(card is not None for card in state.knowledge[0].slots):
            return state
    raise AssertionError("no such position")


def test_a_seat_sees_its_hand_both_lines_what_it_knows_of_the_other_hand_the_river_and_the_court():
    state = _mid_game()
    screen = "\n".join(render.render_state(game_state("naishi", GAME, state, 0, 2, 1), Style()))
    rows = screen.splitlines()

    def row(title: str, after: str) -> str:
        start = next(i for i, line in enumerate(rows) if line.strip().startswith(after))
        return next(line for line in rows[start:] if line.strip().startswith(title))

    def names(line: str) -> list[str]:
        """The cards of a row: 13 characters of title, then one 12-character column per position."""
        cards = line[13:]
        return [cards[i : i + 12].strip() for i in range(0, len(cards), 12)]

    assert "Player0 (you)" in screen
    own_hand = row("Hand:", "Player0 (you)")
    assert [n[:11] for n in names(own_hand)] == [NAMES[c][:11] for c in state.hands[0]], "your Hand, in order"
    for owner in (0, 1):
        line = row("Line:", f"Player{owner}")
        assert [n[:11] for n in names(line)] == [NAMES[c][:11] for c in state.lines[owner]]
    their_hand = names(row("Hand:", "Player1"))
    known = state.knowledge[0]  # what seat 0 knows of Hand 1
    assert len(their_hand) == 5
    for slot, shown in zip(known.slots, their_hand, strict=True):
        assert shown == ("?" if slot is None else NAMES[slot][:11])
    if known.among:
        assert "(among the ?: " + ", ".join(NAMES[c] for c in known.among) + ")" in screen
    river = names(row("River:", "River:").split("   piles:")[0])
    assert river == [NAMES[top[0]][:11] if top else "(empty)" for top in state.piles]
    assert "Imperial Court: switch 1:" in screen and "decree:" in screen


def test_the_score_so_far_is_the_scorepad():
    state = _mid_game()
    message = game_state("naishi", GAME, state, 0, 2, 1)
    score = wire.score_to_proto(GAME, GAME.score(state), 1)
    table = "\n".join(render.render_score(score, message, Style()))
    for category in CATEGORY_NAMES:
        assert category in table
    assert re.search(r"\n\s+total\s", table)


@pytest.mark.integration  # it starts processes
def test_demo_naishi_seed_7_json_self_contained():
    # No --target: the demo starts its own stack and stops it; --seed fixes the deal of this all-AI game.
    done = run("demo", "naishi", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, "--json prints one JSON object and nothing else"
    summary = json.loads(lines[0])
    assert_finished_game(summary, "naishi")
    for seat in summary["scores"]:
        assert list(seat["breakdown"]) == list(CATEGORY_NAMES), "the scorepad's rows, in order"
