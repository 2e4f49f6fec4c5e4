"""The record of what the table saw happen to each seat's hand (State.record: its decisions, the cards that left
it face up, its draws), and what the search's samples read from it (games.zipang.evidence): a hand the seat's moves
argue against is dealt less often, never ruled out."""

from __future__ import annotations

import random

import pytest

from games.base import evolve
from games.zipang import GAME
from games.zipang.evidence import UNLIKELY, _likelihood, weight
from games.zipang.greedy import ZipangGreedy
from games.zipang.moves import Play, React
from games.zipang.rules import draw_chance, play
from games.zipang.state import DREW, Decision, Look, State
from games.zipang.views import unseen
from games.zipang.work import freeze, thaw
from tests.zipang.positions import act, card, cards, known, position

MONK = card("monk")


def _bandit_let_through(seat1: tuple[str, ...], **fields) -> State:
    """Seat 0 steals a coin from seat 1 with a Bandit; seat 1 (holding `seat1`) lets it through; seat 1's turn."""
    state = position(
        n=2, hands={0: ("bandit", "captain", "peasant"), 1: seat1}, deck=("warlord", "peasant", "kabuki"), **fields,
    )
    return act(state, (0, "play:bandit>s1"), (1, "accept"))


def _decisions(record) -> list[Decision]:
    return [e for e in record if isinstance(e, Decision)]


def test_a_play_is_recorded_with_the_table_the_seat_saw():
    state = position(n=2, hands={0: ("bandit", "captain", "peasant"), 1: ("warlord", "merchant")},
                     deck=("emperor",), coins=(3, 2), pot=1)
    after = act(state, (0, "play:bandit>s1"))
    drew, d, left = after.record[0]  # the card drawn at the turn's start, the play, the Bandit laid down
    assert drew == DREW and left == card("bandit")
    assert isinstance(d, Decision) and d.move == Play(card("bandit"), (1,))
    assert d.coins == (3, 2) and d.pot == 1 and d.discard == () and d.hand_sizes == (3, 2)
    assert after.record[1] == ()


def test_an_answer_and_the_cards_that_leave_and_come_are_recorded():
    state = position(n=2, hands={0: ("maiden", "captain", "peasant"), 1: ("monk", "emperor")},
                     deck=("warlord", "peasant", "kabuki"))
    after = act(state, (0, "play:maiden>s1"), (1, "monk"))
    d, monk, drew, turn = after.record[1]  # "refill your hand immediately until you have 2 cards"; its turn's draw
    assert isinstance(d, Decision) and d.move.kind == "monk" and (monk, drew, turn) == (MONK, DREW, DREW)
    # A Shrine Maiden that is let through takes a card, face up: the record says which, and the refill.
    state = position(n=2, hands={0: ("maiden", "captain", "peasant"), 1: ("warlord", "emperor")},
                     deck=("merchant", "peasant", "kabuki"))
    after = act(state, (0, "play:maiden>s1"), (1, "accept"), (0, "take:emperor"))
    assert [e if not isinstance(e, Decision) else e.move.kind for e in after.record[1]] == [
        "accept", Look(0, cards("warlord", "emperor")), card("emperor"), DREW]  # the look, the take, the refill
    assert GAME.view(after, 1).record[1][1] == Look(0, ()) == GAME.view(after, None).record[1][1]  # not theirs


def test_the_record_starts_again_each_battle_and_with_an_exclusion():
    state = position(n=3, hands={0: ("warlord", "captain", "peasant"), 1: ("peasant", "kabuki"),
                                 2: ("emperor", "maiden")}, deck=("merchant", "peasant", "monk"),
                     had_turn=(True, True, True))
    after = act(state, (0, "play:warlord>s1"))
    while after.acting == (1,):  # seat 1 may hold a Monk as far as the table knows: it answers, and falls
        after = act(after, (1, "defend"))
    assert not after.in_battle[1] and after.record[1] == ()
    assert _decisions(after.record[0])
    ended = act(after, (after.acting[0], "play:emperor"))
    assert ended.battle == state.battle + 1
    # a new battle: only the new starter's draw at its turn's start
    assert ended.record == tuple((DREW,) if p == ended.active else () for p in range(3))


def test_a_search_determinization_keeps_no_record():
    state = position(n=2, hands={0: ("bandit", "captain", "peasant"), 1: ("warlord", "merchant")},
                     deck=("emperor",))
    work = thaw(state)
    draw_chance(work, random.Random(1))
    play(work, 0, Play(card("bandit"), (1,)))
    assert freeze(work).record == state.record


