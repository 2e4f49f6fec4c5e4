"""Zipang's text renderer (games/zipang/render.py) reads only the public ZipangView: coins, hands and who is out of
the battle, the coin area and the face-up discards, your hand, the hands you have seen, the pending out-of-turn
decision, and what happened between two views in words."""

from __future__ import annotations

from games.zipang import GAME
from tests.support.screens import Screens
from tests.zipang.positions import act, position

SEATS = ("Ann", "Bob", "Cid")
HANDS = {0: ("warlord", "peasant", "captain"), 1: ("monk", "commander"), 2: ("bandit", "peasant")}


SCREENS = Screens(GAME, SEATS)
game_state, board, said = SCREENS.game_state, SCREENS.board, SCREENS.said


def player_line(text: str, name: str) -> str:
    """The seat's line in the Players list."""
    return next(line.strip() for line in text.splitlines() if line.startswith(f"    {name} "))


def test_a_seat_sees_the_coins_the_cards_and_its_own_hand():
    text = board(position(3, HANDS, discard=("kabuki", "merchant")), 1)
    assert "Battle 1, started by Ann" in text
    assert "Ann's turn: play a card" in text
    assert "Coin area: 2 coins" in text
    assert "Discard pile (+1 face down): Kabuki, Merchant" in text
    assert player_line(text, "Ann").split() == ["Ann", "4", "coins", "3", "cards", "on", "turn"]
    assert player_line(text, "Bob (you)").split()[:6] == ["Bob", "(you)", "4", "coins", "2", "cards"]
    assert "no turn yet" in player_line(text, "Cid")
    assert "Your hand: Commander 4/1, Monk 1/2; defence 5, honour 3" in text  # BTL/HNR, as in the card list
    assert "Cards (BTL/HNR, copies): Kabuki 0/3 x1, Peasant 1/0 x3" in text


def test_a_spectator_sees_no_hand_and_an_excluded_seat_is_out_of_the_battle():
    state = position(3, {0: HANDS[0], 1: HANDS[1]})  # Cid has no hand: out of the battle
    text = board(state, None)
    assert "Your hand" not in text and "(you)" not in text
    assert "out of the battle" in player_line(text, "Cid")


def test_the_pending_decision_is_told_to_the_attacked_seat_with_its_options():
    """ "If you are attacked before your first turn ... you can block the attack by adding 1 Mangoku coin"; the
    Monk cancels an effect aimed at you; else "Each defending player's defense strength is the total BTL"."""
    state = act(position(3, HANDS), (0, "play:warlord>s1"))
    assert ("Ann attacks you with the Warlord (BTL 6): you may block it with a coin, cancel it with your Monk or "
            "defend with your hand (BTL 5)") in board(state, 1)
    # The others do not know whether Bob holds a Monk.
    assert ("Ann attacks Bob with the Warlord (BTL 6): Bob may block it with a coin, cancel it with a Monk if they "
            "hold one or defend with their hand") in board(state, 2)


def test_a_hand_you_saw_is_on_its_seat_and_the_other_side_knows_you_saw_it():
    """Shrine Maiden (assumed): look at another player's hand; FAQ Q5: never shown to others."""
    hands = {0: ("maiden", "peasant", "peasant"), 1: ("bandit", "warlord"), 2: ("monk", "kabuki")}
    state = act(position(3, hands), (0, "play:maiden>s1"), (1, "accept"))
    ann = board(state, 0)
    assert "you know: Bandit, Warlord" in player_line(ann, "Bob")
    assert "Ann looked at Bob's hand with the Shrine Maiden and takes a card from it (or none)" in ann
    assert "knows your Bandit, Warlord" in player_line(board(state, 1), "Ann")
    assert "Bandit" not in player_line(board(state, 2), "Bob")


def test_changes_tell_the_card_played_and_the_decision_it_asks_for():
    before = position(3, HANDS)
    after = act(before, (0, "play:warlord>s1"))
    assert said(before, after, 2) == [
        "Ann played the Warlord, attacking with BTL 6",
        "Ann attacks Bob with the Warlord (BTL 6): Bob may block it with a coin, cancel it with a Monk if they hold "
        "one or defend with their hand",
    ]
    # Ann's own move is told by its label; the decision it asks for is still news to her.
    assert said(before, after, 0, skip_seat=0) == [said(before, after, 0)[1]]


