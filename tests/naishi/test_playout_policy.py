"""Naishi's playout policy (games.naishi.policy): the search's cheap model of a player, on the working state."""

from __future__ import annotations

import random

from games.naishi import rules
from games.naishi.greedy import DECLARE_MARGIN
from games.naishi.moves import DeclareEnd, Develop, EndTurn, Switch
from games.naishi.policy import DECLARE_LEAD, EXPLORE, choose
from games.naishi.scoring import territory_key
from tests.naishi.positions import MOUNTAINS, RIVER, A, H, K, M, N, S, position

# Tops: an Advisor, a Sentinel, a Naishi (pile 3), a Monk, a Horseman.
NAISHI_IN_THE_MIDDLE = ((A,) + RIVER[0][1:], (S,) + RIVER[1][1:], (N,) + RIVER[2][1:], (K,) + RIVER[3][1:],
                        (H,) + RIVER[4][1:])  # fmt: skip


def never_random() -> float:
    return 0.99  # above EXPLORE: the rule of thumb decides


def test_develops_the_card_worth_most_where_it_lands():
    """"Naishi: 12 points in the 3rd position of your Line" beats every other development of the opening River."""
    work = rules.thaw(position(piles=NAISHI_IN_THE_MIDDLE))
    moves = rules.legal_moves(work, 0)
    assert choose(work, 0, moves, never_random) == Develop("line", 2)


def test_ends_the_turn_after_developing():
    work = rules.thaw(position(piles=NAISHI_IN_THE_MIDDLE))
    rules.play(work, 0, Develop("hand", 0))
    moves = rules.legal_moves(work, 0)
    assert len(moves) > 1  # switches and discards are possible too
    assert isinstance(choose(work, 0, moves, never_random), EndTurn)


def test_a_share_of_the_picks_stays_uniformly_random():
    work = rules.thaw(position(piles=NAISHI_IN_THE_MIDDLE))
    moves = rules.legal_moves(work, 0)
    rng = random.Random(7)
    picks = [choose(work, 0, moves, rng.random) for _ in range(2000)]
    other = sum(1 for move in picks if move != Develop("line", 2)) / len(picks)
    assert EXPLORE * 0.7 < other < EXPLORE * 1.3



def test_developments_made_elsewhere_are_weighed_alike():
    """The policy knows the rules' own development moves by sight (a table); equal moves made elsewhere are read by
    their fields, to the same pick from the same draws, in every position of a few random games."""
    checked = 0
    for game_seed in range(4):
        game_rng = random.Random(game_seed)
        work = rules.thaw(position(piles=NAISHI_IN_THE_MIDDLE))
        while rules.to_act(work):
            seat = rules.to_act(work)[0]
            moves = rules.legal_moves(work, seat)
            copies = [Develop(m.row, m.pos) if isinstance(m, Develop) else m for m in moves]
            assert copies == list(moves) and any(c is not m for c, m in zip(copies, moves, strict=True)) == any(
                isinstance(m, Develop) for m in moves)
            for draw_seed in range(3):
                ours, theirs = random.Random(draw_seed), random.Random(draw_seed)
                assert choose(work, seat, moves, ours.random) == choose(work, seat, copies, theirs.random)
            checked += 1
            rules.play(work, seat, game_rng.choice(moves))
    assert checked > 50


# pile 2 is empty, so the end may be declared; the tops: a Naishi, an Advisor, (none), a Monk, a Horseman
ONE_EMPTY = (RIVER[0], RIVER[1], (), RIVER[3], RIVER[4])
NAISHI_IN_THE_CENTRE = (M, M, N, M, M)


def always_random() -> float:
    return 0.0  # below EXPLORE: a uniformly random pick, where the policy makes one


def totals(work) -> list[int]:
    return [territory_key(work.lines[s], work.hands[s])[0] for s in (0, 1)]


def test_declares_the_end_with_a_lead_as_the_greedy_player_does():
    """The model declares the end where it may and leads by DECLARE_LEAD points, whatever its draws; the greedy
    player it stands for declares with the same lead over its estimate of the opponent (greedy.DECLARE_MARGIN)."""
    work = rules.thaw(position(piles=ONE_EMPTY, lines=(NAISHI_IN_THE_CENTRE, MOUNTAINS)))
    mine, theirs = totals(work)
    assert mine - theirs >= DECLARE_LEAD == DECLARE_MARGIN
    moves = rules.legal_moves(work, 0)
    assert DeclareEnd() in moves
    for draws in (never_random, always_random):
        assert choose(work, 0, moves, draws) == DeclareEnd()


def test_does_not_declare_with_a_smaller_lead_or_before_a_pile_is_empty():
    work = rules.thaw(position(piles=ONE_EMPTY, lines=(NAISHI_IN_THE_CENTRE, MOUNTAINS),
                               hands=(MOUNTAINS, NAISHI_IN_THE_CENTRE)))  # the Naishi: 12 in a Line, 8 in a Hand
    mine, theirs = totals(work)
    assert 0 < mine - theirs < DECLARE_LEAD
    assert choose(work, 0, rules.legal_moves(work, 0), never_random) != DeclareEnd()
    work = rules.thaw(position(lines=(NAISHI_IN_THE_CENTRE, MOUNTAINS)))  # a big lead, but every pile has cards
    moves = rules.legal_moves(work, 0)
    assert DeclareEnd() not in moves
    assert choose(work, 0, moves, never_random) != DeclareEnd()


def test_the_last_turn_switches_river_cards_to_develop_the_best_card():
    """On its last turn the model plans by the exact score, with no random picks: the Naishi on River pile 1 is worth
    12 points only in the Line's centre, so it switches River cards 1 and 3 first, then develops it there."""
    work = rules.thaw(position(piles=ONE_EMPTY[:2] + (RIVER[2],) + ONE_EMPTY[3:], final_turn=0))
    best_direct = max(
        totals_after(work, move) for move in rules.legal_moves(work, 0) if isinstance(move, Develop)
    )
    assert best_direct < 12 - 5  # no development straight away gets the Naishi to the centre
    for draws in (never_random, always_random):
        assert choose(work, 0, rules.legal_moves(work, 0), draws) == Switch("river", 0, 2)
    rules.play(work, 0, Switch("river", 0, 2))
    assert choose(work, 0, rules.legal_moves(work, 0), always_random) == Develop("line", 2)


def test_the_last_turn_ends_with_the_best_switch_of_its_own_cards():
    """After developing on its last turn, the model switches two of its own cards where that scores more (the
    Naishi to the Line's centre), and otherwise ends the turn (where the policy's other turns always end it)."""
    work = rules.thaw(position(lines=((N, M, M, M, M), MOUNTAINS), final_turn=0))
    rules.play(work, 0, Develop("hand", 4))
    assert choose(work, 0, rules.legal_moves(work, 0), always_random) == Switch("line", 0, 2)
    work = rules.thaw(position(lines=(NAISHI_IN_THE_CENTRE, MOUNTAINS), final_turn=0))
    rules.play(work, 0, Develop("hand", 4))
    assert choose(work, 0, rules.legal_moves(work, 0), always_random) == EndTurn()


def totals_after(work, move) -> int:
    after = rules.thaw(rules.freeze(work))
    rules.play(after, 0, move)
    return territory_key(after.lines[0], after.hands[0])[0]
