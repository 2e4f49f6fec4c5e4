"""The rulebook's FAQ, one answer per test (Q2 and Q6 are in test_end.py)."""

from __future__ import annotations

from games.zipang import GAME
from games.zipang.state import PLAY, REACT
from tests.zipang.positions import act, card, cards, ids, position


def test_faq_q1_no_coin_no_coin_block():
    """Q1 "In a battle, what happens if I do not have a Mangoku coin to block an attack before my first turn?
    A1: You cannot block the attack, and you are excluded from the battle." """
    state = position(hands={0: ("warlord", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")},
                     coins=(3, 0, 3, 3))
    state = act(state, (0, "play:warlord>s1"))
    assert ids(state, 1) == ["defend"]
    state = act(state, (1, "defend"))
    assert not state.in_battle[1]


def test_faq_q3_nothing_is_taken_from_a_player_without_coins():
    """Q3 "If I have no Mangoku coins and a Bandit or Merchant is used on me, what happens? A3: Nothing is taken,
    and you remain in the battle." """
    hands = {0: ("bandit", "merchant", "peasant"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")}
    state = position(hands=hands, coins=(3, 0, 3, 3), pot=3)
    after = act(state, (0, "play:bandit>s1"), (1, "accept"))
    assert after.coins == (3, 0, 3, 3) and after.in_battle[1]
    after = act(state, (0, "play:merchant"), (1, "accept"), (2, "accept"))
    assert after.coins == (2, 0, 2, 2) and after.pot == 3 + 3 and after.in_battle[1]


def test_faq_q4_excluded_players_pay_as_long_as_they_have_coins():
    """Q4 "When a Bandit, Merchant, or Princess is played, do players excluded from the battle also have to pay
    Mangoku coins? A4: Yes. They pay as long as they have Mangoku coins." (Seat 3 is out of the battle: it is
    never asked, it just pays.)"""
    hands = {0: ("bandit", "merchant", "princess"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")}
    state = position(hands=hands, coins=(3, 3, 3, 2), pot=0)
    assert act(state, (0, "play:bandit>s3")).coins[3] == 1
    assert act(state, (0, "play:merchant"), (1, "accept"), (2, "accept")).coins[3] == 1
    assert act(state, (0, "play:princess"), (1, "accept"), (2, "accept")).coins == (6, 2, 2, 1)
    broke = position(hands=hands, coins=(3, 3, 3, 0))
    assert act(broke, (0, "play:bandit>s3")).coins == (3, 3, 3, 0)


def test_faq_q5_a_hand_you_saw_is_never_shown_to_others():
    """Q5 "May I reveal another player's hand to the other players? A5: ... you must not." (What the Shrine
    Maiden saw is in its player's view only.)"""
    state = position(hands={0: ("maiden", "peasant", "peasant"), 1: ("emperor", "princess"), 2: ("monk", "kabuki")})
    state = act(state, (0, "play:maiden>s1"), (1, "accept"))
    assert GAME.view(state, 0).known[1] == cards("emperor", "princess")
    for seat in (None, 2, 3):
        view = GAME.view(state, seat)
        assert view.known[1] == () and card("emperor") not in view.hand


def test_faq_q7_a_taken_peasant_makes_an_ikki():
    """Q7 "Can I obtain a Peasant card from another player or from the discard pile and combine it with a
    Peasant in my hand to make an Ikki (Peasant Revolt)? A7: Yes." (From another player: Shrine Maiden.)"""
    state = position(hands={0: ("maiden", "peasant", "kabuki"), 1: ("peasant", "captain"), 2: ("monk", "bandit")},
                     had_turn=(True,) * 4)
    state = act(state, (0, "play:maiden>s1"), (1, "accept"), (0, "take:peasant"))
    assert ids(state, 0) == ["use:peasant", "use:peasant+ikki"]
    state = act(state, (0, "use:peasant+ikki"))
    assert (state.phase, state.strength, state.acting) == (REACT, 5, (1,))
    state = act(state, (1, "defend"), (2, "defend"))
    assert state.winners == (0,)  # 3 + (refill) and 1 + 2 against BTL 5: both out


def test_faq_q7_a_peasant_from_the_discard_pile_makes_an_ikki():
    """Q7 ... "from the discard pile": Kabuki."""
    state = position(hands={0: ("kabuki", "peasant", "emperor"), 1: ("bandit", "captain"), 2: ("monk", "bandit")},
                     discard=("peasant",), had_turn=(True,) * 4)
    state = act(state, (0, "play:kabuki"))
    assert "use:peasant+ikki" in ids(state, 0)
    state = act(state, (0, "use:peasant+ikki"), (1, "defend"))
    assert state.in_battle[1]  # 2 + 3 = 5 holds against the Ikki's 5
    assert state.discard == (card("kabuki"), card("peasant"), card("peasant")) and card("emperor") in state.hands[0]


def test_faq_q8_a_monk_on_your_own_turn_does_nothing():
    """Q8 "Can I play a Monk on my own turn, not against an opponent's play? A8: Yes, but nothing happens." """
    state = position(hands={0: ("monk", "peasant", "peasant"), 1: ("bandit", "captain")}, coins=(3, 3, 3, 3))
    after = act(state, (0, "play:monk"))
    assert after.phase == PLAY and after.active == 1 and after.coins == state.coins
    assert after.in_battle == state.in_battle


def test_faq_q9_monk_and_emperor_cannot_be_cancelled():
    """Q9 "Can I cancel a Monk, Emperor ... with my own Monk? A9: The effects of the Monk and the Emperor cannot
    be cancelled." (Nobody is asked: the Emperor ends the battle at once, a Monk reaches no one.)"""
    hands = {0: ("emperor", "monk", "kabuki"), 1: ("monk", "captain"), 2: ("captain", "bandit")}
    state = act(position(hands=hands), (0, "play:emperor"))
    assert state.winners == (0,) and state.battle == 2
    state = act(position(hands=hands), (0, "play:monk"))
    assert state.phase == PLAY and state.active == 1


def test_faq_q9_a_monk_cancels_only_the_part_aimed_at_you():
    """Q9 "For the other cards, you can cancel only the attack (effect) directed at you, but it does not affect
    the other players." (An Ikki: seat 2 cancels it for itself; seat 3 is still attacked.)"""
    hands = {0: ("peasant", "peasant", "kabuki"), 1: ("warlord", "captain"), 2: ("monk", "peasant"),
             3: ("maiden", "peasant")}
    state = position(hands=hands, had_turn=(True,) * 4)
    state = act(state, (0, "play:peasant+ikki"), (1, "defend"))
    assert ids(state, 2) == ["monk", "defend"]
    state = act(state, (2, "monk"))
    assert state.in_battle[2] and GAME.to_act(state) == frozenset({3})
    state = act(state, (3, "defend"))
    assert state.in_battle == (True, True, True, False)


def test_faq_q10_no_ikki_for_defence():
    """Q10 "Can I use 2 Peasant cards as an Ikki for defense? A10: No." (Two Peasants defend with 1 + 1.)"""
    state = position(hands={0: ("captain", "peasant", "kabuki"), 1: ("peasant", "peasant"), 2: ("monk", "bandit")},
                     had_turn=(True,) * 4)
    state = act(state, (0, "play:captain>s1"), (1, "defend"))
    assert not state.in_battle[1]
