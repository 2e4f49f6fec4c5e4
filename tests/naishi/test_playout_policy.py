"""The playout policy of Naishi's kernel (games.naishi.fast): the search's cheap model of a player."""

from __future__ import annotations

import random

from games.naishi.fast import EXPLORE, KERNEL, playout_policy
from games.naishi.moves import Develop, EndTurn
from tests.naishi.positions import RIVER, A, H, K, N, S, position

# Tops: an Advisor, a Sentinel, a Naishi (pile 3), a Monk, a Horseman.
NAISHI_IN_THE_MIDDLE = ((A,) + RIVER[0][1:], (S,) + RIVER[1][1:], (N,) + RIVER[2][1:], (K,) + RIVER[3][1:],
                        (H,) + RIVER[4][1:])  # fmt: skip


def never_random() -> float:
    return 0.99  # above EXPLORE: the rule of thumb decides


def test_develops_the_card_worth_most_where_it_lands():
    """"Naishi: 12 points in the 3rd position of your Line" beats every other development of the opening River."""
    ps = KERNEL.load(position(piles=NAISHI_IN_THE_MIDDLE))
    moves = KERNEL.legal_moves(ps, 0)
    assert playout_policy(ps, 0, moves, never_random) == Develop("line", 2)


def test_ends_the_turn_after_developing():
    ps = KERNEL.load(position(piles=NAISHI_IN_THE_MIDDLE))
    ps = KERNEL.play(ps, 0, Develop("hand", 0))
    moves = KERNEL.legal_moves(ps, 0)
    assert len(moves) > 1  # switches and discards are possible too
    assert isinstance(playout_policy(ps, 0, moves, never_random), EndTurn)


def test_a_share_of_the_picks_stays_uniformly_random():
    ps = KERNEL.load(position(piles=NAISHI_IN_THE_MIDDLE))
    moves = KERNEL.legal_moves(ps, 0)
    rng = random.Random(7)
    picks = [playout_policy(ps, 0, moves, rng.random) for _ in range(2000)]
    other = sum(1 for move in picks if move != Develop("line", 2)) / len(picks)
    assert EXPLORE * 0.7 < other < EXPLORE * 1.3
