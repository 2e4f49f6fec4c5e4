"""A battle's turns: draw then play, clockwise order, refilling hands, attacks, defence, the coin block,
exclusion -- and what a shown hand teaches the attacker."""

from __future__ import annotations

from games.zipang import GAME
from games.zipang.state import PLAY, REACT
from tests.zipang.positions import act, card, cards, ids, known, position

FOUR = {
    0: ("captain", "bandit", "peasant"),
    1: ("commander", "peasant"),
    2: ("monk", "bandit"),
    3: ("maiden", "merchant"),
}


def test_draw_then_play():
    """ "When your turn comes, draw 1 card from the draw pile ... From your hand, now 3 cards, choose 1 card,
    discard it face up to the discard pile, and activate that card's effect." """
    state = act(position(hands=FOUR, deck=("warlord",)), (0, "play:peasant"))
    assert state.active == 1 and state.hands[1] == cards("commander", "peasant", "warlord")
    assert state.discard == (card("peasant"),)


def test_turns_go_clockwise_and_skip_excluded_players():
    """ "Continue in clockwise order." An excluded player "waits for the next battle to begin." """
    state = position(hands={**FOUR, 2: ("monk", "peasant")}, active=0)
    state = act(state, (0, "play:captain>s2"), (2, "defend"))  # 1 + 1 < 3: seat 2 is out
    order = []
    for _ in range(3):
        order.append(state.active)
        state = act(state, (state.active, ids(state, state.active)[0]))
        while state.phase == REACT:
            (seat,) = state.acting
            state = act(state, (seat, ids(state, seat)[-1]))
    assert order == [1, 3, 0]


def test_hands_refill_at_the_end_of_a_turn_clockwise_from_the_active_player():
    """ "keep 2 cards in hand as far as possible ... If several players need to refill at the same time, draw in
    clockwise order starting from the active player." (The Ikki leaves seat 0 with 1 card and the Monk seat 2
    with 1: seat 0 draws the top card first, then seat 2 the next.)"""
    hands = {0: ("peasant", "peasant", "bandit"), 1: ("warlord", "peasant"), 2: ("monk", "commander")}
    state = position(hands=hands, deck=("emperor", "kabuki", "princess"), fill=False)
    state = act(state, (0, "play:peasant+ikki"), (1, "defend"), (2, "monk"))
    # the Monk's seat refills at once (2 cards as far as possible): it takes the Emperor
    assert state.hands[2] == cards("commander", "emperor")
    assert state.hands[0] == cards("bandit", "kabuki") and state.active == 1


def test_a_taken_card_is_replaced_before_it_is_used():
    """ "If a card is taken from you, refill your hand immediately until you have 2 cards. Do this before the
    taken card is used." """
    state = position(hands={0: ("maiden", "peasant", "peasant"), 1: ("bandit", "warlord"), 2: ("monk", "kabuki")},
                     deck=("commander",))
    state = act(state, (0, "play:maiden>s1"), (1, "accept"), (0, "take:warlord"))
    assert state.hands[1] == cards("bandit", "commander")
    state = act(state, (0, "use:warlord>s1"), (1, "defend"))  # the refilled hand defends: 2 + 4 = 6 >= 6
    assert state.in_battle[1]


def test_no_card_to_draw_and_no_hand_means_exclusion():
    """ "If you cannot draw a card and have no hand, that player is excluded from the battle." """
    state = position(hands={0: ("maiden", "peasant", "peasant"), 1: ("bandit",), 2: ("monk", "kabuki")},
                     deck=(), fill=False)
    state = act(state, (0, "play:maiden>s1"), (1, "accept"), (0, "take:bandit"))
    assert not state.in_battle[1]


