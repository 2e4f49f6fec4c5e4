"""Game Round: the actions of a turn, each as the rulebook words it."""

from __future__ import annotations

import pytest

from games.base import IllegalMove
from games.naishi import GAME
from games.naishi.moves import Develop
from tests.naishi.positions import MOUNTAINS, RIVER, A, F, H, K, M, N, S, T, ids, play, position


def test_develop_from_the_line():
    """"Choose one card from your Hand OR your Line and discard it. Take the corresponding card from the River, IN
    THE SAME POSITION as the one you just discarded ... Reveal the next card from the draw pile in the River.\""""
    state = play(position(), 0, "develop:line:4")
    assert state.lines[0] == (M, M, M, K, M)  # River pile 4's top was a Monk
    assert state.discard == (M,)
    assert state.piles[3] == RIVER[3][1:]  # the next card (a Torii) is revealed
    assert GAME.view(state, 1).river[3] == T


def test_develop_from_the_hand_discards_face_up():
    """"She could have instead chosen to add it to her hand, but in order to do so, she would have had to discard
    her naishi (pink), also situated in 4th position in her Hand." Cards are discarded face up."""
    state = play(position(hands=((M, M, M, N, M), MOUNTAINS)), 0, "develop:hand:4")
    assert state.hands[0] == (M, M, M, K, M)
    assert GAME.view(state, 1).discard == (N,)


def test_no_develop_from_an_empty_pile():
    piles = (RIVER[0], RIVER[1], (), RIVER[3], RIVER[4])
    state = position(piles=piles)
    assert "develop:line:3" not in ids(state, 0) and "develop:hand:3" not in ids(state, 0)
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, Develop("line", 2))


def test_develop_then_end_turn_or_an_additional_action():
    """"Before or after developing your territory, you can carry out one additional action.\""""
    state = play(position(), 0, "develop:line:1")
    assert state.turn == 0 and "end_turn" in ids(state, 0) and "switch:line:1:2" in ids(state, 0)
    assert not any(i.startswith(("develop", "decree", "recall")) for i in ids(state, 0))
    ended = play(state, 0, "end_turn")
    assert ended.turn == 1
    after = play(state, 0, "switch:line:1:2")
    assert after.turn == 1, "the turn ends once both are done"
    assert after.lines[0] == (M, N, M, M, M)


def test_additional_action_before_develop_then_only_develop():
    """"you may also carry out an additional action before or after your obligatory development action"; and
    only ONE additional action per turn."""
    state = play(position(), 0, "switch:river:1:2")
    assert state.turn == 0
    assert all(i.startswith("develop:") for i in ids(state, 0))
    state = play(state, 0, "develop:line:1")
    assert state.lines[0][0] == A  # the Advisor switched into River position 1
    assert state.turn == 1, "no second additional action: the turn is over"


def test_switch_two_river_cards_but_not_with_an_empty_pile():
    """"2 cards from the River (impossible to switch with an empty draw pile)": the face-up cards change places."""
    state = play(position(), 0, "switch:river:2:5")
    assert state.piles[1] == (RIVER[4][0],) + RIVER[1][1:]
    assert state.piles[4] == (RIVER[1][0],) + RIVER[4][1:]
    empty = position(piles=(RIVER[0], (), RIVER[2], RIVER[3], RIVER[4]))
    assert not any(i.startswith("switch:river") and ":2" in i for i in ids(empty, 0))


def test_switch_two_line_cards_two_hand_cards_or_a_column():
    """"2 cards from your Line or 2 cards from your Hand or 1 card from your Hand with 1 card in the same position
    from your Line.\""""
    start = position(hands=((N, M, M, M, H), MOUNTAINS), lines=((A, M, M, S, M), MOUNTAINS))
    assert play(start, 0, "switch:line:1:4").lines[0] == (S, M, M, A, M)
    assert play(start, 0, "switch:hand:1:5").hands[0] == (H, M, M, M, N)
    column = play(start, 0, "switch:column:1")
    assert column.hands[0][0] == A and column.lines[0][0] == N
    # a Hand card and a Line card in different positions can never switch
    assert not any(i.startswith("switch:column") and i.count(":") > 2 for i in ids(start, 0))


def test_switching_identical_cards_is_allowed():
    """Game Park confirms switching two identical cards (here two Mountains) is allowed."""
    assert "switch:hand:1:2" in ids(position(), 0)


def test_discard_the_top_of_two_different_river_piles():
    """"Discard 1 card from the top of 2 different draw piles in the River and immediately reveal the top cards in
    each draw pile. Only reveal cards once both have been discarded.\""""
    state = play(position(), 0, "discard:1:3")
    assert state.discard == (RIVER[0][0], RIVER[2][0])
    assert state.piles[0] == RIVER[0][1:] and state.piles[2] == RIVER[2][1:]
    assert not any(i.startswith("discard:") for i in ids(state, 0)), "one additional action per turn"
    assert state.court[3] == 0


def test_discard_before_developing_must_leave_a_card_to_develop():
    """The development stays obligatory: before it, the River must keep a card after discarding two."""
    piles = ((N,), (A,), (), (), ())
    assert not any(i.startswith("discard:") for i in ids(position(piles=piles), 0))
    assert "discard:1:2" in ids(position(piles=((N,), (A,), (S,), (), ())), 0)


