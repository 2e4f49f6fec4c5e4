"""End of the Game: the two ways it ends and who plays a last turn."""

from __future__ import annotations

from games.naishi import GAME
from tests.naishi.positions import RIVER, N, ids, play, position

ONE_EMPTY = ((N,), (), RIVER[2], RIVER[3], RIVER[4])  # pile 2 is empty, pile 1 has its last card


def test_two_empty_piles_on_the_first_players_turn_gives_the_other_a_final_turn():
    """"When 2 draw piles from the River are empty. If this happens during the first player's turn, the other
    player must play a final turn before moving on to final scoring.\""""
    state = play(position(piles=ONE_EMPTY, first=0, turn=0), 0, "develop:line:1", "end_turn")
    assert state.phase == "turn" and state.turn == 1 and state.final_turn == 1
    assert "declare_end" not in ids(state, 1)
    state = play(state, 1, "develop:line:3", "end_turn")
    assert GAME.is_over(state) and GAME.score(state).final


def test_two_empty_piles_on_the_second_players_turn_ends_the_game():
    """"If this happens on the turn of the player without the first player card, move on to final scoring.\""""
    state = play(position(piles=ONE_EMPTY, first=0, turn=1), 1, "develop:line:1", "end_turn")
    assert GAME.is_over(state)
    assert GAME.to_act(state) == frozenset()


def test_the_end_is_checked_when_the_turn_ends():
    """The second pile may empty during the development and the additional action may still follow."""
    state = play(position(piles=ONE_EMPTY, first=1, turn=1), 1, "develop:line:1")
    assert state.turn == 1 and any(i.startswith("switch:") for i in ids(state, 1))
    state = play(state, 1, "switch:line:1:2")
    assert state.turn == 0 and state.final_turn == 0


def test_declaring_gives_the_opponent_one_final_turn():
    """"When a player declares the end of the game ... Your opponent must then play a final turn.\""""
    state = play(position(piles=ONE_EMPTY, first=0, turn=1), 1, "declare_end")
    assert state.turn == 0 and state.final_turn == 0 and not GAME.is_over(state)
    # even if a second pile empties during that final turn, it stays the last one
    state = play(state, 0, "develop:line:1", "end_turn")
    assert GAME.is_over(state)


def test_declared_by_the_first_player_the_second_still_plays():
    state = play(position(piles=ONE_EMPTY, first=0, turn=0), 0, "declare_end")
    assert state.turn == 1
    state = play(state, 1, "develop:hand:3", "end_turn")
    assert GAME.is_over(state)


def test_a_seat_with_no_possible_action_passes():
    """With the River empty, no Emissary to recall, the Decree taken and the end already coming, a turn can only
    pass (Game Park's adaptation does the same)."""
    empty = ((),) * 5
    state = position(piles=empty, turn=1, final_turn=1, court=(None, None, None, None, None, 0))
    assert ids(state, 1) == {"end_turn"}
    assert GAME.is_over(play(state, 1, "end_turn"))