def test_defence_is_the_total_btl_of_the_hand():
    """ "Each defending player's defense strength is the total BATTLE points (BTL) of all the cards in their
    hand. If that total is equal to or greater than the attacker's BTL, the defender ... blocks the attack." """
    hands = {0: ("commander", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("bandit", "peasant")}
    state = position(hands=hands, had_turn=(True,) * 4)
    state = act(state, (0, "play:commander>s1>s2"), (1, "defend"), (2, "defend"))
    assert state.in_battle[:3] == (True, True, False)  # 3 + 1 = 4 >= 4; 2 + 1 = 3 < 4


def test_a_blocked_attack_shows_the_hand_to_the_attacker_only():
    """ "the defender shows their hand to the attacking player and blocks the attack. In that case, the defender
    may keep the cards as their hand." """
    state = position(hands={0: ("captain", "peasant", "peasant"), 1: ("warlord", "peasant"), 2: ("monk", "kabuki")},
                     had_turn=(True,) * 4)
    state = act(state, (0, "play:captain>s1"), (1, "defend"))
    assert card("warlord") in state.hands[1]
    assert GAME.view(state, 0).known[1] == cards("warlord", "peasant")
    assert GAME.view(state, 2).known[1] == () and GAME.view(state, None).known[1] == ()
    assert GAME.view(state, 1).seen_by[0] == cards("warlord", "peasant")


def test_what_a_seat_saw_stays_until_the_hand_changes_unseen():
    """Seat 0 saw seat 1's Warlord + Peasant. Seat 1 draws (unseen): seat 0 still knows both are there. Seat 1
    plays its Peasant (face up): seat 0 knows only the Warlord. A new battle deals new hands: it knows nothing."""
    hands = {0: ("captain", "peasant", "monk"), 1: ("warlord", "peasant"), 2: ("monk", "kabuki")}
    state = position(hands=hands, had_turn=(True,) * 4)
    state = act(state, (0, "play:captain>s1"), (1, "defend"))
    assert known(state, 0, 1) == cards("warlord", "peasant") and len(state.hands[1]) == 3
    state = act(state, (1, "play:peasant"))
    assert known(state, 0, 1) == cards("warlord")
    state = act(state, (2, "play:kabuki"))  # nothing to use but the Captain and Peasant: it uses the Peasant
    state = act(state, (2, "use:peasant"))
    state = act(state, (0, "play:monk"))  # a Monk on one's own turn
    assert known(state, 0, 1) == cards("warlord")


def test_the_defeated_player_discards_the_hand_and_keeps_the_coins():
    """ "A defeated defending player is excluded from the battle and discards their entire hand. They keep their
    Mangoku coins" """
    state = position(hands={0: ("warlord", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")},
                     had_turn=(True,) * 4, coins=(3, 3, 3, 3))
    state = act(state, (0, "play:warlord>s1"), (1, "defend"))
    assert not state.in_battle[1] and state.hands[1] == ()
    assert state.discard[-2:] == cards("captain", "peasant") and state.coins[1] == 3


def test_a_blocked_attacker_remains_in_the_battle():
    """ "A blocked attacking player remains in the battle." """
    state = position(hands={0: ("captain", "peasant", "peasant"), 1: ("warlord", "peasant"), 2: ("monk", "kabuki")},
                     had_turn=(True,) * 4)
    state = act(state, (0, "play:captain>s1"), (1, "defend"))
    assert state.in_battle[0] and state.phase == PLAY and state.active == 1


def test_coin_block_before_your_first_turn():
    """ "If you are attacked before your first turn of each battle: you can block the attack by adding 1
    Mangoku coin to the coin area in the center." """
    state = position(hands={0: ("warlord", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")},
                     coins=(3, 3, 3, 3), pot=3)
    state = act(state, (0, "play:warlord>s1"))
    assert ids(state, 1) == ["coin", "defend"]
    state = act(state, (1, "coin"))
    assert state.in_battle[1] and state.coins[1] == 2 and state.pot == 4
    assert GAME.view(state, 0).known[1] == ()  # a coin block shows no hand


def test_no_coin_block_after_your_first_turn():
    state = position(hands={0: ("warlord", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")},
                     had_turn=(True, True, False, False))
    state = act(state, (0, "play:warlord>s1"))
    assert ids(state, 1) == ["defend"]


def test_coin_block_once_for_each_attack():
    """ "You can do this once for each attack you receive." (Seat 2 is attacked twice before its first turn
    and blocks each attack with a coin.)"""
    hands = {0: ("warlord", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("kabuki", "peasant")}
    state = position(hands=hands, deck=("commander",), coins=(3, 3, 3, 3), pot=3)
    state = act(state, (0, "play:warlord>s2"), (2, "coin"))
    assert state.coins[2] == 2 and state.active == 1
    state = act(state, (1, "play:commander>s2"))
    assert ids(state, 2) == ["coin", "defend"]
    state = act(state, (2, "coin"))
    assert state.coins[2] == 1 and state.pot == 5 and state.in_battle[2]