def test_court_spaces_are_limited():
    """"If there are no free spaces for one of the additional actions, you cannot do it." The switch action has
    3 spaces, the discard action 2 (Game Park's board)."""
    switches_taken = position(court=(1, 1, 0, None, None, None))
    assert not any(i.startswith("switch:") for i in ids(switches_taken, 0))
    assert any(i.startswith("discard:") for i in ids(switches_taken, 0))
    discards_taken = position(court=(None, None, None, 1, 1, None))
    assert not any(i.startswith("discard:") for i in ids(discards_taken, 0))


def test_an_emissary_is_needed_for_an_additional_action():
    """"You can only carry out an additional action if you have an available Emissary token.\""""
    both_placed = position(court=(0, None, None, 0, None, None))
    assert not any(i.startswith(("switch:", "discard:", "decree:")) for i in ids(both_placed, 0))
    assert any(i.startswith("develop:") for i in ids(both_placed, 0))


def test_an_emissary_is_never_moved():
    """"You can never move an Emissary token that is already on the board to a different location.\""""
    state = play(position(), 0, "switch:line:1:2", "develop:line:1")
    state = play(state, 1, "develop:line:1", "end_turn")
    assert state.court[0] == 0
    state = play(state, 0, "switch:line:1:2", "develop:line:2")
    assert state.court[:2] == (0, 0)


def test_imperial_decree_exchanges_hand_cards_in_the_same_position():
    """"Exchanging a card from both players' Hand in the same position." The Emissary stays locked there."""
    start = position(hands=((N, M, M, M, M), (M, M, M, M, H)))
    state = play(start, 0, "decree:hand:1")
    assert state.hands == ((M, M, M, M, M), (N, M, M, M, H))
    assert state.court[5] == 0 and state.turn == 1, "the decree is the turn's whole action"
    assert not any(i.startswith("decree:") for i in ids(state, 1)), "unavailable for the rest of the game"
    assert not any(i.startswith("recall") for i in ids(play(state, 1, "develop:line:1", "end_turn"), 0)), (
        "A token placed on the Imperial Decree space may never be recalled!"
    )


def test_imperial_decree_exchanges_line_cards_in_the_same_position():
    """"Exchanging a card from both players' Line in the same position.\""""
    start = position(lines=((M, M, F, M, M), (M, M, T, M, M)))
    state = play(start, 0, "decree:line:3")
    assert state.lines == ((M, M, T, M, M), (M, M, F, M, M))


def test_decree_recall_and_declare_are_not_combined_with_a_development():
    """"On your turn, you must carry out ONE of the following actions" (only developing allows the extra)."""
    piles = (RIVER[0], (), RIVER[2], RIVER[3], RIVER[4])
    state = position(piles=piles, court=(0, None, None, None, None, None))
    assert {"declare_end", "recall:switch1", "decree:hand:1"} <= ids(state, 0)
    developed = play(state, 0, "develop:line:1")
    assert not {"declare_end", "recall:switch1", "decree:hand:1"} & ids(developed, 0)
    switched = play(state, 0, "switch:line:1:2")
    assert not {"declare_end", "recall:switch1", "decree:hand:1"} & ids(switched, 0)


def test_recall_one_or_both_emissaries():
    """"Recall one or both of your Emissary tokens from the Imperial Court. You can only carry out this action if
    you have Emissary tokens to recall.\""""
    assert not any(i.startswith("recall") for i in ids(position(), 0))
    state = position(court=(0, 1, None, 0, None, None))
    assert {"recall:switch1", "recall:discard1", "recall:switch1+discard1"} <= ids(state, 0)
    one = play(state, 0, "recall:discard1")
    assert one.court == (0, 1, None, None, None, None) and one.turn == 1
    both = play(state, 0, "recall:switch1+discard1")
    assert both.court == (None, 1, None, None, None, None)


def test_declare_the_end_only_with_an_empty_pile():
    """"May only be carried out if one of the draw piles in the River is depleted ... Your opponent must then play
    a final turn, and you both move on to final scoring.\""""
    assert "declare_end" not in ids(position(), 0)
    piles = (RIVER[0], RIVER[1], (), RIVER[3], RIVER[4])
    state = play(position(piles=piles), 0, "declare_end")
    assert state.turn == 1 and state.declared_by == 0 and state.phase == "turn"
    assert "declare_end" not in ids(state, 1), "(If the end of game has not already been declared)"
    state = play(state, 1, "develop:hand:1", "end_turn")
    assert state.phase == "over" and GAME.is_over(state)


def test_not_your_turn():
    with pytest.raises(IllegalMove):
        GAME.apply_id(position(), 1, "develop:line:1")


def test_hand_and_line_keep_their_order():
    """"You can never freely reorganise your cards, neither in your Hand nor in your Line": a development only
    replaces the one card in the chosen position."""
    hand = (A, S, K, H, N)
    state = play(position(hands=(hand, MOUNTAINS)), 0, "develop:hand:3")
    assert state.hands[0] == (A, S, S, H, N)
