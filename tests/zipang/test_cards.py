"""Every card's effect, as the seed prints it or as assumed (docs/rules/zipang.md, "Assumed data")."""

from __future__ import annotations

from games.zipang import GAME
from games.zipang.state import PLAY, REACT, TAKE, USE
from tests.zipang.positions import act, card, cards, ids, known, position

FOUR = {
    0: ("captain", "bandit", "peasant"),
    1: ("commander", "peasant"),
    2: ("monk", "bandit"),
    3: ("maiden", "merchant"),
}


def test_peasant_alone_has_no_effect():
    """ "Peasant ... 1 card: no effect." """
    state = act(position(hands=FOUR), (0, "play:peasant"))
    assert state.active == 1 and state.coins == position(hands=FOUR).coins
    assert all(state.in_battle[p] for p in (1, 2, 3))


def test_two_peasants_are_an_ikki_of_btl_5_against_all_others():
    """ "If you play 2 Peasants at the same time, you can make an attack of BTL 5 against all the other
    players." (Seat 1 holds Commander + Peasant = 5 and blocks; seat 2 Monk + Bandit = 3 and seat 3 Shrine
    Maiden + Merchant = 1 are excluded.)"""
    hands = {**FOUR, 0: ("peasant", "peasant", "bandit")}
    state = act(position(hands=hands), (0, "play:peasant+ikki"))
    assert (state.phase, state.acting, state.strength) == (REACT, (1,), 5)
    state = act(state, (1, "defend"), (2, "defend"), (3, "defend"))
    assert state.in_battle == (True, True, False, False)


def test_attack_cards_attack_with_their_btl_and_may_attack_several_players():
    """ "When you play a Warlord, Commander, or Captain ... The BATTLE points (BTL) of the played card are the
    strength of the attack ... Attacking multiple players simultaneously is possible." (Captain: BTL 3.)"""
    state = position(hands=FOUR)
    assert {"play:captain", "play:captain>s1", "play:captain>s2>s3", "play:captain>s1>s2>s3"} <= set(ids(state, 0))
    state = act(state, (0, "play:captain>s2>s3"), (2, "defend"), (3, "defend"))
    assert state.in_battle == (True, True, True, False)  # Monk + Bandit = 3 holds, Maiden + Merchant = 1 does not


def test_commander_and_warlord_strengths():
    """Commander attacks with BTL 4, Warlord with BTL 6 (assumed values)."""
    hands = {**FOUR, 0: ("commander", "warlord", "peasant"), 1: ("captain", "bandit")}
    state = act(position(hands=hands), (0, "play:commander>s1"), (1, "defend"))  # 3 + 2 = 5 >= 4
    assert state.in_battle[1]
    state = act(position(hands=hands), (0, "play:warlord>s1"), (1, "defend"))  # 5 < 6
    assert not state.in_battle[1]


def test_bandit_steals_a_coin_also_from_an_excluded_player():
    """ "Bandit: Steal 1 Mangoku coin from another player (also from a player excluded from the battle)." """
    state = position(hands={0: ("bandit", "peasant", "peasant"), 1: ("monk", "peasant"), 2: ("captain", "kabuki")},
                     coins=(2, 3, 3, 3))
    assert "play:bandit>s3" in ids(state, 0)  # seat 3 is out of the battle
    after = act(state, (0, "play:bandit>s3"))
    assert after.coins == (3, 3, 3, 2)
    after = act(state, (0, "play:bandit>s1"), (1, "accept"))
    assert after.coins == (3, 2, 3, 3)


def test_merchant_makes_every_player_pay_a_coin_into_the_center():
    """ "Merchant: All players each put 1 Mangoku coin into the center (including players excluded from the
    battle)." """
    state = position(hands={0: ("merchant", "peasant", "peasant"), 1: ("monk", "peasant"), 2: ("captain", "kabuki")},
                     coins=(2, 3, 3, 3), pot=3)
    state = act(state, (0, "play:merchant"), (1, "accept"), (2, "accept"))
    assert state.coins == (1, 2, 2, 2) and state.pot == 7


def test_princess_takes_a_coin_from_every_other_player_also_excluded_ones():
    """Princess "takes coins from other players, also from players out of the battle" (RULES_RESEARCH.md;
    assumed: 1 coin from each other player)."""
    state = position(hands={0: ("princess", "peasant", "peasant"), 1: ("monk", "peasant"), 2: ("captain", "kabuki")},
                     coins=(2, 3, 0, 3))
    state = act(state, (0, "play:princess"), (1, "accept"), (2, "accept"))
    assert state.coins == (4, 2, 0, 2)