def test_a_view_keeps_only_what_the_seat_knew_of_the_viewers_own_hand():
    """What seat 1 saw of seat 2's hand (its Shrine Maiden) is not seat 0's or seat 3's to know, even inside seat 1's
    record of its answer; seat 2 may see it."""
    state = position(hands={0: ("captain", "peasant"), 1: ("maiden", "captain", "bandit"), 2: ("warlord", "kabuki"),
                            3: ("peasant", "merchant")}, active=1, deck=("commander", "peasant", "emperor"))
    state = act(state, (1, "play:maiden>s2"), (2, "accept"), (1, "take:none"))
    assert known(state, 1, 2) == cards("warlord", "kabuki")
    state = act(state, (2, "play:commander>s1"), (1, "defend"))  # 3 + 2 BTL hold against 4
    answer = _decisions(state.record[1])[-1]
    assert answer.move.kind == "defend" and answer.known[2] == cards("warlord", "kabuki")
    for viewer in (0, 3, None):
        assert _decisions(GAME.view(state, viewer).record[1])[-1].known == ((),) * 4
    assert _decisions(GAME.view(state, 2).record[1])[-1].known == ((), (), cards("warlord", "kabuki"), ())


def test_a_defence_that_held_and_a_look_bound_the_hand_then():
    """Rules, not the model: a seat that defended against an attack and is still in the battle held at least the
    attack's BTL, so every hand short of it weighs 0 for the table; the attacker, who saw the hand, weighs every
    other hand 0."""
    state = position(hands={0: ("captain", "peasant"), 1: ("maiden", "captain", "bandit"), 2: ("warlord", "kabuki"),
                            3: ("peasant", "merchant")}, active=1, deck=("commander", "peasant", "emperor"))
    state = act(state, (1, "play:maiden>s2"), (2, "accept"), (1, "take:none"))
    state = act(state, (2, "play:commander>s1"), (1, "defend"))  # 3 + 2 BTL hold against 4
    truth = state.hands[1]
    assert state.record[1][-1] == Look(2, truth)
    btl = state.btl
    for viewer in (0, 2):
        view = GAME.view(state, viewer)
        pool = unseen(view)
        hands = {tuple(sorted((a, b))) for i, a in enumerate(pool) for b in pool[i + 1 :]}
        if viewer == 2:
            hands |= {truth}
        for hand in hands:
            chance = _likelihood(view, 1, hand, view.record[1], {})
            if viewer == 0:
                assert (chance == 0.0) == (btl[hand[0]] + btl[hand[1]] < 4), (hand, chance)
            else:
                assert (chance > 0.0) == (hand == truth), (hand, chance)


def _monk_share(state, observer: int, seat: int, samples: int = 3000) -> float:
    view = GAME.view(state, observer)
    rng = random.Random(7)
    return sum(MONK in GAME.sample(view, rng).hands[seat] for _ in range(samples)) / samples


def test_a_seat_that_lets_a_bandit_through_with_coins_is_dealt_a_monk_less_often():
    """The greedy player cancels a Bandit with a Monk whenever it has coins to lose: letting it through says the
    hand likely holds none. Every sample still agrees with the view; a Monk is rarer, not ruled out."""
    state = _bandit_let_through(("warlord", "merchant"))
    assert _decisions(state.record[1]) and state.acting == (1,)
    with_evidence = _monk_share(state, 0, 1)
    without = _monk_share(evolve(state, record=((), ())), 0, 1)
    assert with_evidence < 0.6 * without, (with_evidence, without)
    assert with_evidence > 0.0  # a person may play otherwise: no deal is ruled out
    view = GAME.view(state, 0)
    rng = random.Random(3)
    for _ in range(50):
        assert GAME.view(GAME.sample(view, rng), 0) == view


def _weights(view, pool: list[int], rng: random.Random, rounds: int = 400) -> tuple[list[float], list[float]]:
    """The weights of deals with and without a Monk among seat 1's three cards (the first three dealt), once
    every deal has been met (a weight is relative to the likeliest met so far)."""
    for _ in range(rounds):
        rng.shuffle(pool)
        weight(view, pool)
    with_monk: list[float] = []
    without_monk: list[float] = []
    for _ in range(rounds):
        rng.shuffle(pool)
        (with_monk if MONK in pool[:3] else without_monk).append(weight(view, pool))
    assert with_monk and without_monk
    return with_monk, without_monk


