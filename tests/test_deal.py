"""games.deal.shuffle, the rules' own shuffle (compiled with them), is the standard library's: the same order from
the same generator, and the same draws taken from it."""

from __future__ import annotations

import random

from games.deal import randbelow, shuffle


def test_the_rules_shuffle_as_the_standard_library_does():
    for length in range(40):  # every length a Zipang deck or a Naishi deck or Hand can have
        for seed in range(25):
            ours, theirs = random.Random(f"{seed}:battle"), random.Random(f"{seed}:battle")
            ours.random(), theirs.random()  # a generator part used already
            mine, expected = list(range(length)), list(range(length))
            shuffle(ours, mine)
            theirs.shuffle(expected)
            assert mine == expected, (length, seed)
            assert ours.random() == theirs.random()  # the same draws were taken


def test_the_order_depends_on_the_generator():
    orders = set()
    for seed in range(20):
        cards = list(range(10))
        shuffle(random.Random(seed), cards)
        assert sorted(cards) == list(range(10))
        orders.add(tuple(cards))
    assert len(orders) == 20


def test_the_rules_pick_as_the_standard_library_does():
    ours, theirs = random.Random("7:tree"), random.Random("7:tree")
    for n in [1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 1000, 2**40 + 3] * 30:
        assert randbelow(ours, n) == theirs.randrange(n), n
    assert ours.random() == theirs.random()  # the same draws were taken
