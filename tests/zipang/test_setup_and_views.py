"""Setup (coins, the removal table, a battle's start) and what each seat may see (views and samples)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.base import InvalidOptions
from games.zipang import GAME
from games.zipang.data import CARDS, KEYS, card_table, removed
from games.zipang.state import PLAY
from tests.zipang.positions import act, card, cards, position


def test_coins_five_each_four_with_two_players():
    """ "Each player starts the game with 5 Mangoku coins (4 in a 2-player game)." (The first battle's ante
    has already been paid: 1 coin each.)"""
    for n in range(2, 7):
        state = GAME.new_game(n, {}, seed=3)
        start = 4 if n == 2 else 5
        assert state.coins == (start - 1,) * n
        assert state.pot == n - 1


def test_coins_are_always_public():
    """ "Players must always keep their own Mangoku coins visible to the other players." """
    state = replace(GAME.new_game(4, {}, seed=3), coins=(1, 7, 2, 5))
    for seat in (None, 0, 1, 2, 3):
        assert GAME.view(state, seat).coins == (1, 7, 2, 5)


def test_cards_are_removed_by_player_count():
    """ "2-3 players: Bandit (2), Captain (2), Peasant (4), Monk (1), Commander (3); 4-5 players: Bandit (1),
    Captain (1), Peasant (1), Monk (1), Commander (1); 6 players: No cards are removed" """
    full = tuple(c.copies for c in CARDS)
    assert sum(full) == 30  # docs/rules/zipang.md: 30 cards in all
    for n, in_play in ((2, 18), (3, 18), (4, 25), (5, 25), (6, 30)):
        state = GAME.new_game(n, {}, seed=1)
        assert sum(state.copies) == in_play
        assert tuple(f - r for f, r in zip(full, removed(n), strict=True)) == state.copies
    two = GAME.new_game(2, {}, seed=1).copies
    assert two[card("bandit")] == 1 and two[card("captain")] == 2 and two[card("peasant")] == 3
    assert two[card("monk")] == 2 and two[card("commander")] == 1


def test_a_battle_starts_with_two_cards_each_a_face_down_discard_and_the_ante():
    """ "Shuffle the cards and deal 2 cards to each player ... Place the top card of the draw pile face down
    ... as the start of the discard pile. Each player places 1 Mangoku coin in the center, and 1 coin is then
    removed from among them." (The start player has already drawn for its first turn.)"""
    state = GAME.new_game(5, {"start_player": "seat2"}, seed=9)
    assert [len(h) for h in state.hands] == [2, 2, 3, 2, 2]
    assert len(state.facedown) == 1 and state.discard == ()
    assert len(state.deck) == 25 - 10 - 1 - 1
    assert state.pot == 4 and state.coins == (4,) * 5
    assert (state.phase, state.acting, state.active) == (PLAY, (2,), 2)


def test_start_player_is_random_or_chosen():
    """ "Choose the starting player at random" (from the seed; option start_player for the creator's choice)."""
    starts = {GAME.new_game(6, {}, seed=s).starter for s in range(60)}
    assert starts == set(range(6))
    assert GAME.new_game(3, {"start_player": "seat1"}, seed=5).starter == 1
    with pytest.raises(InvalidOptions):
        GAME.new_game(3, {"start_player": "seat4"}, seed=5)


def test_the_card_data_is_one_table_with_assumed_rows():
    """The seed's table stops after "Princess": the 11 named types live in one table, each value the seed does
    not print marked assumed; the seed's rows are Kabuki 0/3 x1, Peasant 1/0 x7, Bandit 2/0 x3, Merchant 1/0 x1,
    Princess 0/3."""
    rows = {c.key: c for c in CARDS}
    assert len(CARDS) == 11
    for key, btl, hnr, copies in (("kabuki", 0, 3, 1), ("peasant", 1, 0, 7), ("bandit", 2, 0, 3),
                                  ("merchant", 1, 0, 1)):
        assert (rows[key].btl, rows[key].hnr, rows[key].copies, rows[key].assumed) == (btl, hnr, copies, "")
    assert (rows["princess"].btl, rows["princess"].hnr) == (0, 3) and rows["princess"].assumed
    for key in ("captain", "commander", "warlord", "monk", "emperor", "maiden"):
        assert rows[key].assumed
    # the removal table needs Captain >= 2, Commander >= 3, Monk >= 1 copies
    assert rows["captain"].copies >= 2 and rows["commander"].copies >= 3 and rows["monk"].copies >= 1