def test_changes_tell_a_coin_block_once():
    before = act(position(3, HANDS), (0, "play:warlord>s1"))
    after = act(before, (1, "coin"))
    assert said(before, after, 2) == ["Bob blocked Ann's Warlord with a coin (into the coin area)"]
    assert said(before, after, 1, skip_seat=1) == []


def test_changes_tell_a_monk_cancelling_an_effect():
    """Monk (assumed): "out of turn, cancel an effect aimed at you"."""
    before = act(position(3, HANDS), (0, "play:warlord>s1"))
    assert said(before, act(before, (1, "monk")), None) == ["Bob cancelled Ann's Warlord with a Monk"]


def test_changes_tell_a_lost_defence_and_a_held_one():
    """ "A defeated defending player is excluded from the battle and discards their entire hand"; a blocking
    defender "shows their hand to the attacking player" only."""
    hands = {0: ("warlord", "peasant", "captain"), 1: ("monk", "bandit"), 2: ("commander", "peasant")}
    before = act(position(3, hands, had_turn=(True, True, False)), (0, "play:warlord>s1"))
    lost = said(before, act(before, (1, "defend")), 2)
    assert lost == ["Bob defended against Ann's Warlord (BTL 6) and lost: out of the battle, discarding Bandit, "
                    "Monk"]
    before = act(position(3, hands, had_turn=(True, True, False)), (0, "play:captain>s1"))
    held = act(before, (1, "defend"))
    assert said(before, held, 0) == ["Bob defended against Ann's Captain (BTL 3): their hand held",
                                     "Bob's hand was shown to you: Bandit, Monk"]
    assert said(before, held, 2) == ["Bob defended against Ann's Captain (BTL 3): their hand held"]
    assert said(before, held, 1, skip_seat=1) == ["Ann saw your hand: Bandit, Monk"]


def test_changes_tell_coins_moving():
    """Bandit: "Steal 1 Mangoku coin from another player"; Merchant: "All players each put 1 Mangoku coin into the
    center"."""
    hands = {0: ("bandit", "merchant", "peasant"), 1: ("commander", "peasant"), 2: ("warlord", "captain")}
    start = position(3, hands, discard=("monk", "monk"))  # every Monk face up: nobody is asked
    stolen = act(start, (0, "play:bandit>s2"))
    assert said(start, stolen, 1) == ["Ann played the Bandit", "Ann takes 1 coin from Cid (now 5)"]
    taxed = act(start, (0, "play:merchant"))
    assert said(start, taxed, 1) == ["Ann played the Merchant: every player puts 1 coin into the coin area",
                                     "Ann and Bob and Cid put 1 coin each into the coin area (now 5 coins)"]


def test_changes_tell_the_end_of_a_battle_and_the_next_one():
    """Emperor: "When the Emperor card is played ... the battle ends"; "Total the HONOR points (HNR) in your hand;
    the player with the most points wins"; the winner "takes all the Mangoku coins in the center. The next battle
    starts with this player." """
    hands = {0: ("emperor", "kabuki", "princess"), 1: ("monk", "commander"), 2: ("bandit", "peasant")}
    before = position(3, hands)
    after = act(before, (0, "play:emperor"))
    assert after.battle == 2
    assert said(before, after, 1) == [
        "Ann played a card, and the battle ended",
        "Battle 1 is over: Ann wins it and takes the coin area",
        "Battle 2 begins, started by Ann: everyone puts 1 coin into the coin area and 1 is removed "
        "(coins now: Ann 5, Bob 3, Cid 3)",
    ]
    assert "Battles won: 1. Ann" in board(after, 1)


def test_changes_tell_the_end_of_the_game():
    """ "The game ends when, at the start of a battle, one or more players have no Mangoku coins." """
    hands = {0: ("emperor", "kabuki", "princess"), 1: ("monk", "commander"), 2: ("bandit", "peasant")}
    before = position(3, hands, coins=(4, 4, 0))
    after = act(before, (0, "play:emperor"))
    assert said(before, after, None) == [
        "Ann played the Emperor: the battle ends and honour decides it",
        "Battle 1 is over: Ann wins it and takes the coin area (2 coins, now 6)",
        "The game is over: Cid has no coins left. Coins: Ann 6, Bob 4, Cid 0",
    ]
    text = board(after, None)
    assert "The game is over." in text and "Coins: Ann 6, Bob 4, Cid 0" in text
