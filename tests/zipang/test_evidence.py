"""The record of each seat's last play and answer (State.plays, State.answers), and what the search's samples read
from it (games.zipang.evidence): a hand the seat's moves argue against is dealt less often, never ruled out."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from games.base import Move
from games.zipang import GAME
from games.zipang.evidence import UNLIKELY, weight
from games.zipang.greedy import ZipangGreedy
from games.zipang.moves import Play, React
from games.zipang.rules import attack_strength, blocks, draw_chance, play
from games.zipang.state import PLAY, State, View
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


def test_a_play_is_recorded_with_the_table_the_seat_saw():
    state = position(n=2, hands={0: ("bandit", "captain", "peasant"), 1: ("warlord", "merchant")},
                     deck=("emperor",), coins=(3, 2), pot=1)
    after = act(state, (0, "play:bandit>s1"))
    d = after.plays[0]
    assert d is not None and d.move == Play(card("bandit"), (1,))
    assert (d.kept, d.held) == (2, 2)  # two cards kept, both still there
    assert d.coins == (3, 2) and d.pot == 1 and d.discard == () and d.hand_sizes == (3, 2)
    assert after.plays[1] is None and after.answers == (None, None)


def test_an_answer_is_recorded_and_held_counts_the_cards_that_leave():
    state = position(n=2, hands={0: ("maiden", "captain", "peasant"), 1: ("monk", "emperor")},
                     deck=("warlord", "peasant", "kabuki"))
    after = act(state, (0, "play:maiden>s1"), (1, "monk"))
    d = after.answers[1]
    assert d is not None and d.move.kind == "monk"
    assert (d.kept, d.held) == (1, 1)  # the Emperor kept; the Monk went to the discard pile
    # A Shrine Maiden that is let through takes a card: one fewer of the kept cards is there for certain.
    state = position(n=2, hands={0: ("maiden", "captain", "peasant"), 1: ("warlord", "emperor")},
                     deck=("merchant", "peasant", "kabuki"))
    after = act(state, (0, "play:maiden>s1"), (1, "accept"))
    assert (after.answers[1].kept, after.answers[1].held) == (2, 2)
    after = act(after, (0, "take:emperor"))
    assert (after.answers[1].kept, after.answers[1].held) == (2, 1)


def test_the_record_starts_again_each_battle_and_with_an_exclusion():
    state = position(n=3, hands={0: ("warlord", "captain", "peasant"), 1: ("peasant", "kabuki"),
                                 2: ("emperor", "maiden")}, deck=("merchant", "peasant", "monk"),
                     had_turn=(True, True, True))
    after = act(state, (0, "play:warlord>s1"))
    while after.acting == (1,):  # seat 1 may hold a Monk as far as the table knows: it answers, and falls
        after = act(after, (1, "defend"))
    assert not after.in_battle[1] and after.plays[1] is None and after.answers[1] is None
    assert after.plays[0] is not None
    ended = act(after, (after.acting[0], "play:emperor"))
    assert ended.battle == state.battle + 1
    assert ended.plays == (None,) * 3 and ended.answers == (None,) * 3


def test_a_search_determinization_keeps_no_record():
    state = position(n=2, hands={0: ("bandit", "captain", "peasant"), 1: ("warlord", "merchant")},
                     deck=("emperor",))
    work = thaw(state)
    draw_chance(work, random.Random(1))
    play(work, 0, Play(card("bandit"), (1,)))
    assert freeze(work).plays == (None, None)


def test_a_view_keeps_only_what_the_seat_knew_of_the_viewers_own_hand():
    """What seat 1 saw of seat 2's hand (its Shrine Maiden) is not seat 0's or seat 3's to know, even inside seat 1's
    record of its answer; seat 2 may see it."""
    state = position(hands={0: ("captain", "peasant"), 1: ("maiden", "captain", "bandit"), 2: ("warlord", "kabuki"),
                            3: ("peasant", "merchant")}, active=1, deck=("commander", "peasant", "emperor"))
    state = act(state, (1, "play:maiden>s2"), (2, "accept"), (1, "take:none"))
    assert known(state, 1, 2) == cards("warlord", "kabuki")
    state = act(state, (2, "play:commander>s1"), (1, "defend"))  # 3 + 2 BTL hold against 4
    record = state.answers[1]
    assert record is not None and record.known[2] == cards("warlord", "kabuki")
    for viewer in (0, 3, None):
        assert GAME.view(state, viewer).answers[1].known == ((),) * 4
    assert GAME.view(state, 2).answers[1].known == ((), (), cards("warlord", "kabuki"), ())


def _monk_share(state, observer: int, seat: int, samples: int = 3000) -> float:
    view = GAME.view(state, observer)
    rng = random.Random(7)
    return sum(MONK in GAME.sample(view, rng).hands[seat] for _ in range(samples)) / samples


def test_a_seat_that_lets_a_bandit_through_with_coins_is_dealt_a_monk_less_often():
    """The greedy player cancels a Bandit with a Monk whenever it has coins to lose: letting it through says the
    hand likely holds none. Every sample still agrees with the view; a Monk is rarer, not ruled out."""
    state = _bandit_let_through(("warlord", "merchant"))
    assert state.answers[1] is not None and state.acting == (1,)
    with_evidence = _monk_share(state, 0, 1)
    without = _monk_share(replace(state, answers=(None, None)), 0, 1)
    assert with_evidence < 0.6 * without, (with_evidence, without)
    assert with_evidence > 0.0  # a person may play otherwise: no deal is ruled out
    view = GAME.view(state, 0)
    rng = random.Random(3)
    for _ in range(50):
        assert GAME.view(GAME.sample(view, rng), 0) == view


def _weights(view, pool: list[int], rng: random.Random, rounds: int = 400) -> tuple[list[float], list[float]]:
    """The weights of deals with and without a Monk among seat 1's two oldest cards (the first two it is dealt),
    once every deal has been met (a weight is relative to the likeliest met so far)."""
    for _ in range(rounds):
        rng.shuffle(pool)
        weight(view, pool)
    with_monk: list[float] = []
    without_monk: list[float] = []
    for _ in range(rounds):
        rng.shuffle(pool)
        (with_monk if MONK in pool[:2] else without_monk).append(weight(view, pool))
    assert with_monk and without_monk
    return with_monk, without_monk


def test_samples_follow_the_answer_the_model_would_give():
    """With coins to lose, the greedy player cancels a Bandit with a Monk: a deal that gives the seat a Monk among
    the cards it kept weighs UNLIKELY against 1 for one that does not. Without coins it lets the Bandit through
    whatever it holds: every deal weighs alike."""
    state = _bandit_let_through(("warlord", "merchant"))
    assert state.answers[1].move == React("accept", card("bandit"), False)
    view = GAME.view(replace(state, plays=(None, None)), 0)
    with_monk, without_monk = _weights(view, unseen(view), random.Random(2))
    assert max(with_monk) == UNLIKELY and min(without_monk) == 1.0
    broke = _bandit_let_through(("warlord", "merchant"), coins=(3, 0))
    view = GAME.view(replace(broke, plays=(None, None)), 0)
    with_monk, without_monk = _weights(view, unseen(view), random.Random(2))
    assert min(with_monk) == 1.0 and min(without_monk) == 1.0


def _greedy_decisions(seeds: range, rng: random.Random) -> Iterator[tuple[State, int, View, Sequence[Move]]]:
    """Every decision of the two-seat games dealt by `seeds` between two greedy players: (the state, the seat to
    decide, its view, its moves), each yielded before the greedy player makes its move (drawing from `rng`)."""
    greedy = ZipangGreedy()
    for game_seed in seeds:
        state = GAME.new_game(2, {}, game_seed)
        while not GAME.is_over(state):
            (seat,) = state.acting
            view = GAME.view(state, seat)
            moves = GAME.legal_moves(state, seat)
            yield state, seat, view, moves
            state = GAME.apply(state, seat, greedy.choose(GAME, view, moves, rng))


def test_samples_deal_the_true_hand_more_often_against_the_greedy_player():
    """Two greedy players: at each decision with a record of the other seat, seat's samples deal the other's true
    hand more often with the records than without them (the plays as well as the answers)."""
    rng = random.Random(1)
    hits = [0, 0]
    for state, seat, view, _ in _greedy_decisions(range(200, 204), rng):
        other = 1 - seat
        if view.plays[other] is not None and len(view.known[other]) < view.hand_sizes[other]:
            truth = state.hands[other]
            blind = replace(view, plays=(None, None), answers=(None, None))
            for i, v in enumerate((view, blind)):
                hits[i] += sum(GAME.sample(v, rng).hands[other] == truth for _ in range(60))
    assert hits[0] > 1.2 * hits[1], hits


def test_larger_tables_are_left_to_chance():
    state = GAME.new_game(5, {}, seed=2)
    for _ in range(12):
        (seat,) = state.acting
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    view = GAME.view(state, state.acting[0])
    assert any(d is not None for d in view.plays)
    pool = unseen(view)
    rng = random.Random(4)
    for _ in range(20):
        rng.shuffle(pool)
        assert weight(view, pool) == 1.0


def _attack_strengths(state: State, moves: Sequence[Move]) -> list[int]:
    """The strengths of the attacks among `moves` (an Ikki, or a card aimed at a seat that attacks)."""
    return sorted({attack_strength(state.btl, m.card, m.ikki) for m in moves
                   if isinstance(m, Play) and (m.ikki or m.targets)} - {0})


def _stops(state: State, hand: tuple[int, ...], strength: int) -> bool:
    """Whether `hand` stops an attack of `strength`: a Monk cancels it, or the hand blocks it."""
    return MONK in hand or blocks(state.btl, hand, strength)


def test_the_samples_reckon_an_attacks_odds_right_against_the_greedy_player():
    """Whether an attack is stopped (a Monk, or the defender's BTL reaching the attack's) is what the hidden hand is
    worth to the search (docs/ai.md, *Zipang: where the hidden hand is worth its points*). Two greedy players: at
    each play with an attack among the moves, the share of seat's samples in which the other seat stops each attack
    is that seat's chance to stop it, bin by bin (calibrated), and a better forecast than the samples without the
    records, which are not calibrated (they miss the Monks and the strong hands a greedy player keeps)."""
    rng = random.Random(3)
    forecasts: list[tuple[float, float, bool]] = []  # (with the records, without, stopped)
    for state, seat, view, moves in _greedy_decisions(range(700, 900), rng):
        other = 1 - seat
        strengths = _attack_strengths(state, moves) if state.phase == PLAY and state.in_battle[other] else []
        if strengths:
            blind = replace(view, plays=(None, None), answers=(None, None))
            hands = [[GAME.sample(v, rng).hands[other] for _ in range(100)] for v in (view, blind)]
            for strength in strengths:
                said = [sum(_stops(state, hand, strength) for hand in dealt) / len(dealt) for dealt in hands]
                forecasts.append((said[0], said[1], _stops(state, state.hands[other], strength)))
    assert len(forecasts) > 3000

    def gaps(i: int) -> list[float]:
        """Per bin of the forecast (fifths) holding at least 100 attacks: the share stopped less the mean forecast."""
        out = []
        for low in (0.0, 0.2, 0.4, 0.6, 0.8):
            chosen = [f for f in forecasts if low <= f[i] < low + 0.2 or (low == 0.8 and f[i] == 1.0)]
            if len(chosen) >= 100:
                out.append(sum(f[2] for f in chosen) / len(chosen) - sum(f[i] for f in chosen) / len(chosen))
        return out

    def brier(i: int) -> float:
        return sum((f[i] - f[2]) ** 2 for f in forecasts) / len(forecasts)

    calibrated, blind = gaps(0), gaps(1)
    assert len(calibrated) >= 4 and max(map(abs, calibrated)) < 0.05, calibrated
    assert max(blind) > 0.07, blind
    assert brier(0) < brier(1) - 0.01, (brier(0), brier(1))
