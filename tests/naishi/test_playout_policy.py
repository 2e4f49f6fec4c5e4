"""Naishi's playout policy (games.naishi.policy): the search's cheap model of a player, on the working state."""

from __future__ import annotations

import random

from games.naishi import rules
from games.naishi.moves import Develop, EndTurn
from games.naishi.policy import EXPLORE, choose
from tests.naishi.positions import RIVER, A, H, K, N, S, position

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
            assert copies == moves and any(c is not m for c, m in zip(copies, moves, strict=True)) == any(
                isinstance(m, Develop) for m in moves)
            for draw_seed in range(3):
                ours, theirs = random.Random(draw_seed), random.Random(draw_seed)
                assert choose(work, seat, moves, ours.random) == choose(work, seat, copies, theirs.random)
            checked += 1
            rules.play(work, seat, game_rng.choice(moves))
    assert checked > 50
