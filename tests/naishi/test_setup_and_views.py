"""Set Up, the secret gift, and what each player may know of the other's Hand."""

from __future__ import annotations

import random
from collections import Counter

from games.naishi import GAME
from games.naishi.knowledge import knowledge_index
from games.naishi.moves import Give
from tests.naishi.positions import MOUNTAINS, RIVER, A, H, K, M, N, S, T, changed, play, position


def _seed_with_two_different_offers() -> int:
    return next(seed for seed in range(100) if len(set(GAME.new_game(2, {}, seed).offers[0])) == 2)


def _after_gifts(seed: int):
    state = GAME.new_game(2, {}, seed)
    for seat in (0, 1):
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    return state


def test_setup():
    """"form 5 draw piles of 6 cards face down. Then, reveal the first card for each pile ... Give 2 of the
    remaining 4 Development cards to each player ... places 5 mountain cards in a line.\""""
    state = GAME.new_game(2, {}, 7)
    view = GAME.view(state, 0)
    assert view.pile_sizes == (6,) * 5 and None not in view.river
    assert len(view.offer) == 2 and view.lines == (MOUNTAINS, MOUNTAINS)
    assert GAME.to_act(state) == frozenset({0, 1}), "both choose their gift at the same time"


def test_the_gift_stays_secret_until_both_are_in():
    """"Each player keeps one Development card ... and gives the other to their opponent": neither sees the
    other's choice before both are made."""
    seed = _seed_with_two_different_offers()
    state = GAME.new_game(2, {}, seed)
    first, second = state.offers[0]
    gave_first, gave_second = GAME.apply(state, 0, Give(first)), GAME.apply(state, 0, Give(second))
    assert GAME.view(gave_first, 1) == GAME.view(gave_second, 1)
    assert GAME.view(gave_first, None) == GAME.view(gave_second, None)
    assert GAME.view(gave_first, 1).gifts_chosen == (True, False)
    assert GAME.view(gave_first, 0).gift_given == first
    assert GAME.to_act(gave_first) == frozenset({1})


def test_only_the_gift_is_a_secret_move():
    """"Each player keeps one Development card ... and gives the other to their opponent" in secret; every action
    of a turn (develop, Emissary, Decree, recall, declare) is done in plain sight, so others may see the move."""
    rng = random.Random(3)
    kinds = Counter()
    for seed in range(4):
        state = GAME.new_game(2, {}, seed)
        while not GAME.is_over(state):
            seat = min(GAME.to_act(state))
            moves = GAME.legal_moves(state, seat)
            for move in moves:
                assert GAME.move_is_public(state, seat, move) == (not isinstance(move, Give)), move.label
                kinds[type(move).__name__] += 1
            state = GAME.apply(state, seat, rng.choice(moves))
    assert kinds["Give"] and kinds["Develop"] and kinds["Switch"]


def test_gifts_are_revealed_and_each_hand_shuffled():
    """"Each player adds 3 mountain cards to their Hand ... Each player now shuffles the 5 cards in their Hand.\""""
    orders = set()
    for seed in range(20):
        state = GAME.new_game(2, {}, seed)
        offers = state.offers
        state = _after_gifts(seed)
        for seat in (0, 1):
            view = GAME.view(state, seat)
            kept = list(offers[seat])
            kept.remove(view.gift_given)
            assert Counter(view.hand) == Counter([M, M, M, kept[0], view.gift_received])
            assert view.gift_received == state.gifts[1 - seat]
        orders.add(state.hands[0])
        assert GAME.to_act(state) == frozenset({state.first}), "the first player starts"
    assert len(orders) > 5
    assert {GAME.new_game(2, {}, seed).first for seed in range(20)} == {0, 1}, "a random first player"


def test_the_giver_knows_the_gift_is_in_the_other_hand_but_not_where():
    state = _after_gifts(_seed_with_two_different_offers())
    gift = state.gifts[0]
    known = GAME.view(state, 0).knowledge[knowledge_index(0, 1)]
    assert known.slots == (None,) * 5 and gift in known.among and known.among.count(M) == 3
    view = GAME.view(state, 0)
    rng = random.Random(1)
    positions = set()
    for _ in range(40):
        hand = GAME.sample(view, rng).hands[1]
        assert Counter(hand)[gift] >= 1 and Counter(hand)[M] >= 3
        positions.add(hand.index(gift))
    assert len(positions) > 1, "the shuffle hides where it is"