def test_kabuki_uses_a_card_from_the_discard_pile():
    """ "Kabuki: Choose 1 card from the discard pile and use it immediately." (A face-up card; the chosen card
    stays in the discard pile, on top.)"""
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("monk", "peasant"), 2: ("captain", "monk")},
                     discard=("bandit", "warlord", "bandit"), coins=(2, 3, 3, 3))
    state = act(state, (0, "play:kabuki"))
    assert (state.phase, state.acting, state.offer) == (USE, (0,), cards("bandit", "warlord"))
    assert "use:warlord>s1>s2" in ids(state, 0) and "use:kabuki" not in ids(state, 0)
    state = act(state, (0, "use:warlord>s1>s2"), (1, "defend"))  # 2 < 6
    # the Warlord went back on top of the discard pile; the defeated hand followed it
    assert state.discard == (*cards("bandit", "bandit"), card("kabuki"), card("warlord"), *cards("monk", "peasant"))
    state = act(state, (2, "defend"))  # 4 < 6: only seat 0 remains, it wins the battle
    assert state.winners == (0,)


def test_kabuki_with_nothing_usable_does_nothing():
    """Kabuki with no face-up card to choose (the face-down first discard cannot be chosen): nothing happens."""
    state = position(hands={0: ("kabuki", "peasant", "peasant"), 1: ("monk", "peasant")})
    state = act(state, (0, "play:kabuki"))
    assert state.phase == PLAY and state.active == 1


def test_monk_cancels_an_effect_aimed_at_you_out_of_turn():
    """Monk "cancels an effect aimed at you" (RULES_RESEARCH.md), played against another player's card: the
    targeted seat decides while the active seat waits; the Monk goes to the discard pile and its hand refills."""
    state = act(position(hands=FOUR, deck=("emperor",)), (0, "play:bandit>s2"))
    assert GAME.to_act(state) == frozenset({2})
    assert ids(state, 2) == ["monk", "accept"]
    after = act(state, (2, "monk"))
    assert after.coins == state.coins and after.hands[2] == cards("bandit", "emperor")
    assert after.discard[-1] == card("monk")


def test_monk_and_coin_block_answers_exist_only_when_allowed():
    """A seat without a Monk can only let the effect happen (or block with a coin before its first turn)."""
    state = act(position(hands=FOUR), (0, "play:captain>s1>s3"))
    assert ids(state, 1) == ["coin", "defend"]
    state = act(state, (1, "defend"))
    assert ids(state, 3) == ["coin", "defend"]


def test_emperor_ends_the_battle():
    """ "When the Emperor card is played ... the battle ends. Total the HONOR points (HNR) in your hand; the
    player with the most points wins and takes all the Mangoku coins in the center." """
    state = position(hands={0: ("emperor", "kabuki", "monk"), 1: ("princess", "peasant"), 2: ("captain", "maiden")},
                     pot=5, coins=(2, 2, 2, 2))
    state = act(state, (0, "play:emperor"))
    assert state.winners[-1] == 0  # 3 + 2 = 5 against 3 and 3
    assert state.coins == (7 - 1, 1, 1, 1) and state.battle == 2  # then the next battle's ante


def test_shrine_maiden_looks_at_a_hand_and_takes_a_card_to_use_it():
    """Shrine Maiden (assumed): look at another player's hand; you may take 1 card from it and use it at once;
    the looked-at hand is shown to you only."""
    state = position(hands={0: ("maiden", "peasant", "peasant"), 1: ("bandit", "captain"), 2: ("monk", "kabuki")},
                     deck=("warlord",), coins=(2, 3, 3, 3))
    state = act(state, (0, "play:maiden>s1"), (1, "accept"))
    assert (state.phase, state.acting) == (TAKE, (0,))
    assert GAME.view(state, 0).known[1] == cards("bandit", "captain")
    assert GAME.view(state, 2).known[1] == ()
    assert ids(state, 0) == ["take:bandit", "take:captain", "take:none"]
    state = act(state, (0, "take:bandit"))
    assert state.hands[1] == cards("captain", "warlord")  # refilled before the taken card is used
    assert known(state, 0, 1) == cards("captain")
    state = act(state, (0, "use:bandit>s2"), (2, "accept"))
    assert state.coins == (3, 3, 2, 3)


def test_shrine_maiden_may_take_nothing():
    state = position(hands={0: ("maiden", "peasant", "peasant"), 1: ("bandit", "captain")})
    state = act(state, (0, "play:maiden>s1"), (1, "accept"), (0, "take:none"))
    assert state.phase == PLAY and state.active == 1
    assert card("bandit") in state.hands[1] and card("captain") in state.hands[1]