def test_samples_follow_the_answer_the_model_would_give():
    """With coins to lose, the greedy player cancels a Bandit with a Monk. Seat 1 let one through, then drew its
    third card: which of the three it drew is unseen, each alike. A hand of one Monk and two other cards held it
    before the draw a third of the time (the Monk drawn since), so it weighs 1/3 + 2/3 * UNLIKELY against 1 for a
    hand without a Monk. Without coins the seat lets the Bandit through whatever it holds: every deal weighs alike."""
    state = _bandit_let_through(("warlord", "merchant"))
    assert [e if not isinstance(e, Decision) else e.move for e in state.record[1]] == [
        React("accept", card("bandit"), False), DREW]
    view = GAME.view(state, 0)
    with_monk, without_monk = _weights(view, unseen(view), random.Random(2))
    assert max(with_monk) == pytest.approx(1 / 3 + 2 / 3 * UNLIKELY) and min(without_monk) == 1.0
    broke = _bandit_let_through(("warlord", "merchant"), coins=(3, 0))
    view = GAME.view(broke, 0)
    with_monk, without_monk = _weights(view, unseen(view), random.Random(2))
    assert min(with_monk) == 1.0 and min(without_monk) == 1.0


def test_an_older_decision_still_tells_after_the_seat_played_again():
    """The whole battle counts, not the last move alone. Seat 1 let the Bandit through with coins (no Monk then),
    drew, and played its Merchant, keeping two cards. The greedy player plays that Merchant holding a Warlord and a
    Monk as holding two Warlords, so the play alone tells those hands apart no more; the answer before it does: the
    Monk was in the hand then unless it is the card drawn since (one chance in three)."""
    state = _bandit_let_through(("warlord", "merchant"))
    assert state.hands[1] == cards("merchant", "warlord", "warlord")
    greedy = ZipangGreedy()
    merchant = Play(card("merchant"), ())
    for hand in (("merchant", "warlord", "warlord"), ("merchant", "warlord", "monk")):
        holding = evolve(state, hands=(state.hands[0], cards(*hand)))
        assert greedy.choose(GAME, GAME.view(holding, 1), GAME.legal_moves(holding, 1), random.Random(0)) == merchant
    state = GAME.apply(state, 1, merchant)
    while state.acting != (0,):
        (seat,) = state.acting
        state = GAME.apply_id(state, seat, "accept")
    view = GAME.view(state, 0)

    def weighed(view, *first: str) -> float:
        """The weight of a deal that gives seat 1 the cards `first` (seat 1's cards come first in the pool)."""
        pool = unseen(view)
        for c in cards(*first):
            pool.remove(c)
        return weight(view, [*cards(*first), *pool])

    assert weighed(view, "warlord", "warlord") == 1.0  # the likeliest so far
    assert weighed(view, "monk", "warlord") == pytest.approx(1 / 3 + 2 / 3 * UNLIKELY)
    last_only = evolve(view, record=(view.record[0], tuple(view.record[1][2:])))  # the play and what followed
    assert weighed(last_only, "warlord", "warlord") == weighed(last_only, "monk", "warlord") == 1.0


def test_samples_deal_the_true_hand_more_often_against_the_greedy_player():
    """Two greedy players: at each decision with a record of the other seat, seat's samples deal the other's true
    hand more often with the records than without them."""
    greedy = ZipangGreedy()
    rng = random.Random(1)
    hits = [0, 0]
    for game_seed in range(4):
        state = GAME.new_game(2, {}, 200 + game_seed)
        while not GAME.is_over(state):
            (seat,) = state.acting
            other = 1 - seat
            view = GAME.view(state, seat)
            moves = GAME.legal_moves(state, seat)
            if _decisions(view.record[other]) and len(view.known[other]) < view.hand_sizes[other]:
                truth = state.hands[other]
                blind = evolve(view, record=((), ()))
                for i, v in enumerate((view, blind)):
                    hits[i] += sum(GAME.sample(v, rng).hands[other] == truth for _ in range(60))
            state = GAME.apply(state, seat, greedy.choose(GAME, view, moves, rng))
    assert hits[0] > 1.2 * hits[1], hits


def test_larger_tables_are_left_to_chance():
    state = GAME.new_game(5, {}, seed=2)
    for _ in range(12):
        (seat,) = state.acting
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    view = GAME.view(state, state.acting[0])
    assert any(_decisions(entries) for entries in view.record)
    pool = unseen(view)
    rng = random.Random(4)
    for _ in range(20):
        rng.shuffle(pool)
        assert weight(view, pool) == 1.0