def test_a_card_seen_entering_the_other_hand_is_known_where_it_is():
    """A development from the River into the Hand is done in view: its position is known, and follows a switch."""
    state = position(hands=(MOUNTAINS, (N, A, S, K, H)), turn=1)
    state = play(state, 1, "develop:hand:4")  # the River's Monk goes to position 4, the Monk there is discarded
    known = GAME.view(state, 0).knowledge[knowledge_index(0, 1)]
    assert known.slots == (None, None, None, K, None)
    state = play(state, 1, "switch:hand:2:4")
    view = GAME.view(state, 0)
    assert view.knowledge[knowledge_index(0, 1)].slots == (None, K, None, None, None)
    rng = random.Random(2)
    assert all(GAME.sample(view, rng).hands[1][1] == K for _ in range(20))


def test_a_discarded_hand_card_is_revealed():
    """"Cards are discarded face up": a Hand card replaced by a development is seen by everyone."""
    state = play(position(hands=(MOUNTAINS, (T, A, S, K, H)), turn=1), 1, "develop:hand:1")
    assert GAME.view(state, 0).discard == (T,) and GAME.view(state, None).discard == (T,)


def test_the_decree_shows_each_player_the_card_it_gets_and_where_its_card_went():
    state = play(position(hands=((N, M, M, M, M), (H, A, S, K, T))), 0, "decree:hand:1")
    assert GAME.view(state, 0).hand[0] == H
    assert GAME.view(state, 0).knowledge[knowledge_index(0, 1)].slots[0] == N
    assert GAME.view(state, None).knowledge[knowledge_index(None, 1)].slots[0] is None, "the public saw no card"


def test_a_view_hides_the_other_hand_order_and_the_pile_depths():
    """The Hand is hidden from the opponent; only the top card of each River pile is visible."""
    one = position(hands=((N, A, S, K, H), MOUNTAINS))
    other = position(hands=((H, K, S, A, N), MOUNTAINS), piles=tuple(p[:1] + p[1:][::-1] for p in RIVER))
    assert GAME.view(one, 1) == GAME.view(other, 1)
    assert GAME.view(one, None) == GAME.view(other, None)
    assert GAME.view(one, 0) != GAME.view(other, 0)


def test_hands_are_revealed_at_the_end():
    """"Before final scoring, each player places the 5 cards from their Hand under the 5 cards from their Line.\""""
    state = position(hands=((N, A, S, K, H), MOUNTAINS), phase="over")
    assert GAME.view(state, 1).revealed_hands[0] == (N, A, S, K, H)
    assert GAME.view(state, None).revealed_hands == state.hands


def test_samples_keep_every_seen_card_in_place_through_a_whole_game():
    """Random games: every determinization of a view keeps the view, and deals only cards not yet seen."""
    for seed in range(30):
        rng = random.Random(seed)
        state = GAME.new_game(2, {}, seed)
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
            for observer in (0, 1, None):
                view = GAME.view(state, observer)
                sample = GAME.sample(view, rng)
                assert GAME.view(sample, observer) == view
                cards = Counter(c for rows in (sample.hands, sample.lines, sample.piles) for row in rows for c in row)
                cards.update(sample.discard)
                if sample.phase != "gift":
                    assert sum(cards.values()) == 50, "16 Mountains and 34 development cards"
                assert all(M not in pile for pile in sample.piles), "Mountains never enter the River"


def test_what_an_observer_knows_of_a_hand_is_always_true():
    """Random games: every known position holds that card, and the cards known to be "somewhere" are in the
    unknown positions (for each seat about the other's Hand, and for the public about both)."""
    for seed in range(150):
        rng = random.Random(seed)
        state = GAME.new_game(2, {}, seed)
        while GAME.to_act(state):
            seat = rng.choice(sorted(GAME.to_act(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
            if state.phase != "turn":
                continue
            for observer, owner in ((0, 1), (1, 0), (None, 0), (None, 1)):
                known = state.knowledge[knowledge_index(observer, owner)]
                hand = state.hands[owner]
                assert all(card is None or card == hand[i] for i, card in enumerate(known.slots))
                unknown_cards = Counter(hand[i] for i, card in enumerate(known.slots) if card is None)
                assert not Counter(known.among) - unknown_cards


def test_a_discarded_gift_is_no_longer_known_to_be_in_the_hand():
    """The receiver discards the gift face up: the giver no longer counts it among the Hand's cards."""
    state = _after_gifts(_seed_with_two_different_offers())
    gift = state.gifts[0]
    pos = state.hands[1].index(gift)
    state = changed(state, turn=1, piles=RIVER)
    state = play(state, 1, f"develop:hand:{pos + 1}")
    known = GAME.view(state, 0).knowledge[knowledge_index(0, 1)]
    assert known.slots[pos] == RIVER[pos][0]
    assert Counter(known.among)[gift] == Counter([M, M, M, gift])[gift] - 1
