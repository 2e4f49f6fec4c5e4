"""Naishi's text renderer (games/naishi/render.py) reads only the public NaishiView: the board in card names, the
Imperial Court, the opponent's hidden Hand as '?', and what happened between two views in words."""

from __future__ import annotations

from clients.render import render_state
from games.naishi.data import NAMES
from games.naishi.engine import GAME
from games.naishi.moves import Decree, Develop, DiscardRiver, EndTurn, Recall, Switch
from tabletop.terminal.style import Style
from tests.naishi.positions import MOUNTAINS, B, F, H, K, M, N, S, T, position
from tests.support.screens import Screens

SEATS = ("Ann", "Bob")


SCREENS = Screens(GAME, SEATS)
game_state, board, said = SCREENS.game_state, SCREENS.board, SCREENS.said


def row(text: str, label: str) -> list[str]:
    """The cards on the board's lines starting with `label` ('River:', 'Line:', 'Hand:')."""
    return [line.split(label, 1)[1].split() for line in text.splitlines() if line.strip().startswith(label)]


ANN_HAND = (K, M, N, M, H)
BOB_HAND = (M, F, M, B, M)
START = position(hands=(ANN_HAND, BOB_HAND), lines=((S, M, M, M, T), MOUNTAINS))


def test_a_seat_sees_the_river_both_lines_its_hand_and_question_marks_for_the_other_hand():
    text = board(START, 0)
    assert row(text, "River:") == [["Naishi", "Advisor", "Sentinel", "Monk", "Horseman", "piles:", "6", "6", "6", "6",
                                    "6"]]
    assert row(text, "Line:") == [["Sentinel", "Mountain", "Mountain", "Mountain", "Torii"], ["Mountain"] * 5]
    assert row(text, "Hand:") == [["Monk", "Mountain", "Naishi", "Mountain", "Horseman"], ["?"] * 5]
    assert "Ann (you)" in text and "Bob (you)" not in text
    assert "Turn: Ann" in text


def test_a_spectator_sees_no_hand():
    text = board(START, None)
    assert row(text, "Hand:") == [["?"] * 5, ["?"] * 5]
    assert "(you)" not in text


def test_the_court_shows_each_space_by_kind_and_whose_emissary_is_on_it():
    state = position(court=(0, None, None, 1, None, 0))
    text = board(state, 1)
    assert ("Imperial Court: switch 1: Ann, switch 2: -, switch 3: -, discard 1: Bob, discard 2: -, decree: Ann"
            in text)


def test_what_the_viewer_knows_of_the_hidden_hand_is_shown_in_place():
    """"Take the corresponding card from the River, IN THE SAME POSITION": the card taken into the Hand is seen."""
    state = GAME.apply(START, 0, Develop("hand", 1))  # Ann takes the Advisor into her Hand's 2nd position
    assert row(board(state, 1), "Hand:")[0] == ["?", "Advisor", "?", "?", "?"]
    assert row(board(state, None), "Hand:")[0] == ["?", "Advisor", "?", "?", "?"]


def test_the_gift_knowledge_is_told_as_the_cards_among_the_unknown_places():
    state = GAME.new_game(2, {}, 9)
    for seat in (0, 1):
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    gift = GAME.view(state, 0).gift_given
    text = board(state, 0)
    among = next(line for line in text.splitlines() if "among the ?" in line)
    assert among.count("Mountain") == 3
    assert NAMES[gift] in among
    assert f"You gave {NAMES[gift]}" in text


def test_changes_tell_a_development_in_card_names():
    after = GAME.apply(START, 0, Develop("line", 2))  # Ann takes the Sentinel of pile 3 into her Line
    assert said(START, after, 1) == [
        "Ann developed: took the Sentinel of River pile 3 into their Line, discarding the Mountain from their "
        "Line; pile 3 shows a Rice field"
    ]
    assert said(START, after, 0, skip_seat=0) == [], "the mover's own move is told by its label"


def test_changes_tell_a_development_from_the_hand_and_the_card_it_revealed():
    """"Cards are discarded face up": the Hand card discarded is named."""
    after = GAME.apply(START, 0, Develop("hand", 0))
    assert said(START, after, None) == [
        "Ann developed: took the Naishi of River pile 1 into their Hand, discarding the Monk from their Hand; "
        "pile 1 shows a Fort"
    ]


def test_changes_tell_the_court_actions():
    switched = GAME.apply(START, 0, Switch("river", 0, 4))
    assert said(START, switched, 1) == ["Ann sent an Emissary to switch River cards 1 and 5 (now Horseman and "
                                        "Naishi)"]
    assert "switch 1: Ann" in board(switched, 1)
    discarded = GAME.apply(START, 0, DiscardRiver(1, 3))
    assert said(START, discarded, None) == [
        "Ann sent an Emissary to discard 2 River cards: the Advisor of pile 2 and the Monk of pile 4; "
        "pile 2 shows a Sentinel, pile 4 shows a Torii"
    ]
    decreed = GAME.apply(START, 0, Decree("line", 0))
    assert said(START, decreed, 1) == [
        "Ann imposed the Imperial Decree: the Lines' cards in position 1 are exchanged (Ann now has the Mountain, "
        "Bob now has the Sentinel)"
    ]
    assert "decree: Ann" in board(decreed, 1)


def test_changes_tell_a_recall_and_the_end_of_a_turn():
    state = position(court=(0, None, None, 0, None, None))
    after = GAME.apply(state, 0, Recall((0, 3)))
    assert said(state, after, 1) == ["Ann recalled their Emissaries from switch 1 and discard 1"]
    developed = GAME.apply(START, 0, Develop("line", 1))
    ended = GAME.apply(developed, 0, EndTurn())
    assert said(developed, ended, 1) == ["Ann ended their turn"]


def test_changes_tell_the_gifts_without_revealing_the_other_seats_card():
    state = GAME.new_game(2, {}, 9)
    one = GAME.apply(state, 0, GAME.legal_moves(state, 0)[0])
    assert said(state, one, None) == ["Ann chose the card to give"]
    both = GAME.apply(one, 1, GAME.legal_moves(one, 1)[0])
    to_spectator = said(one, both, None)
    assert to_spectator[:2] == ["Bob chose the card to give",
                                "Both gifts are in: each Hand gets its 3 Mountains and is shuffled"]
    assert not any("received" in line for line in to_spectator)
    received = NAMES[GAME.view(both, 0).gift_received]
    assert any(line.startswith("You received a") and received in line for line in said(one, both, 0))


def test_a_seat_without_a_name_is_counted_from_1():
    message = game_state(START, None)
    del message.seats[:]
    assert "Turn: seat 1" in "\n".join(render_state(message, Style()))
