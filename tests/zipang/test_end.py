"""The end of a battle (one player left, the Emperor, the empty draw pile, FAQ Q2), honour and its ties, the
next battle's start player, the end of the game and the ranking by coins."""

from __future__ import annotations

from games.zipang import GAME
from games.zipang.scoring import NOT_UNIFIED
from games.zipang.state import OVER, PLAY
from tests.zipang.positions import act, position


def test_the_last_player_left_takes_the_coin_area_and_starts_the_next_battle():
    """ "When only 1 player remains after a battle, the battle ends and that player is the winner and takes all
    the Mangoku coins in the center. The next battle starts with this player." """
    state = position(hands={0: ("kabuki", "warlord", "peasant"), 1: ("captain", "peasant"), 2: ("peasant", "bandit")},
                     active=2, had_turn=(True,) * 4, coins=(3, 3, 3, 3), pot=5)
    state = act(state, (2, "play:peasant"))  # seat 3 is out of the battle: seat 0's turn follows
    state = act(state, (0, "play:warlord>s1>s2"), (1, "defend"), (2, "defend"))
    assert state.winners == (0,)
    assert state.coins == (3 + 5 - 1, 2, 2, 2) and state.pot == 3
    assert (state.battle, state.starter, state.active, state.phase) == (2, 0, 0, PLAY)


def test_empty_draw_pile_ends_the_battle_and_honour_decides():
    """ "If there is no card to draw at the start of a player's turn, the battle ends immediately" and "Total
    the HONOR points (HNR) in your hand; the player with the most points wins and takes all the Mangoku coins"."""
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("princess", "emperor"), 2: ("maiden", "monk")},
                     deck=(), fill=False, coins=(3, 3, 3, 3), pot=4)
    state = act(state, (0, "play:peasant"))
    assert state.winners == (1,)  # 3 + 5 against 3 (seat 0) and 2 + 2 (seat 2)
    assert state.coins == (2, 3 + 4 - 1, 2, 2) and state.starter == 1


def test_a_tie_for_honour_leaves_the_coins_in_the_center():
    """ "If two or more players are tied for the highest HNR, the Mangoku coins stay in the center and the next
    battle begins. In this case, the start is from the player who started the previous battle first." """
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("princess", "peasant"), 2: ("maiden", "bandit")},
                     active=2, deck=(), fill=False, coins=(3, 3, 3, 3), pot=4, starter=1)
    state = act(state, (2, "play:maiden>s0"), (0, "accept"), (2, "take:none"))
    # seat 0 (3 HNR) and seat 1 (3 HNR) tie; the draw pile is empty at seat 0's turn
    assert state.winners == (None,)
    assert state.pot == 4 + 3 and state.coins == (2, 2, 2, 2)
    assert state.starter == 1 and state.active == 1


def test_emperor_ends_the_battle_and_does_not_count_itself():
    """FAQ Q6 "If I play the Emperor and end the battle, is the Emperor's HNR added to my total? A6: No. Only
    the HNR of the cards remaining in your hand is counted." """
    state = position(hands={0: ("emperor", "peasant", "peasant"), 1: ("monk", "peasant")}, coins=(3, 3, 3, 3), pot=2)
    state = act(state, (0, "play:emperor"))
    assert state.winners == (1,)  # 0 against the Monk's 2


def test_faq_q2_a_hand_that_cannot_be_made_two_ends_the_battle():
    """FAQ Q2 "What if I cannot make my hand 2 cards at the end of my turn? A2: The battle ends, and the HNR of
    the hands you hold becomes your score." """
    state = position(hands={0: ("peasant", "peasant", "kabuki"), 1: ("warlord", "peasant"), 2: ("monk", "monk")},
                     deck=(), fill=False, coins=(3, 3, 3, 3), pot=2)
    state = act(state, (0, "play:peasant+ikki"), (1, "defend"), (2, "defend"))
    # seat 2 (1 + 1 < 5) is out; seat 0 holds only the Kabuki and cannot draw: honour, 3 against 2 + 1
    assert state.winners == (0,)


def test_the_game_ends_at_the_start_of_a_battle_when_a_player_has_no_coins():
    """ "The game ends when, at the start of a battle, one or more players have no Mangoku coins. The player who
    has won the most Mangoku coins when the game ends wins. The remaining players are ranked by their total" """
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("bandit", "peasant"), 2: ("bandit", "monk")},
                     deck=(), fill=False, coins=(2, 0, 4, 1), pot=3)
    state = act(state, (0, "play:peasant"))
    assert state.phase == OVER and GAME.to_act(state) == frozenset()
    assert state.coins == (5, 0, 4, 1)
    score = GAME.score(state)
    assert score.final and score.ranking == ((0,), (2,), (3,), (1,)) and score.winners() == (0,)
    assert [s.breakdown for s in score.seats][0] == (("coins", 5),)


def test_the_game_goes_on_while_everyone_has_coins():
    """(Seat 0 wins the battle; nobody is at 0 coins when the next one starts, so it starts: its ante may leave
    seats at 0, who then play that battle.)"""
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("peasant", "peasant")},
                     deck=(), fill=False, coins=(1, 1, 1, 1), pot=3)
    state = act(state, (0, "play:peasant"))
    assert state.phase == PLAY and state.battle == 2 and state.coins == (3, 0, 0, 0)


def test_a_tie_for_first_means_the_realm_is_not_unified():
    """ "If the Mangoku coins won by the 1st-place players are tied, the realm is not unified and the Sengoku era
    continues. The players start a new game." (The tied seats share first place; the score says why.)"""
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("princess", "peasant")},
                     deck=(), fill=False, coins=(4, 0, 7, 1), pot=3)
    state = act(state, (0, "play:peasant"))
    assert state.phase == OVER and state.winners == (None,)  # Kabuki 3 ties the Princess 3
    score = GAME.score(state)
    assert score.ranking[0] == (2,) and score.tie_breaks == ()
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("peasant", "peasant")},
                     deck=(), fill=False, coins=(4, 0, 7, 1), pot=3)
    state = act(state, (0, "play:peasant"))
    score = GAME.score(state)
    assert state.coins == (7, 0, 7, 1)
    assert score.ranking == ((0, 2), (3,), (1,)) and score.winners() == (0, 2)
    assert score.tie_breaks == (NOT_UNIFIED,)


def test_honour_counts_only_players_in_the_battle():
    """An excluded player has discarded its hand: it has no HNR to total."""
    state = position(hands={0: ("warlord", "peasant", "peasant"), 1: ("emperor", "princess"), 2: ("monk", "peasant")},
                     deck=(), fill=False, had_turn=(True,) * 4, coins=(3, 3, 3, 3), pot=2)
    state = act(state, (0, "play:warlord>s1"), (1, "defend"))  # 0 < 6: the 8 HNR hand is out
    assert state.winners == (2,)  # seat 2's 2 HNR wins; the excluded seat 1 held 8