def test_cards_option_overrides_the_table():
    """The assumed values can be changed per game (option `cards`, JSON)."""
    state = GAME.new_game(6, {"cards": {"warlord": {"btl": 7}, "monk": {"copies": 1, "hnr": 4}}}, seed=2)
    assert state.btl[card("warlord")] == 7 and state.hnr[card("monk")] == 4 and state.copies[card("monk")] == 1
    assert GAME.new_game(6, {"cards": '{"emperor": {"hnr": 6.0}}'}, seed=2).hnr[card("emperor")] == 6
    assert card_table(6).btl[card("warlord")] == 6


@pytest.mark.parametrize(
    "bad",
    [
        {"jester": {"btl": 1}},
        {"warlord": {"strength": 1}},
        {"warlord": {"btl": -1}},
        {"warlord": {"btl": 1.5}},
        {"warlord": {"btl": True}},
        {"warlord": 3},
        "{not json",
        [1, 2],
        {"monk": {"copies": 0}},  # 2-3 players remove a Monk
    ],
)
def test_bad_card_options_are_rejected(bad):
    with pytest.raises(InvalidOptions):
        GAME.new_game(3, {"cards": bad}, seed=1)


def test_hands_are_hidden_and_the_spectator_sees_only_public_facts():
    """ "Each player checks their own hand without letting the other players see it." """
    state = position(hands={0: ("captain", "monk", "bandit"), 1: ("emperor", "peasant"), 2: ("kabuki", "maiden")})
    view = GAME.view(state, 1)
    assert view.hand == cards("emperor", "peasant")
    assert view.known == ((),) * 4 and view.hand_sizes == (3, 2, 2, 0)
    spectator = GAME.view(state, None)
    assert spectator.hand == () and spectator.known == ((),) * 4 and spectator.seen_by == ((),) * 4


def test_deck_order_and_the_face_down_discard_are_hidden_from_everyone():
    """ "Place the top card of the draw pile face down" -- nobody sees it, nor the order of the draw pile."""
    state = position(hands={0: ("captain", "monk", "bandit"), 1: ("emperor", "peasant")},
                     deck=("warlord", "peasant", "merchant"), fill=False)
    other = replace(state, deck=(card("merchant"), card("warlord"), card("peasant")), facedown=(card("princess"),))
    for seat in (None, 0, 1):
        assert GAME.view(state, seat) == GAME.view(other, seat)


def test_samples_keep_what_the_seat_knows_and_deal_only_unseen_cards():
    """A blocked attack shows the defender's hand to the attacker: its samples keep that hand exactly, and
    never deal a card it can place elsewhere (its hand, the face-up discard, the hand it saw)."""
    state = position(
        hands={0: ("captain", "peasant", "peasant"), 1: ("warlord", "bandit"), 2: ("monk", "maiden")},
        deck=("merchant", "commander", "emperor", "princess"),
    )
    state = act(state, (0, "play:captain>s1"), (1, "defend"))
    view = GAME.view(state, 0)
    assert view.known[1] == cards("warlord", "bandit")
    rng = random.Random(1)
    for _ in range(50):
        sample = GAME.sample(view, rng)
        assert GAME.view(sample, 0) == view
        assert card("warlord") in sample.hands[1] and card("bandit") in sample.hands[1]
        placed = list(sample.hands[0]) + list(sample.discard) + list(sample.hands[1])
        rest = list(sample.hands[2]) + list(sample.hands[3]) + list(sample.deck) + list(sample.facedown)
        for kind in range(len(KEYS)):
            assert placed.count(kind) + rest.count(kind) == state.copies[kind]


def test_every_move_is_made_in_plain_sight():
    """Cards are discarded face up with their targets, a Monk is shown, a coin goes to the center."""
    state = GAME.new_game(4, {}, seed=4)
    (seat,) = state.acting
    assert all(GAME.move_is_public(state, seat, m) for m in GAME.legal_moves(state, seat))
