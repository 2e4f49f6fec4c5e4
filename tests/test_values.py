"""games.values.chance, what every chance event of a game draws from: BLAKE2b of the seed and the event in counter
mode, the same on both paths (the conformance suite plays every game on both), and uniform."""

from __future__ import annotations

import collections
import hashlib

import pytest

from games.deal import randbelow, shuffle
from games.values import chance


def test_the_bits_are_blake2b_of_the_seed_and_the_event_word_by_word():
    """The words of the digests of the key and each block number, 32 bits each, taken as `random.Random` takes its
    generator's: a narrow draw is a word's top bits, a wide one as many words as it needs, the first lowest."""
    blocks = b"".join(hashlib.blake2b(b"42:battle:3" + n.to_bytes(8, "little")).digest() for n in range(3))
    words = [int.from_bytes(blocks[i : i + 4], "little") for i in range(0, len(blocks), 4)]  # 48
    drawn = chance(42, "battle:3")
    assert [drawn.getrandbits(32) for _ in range(10)] == words[:10]
    assert [drawn.getrandbits(3) for _ in range(10)] == [w >> 29 for w in words[10:20]]  # into the second block
    assert drawn.getrandbits(0) == 0  # takes no word
    assert drawn.getrandbits(64) == words[20] | words[21] << 32
    assert drawn.getrandbits(70) == words[22] | words[23] << 32 | (words[24] >> 26) << 64
    assert drawn.getrandbits(1) == words[25] >> 31


def test_the_blocks_go_on_past_the_numbers_made_once():
    """The first block numbers' bytes are made once (games.values._BLOCKS); the later ones at each block."""
    blocks = b"".join(hashlib.blake2b(b"7:deal" + n.to_bytes(8, "little")).digest() for n in range(20))
    words = [int.from_bytes(blocks[i : i + 4], "little") for i in range(0, len(blocks), 4)]
    drawn = chance(7, "deal")
    assert [drawn.getrandbits(32) for _ in range(len(words))] == words


def test_a_draw_is_below_its_power_of_two_and_never_of_negative_bits():
    drawn = chance(1, "x")
    assert drawn.getrandbits(0) == 0
    for k in range(1, 130):
        assert 0 <= drawn.getrandbits(k) < 1 << k
    with pytest.raises(ValueError):
        drawn.getrandbits(-1)


def test_each_event_and_seed_draws_its_own_bits_and_the_same_each_time():
    keys = [(seed, event) for seed in range(30) for event in ["deal", "shuffle:0", "shuffle:1", "first"]]
    firsts = [chance(*key).getrandbits(64) for key in keys]
    assert len(set(firsts)) == len(keys)
    assert firsts == [chance(*key).getrandbits(64) for key in keys]
    # the seed and the event are joined with ':', so seed 1's "2:x" is not seed 12's ":x"
    assert chance(1, "2:x").getrandbits(64) != chance(12, ":x").getrandbits(64)


def test_shuffles_and_picks_from_the_seeds_are_uniform():
    """Every order of 4 cards from 24,000 seeds, and every index below 6: each within 4.5 standard deviations
    of its expected count (a bias of a few percent, or an order never dealt, fails)."""
    orders: collections.Counter[tuple[int, ...]] = collections.Counter()
    picks: collections.Counter[int] = collections.Counter()
    seeds = 24_000
    for seed in range(seeds):
        cards = [0, 1, 2, 3]
        drawn = chance(seed, "deal")
        shuffle(drawn, cards)
        orders[tuple(cards)] += 1
        picks[randbelow(drawn, 6)] += 1
    for counts, outcomes in ((orders, 24), (picks, 6)):
        assert len(counts) == outcomes
        mean = seeds / outcomes
        spread = (mean * (1 - 1 / outcomes)) ** 0.5
        assert all(abs(n - mean) < 4.5 * spread for n in counts.values()), counts


class _Generic:
    """A chance that is not a `Chance`: games.deal takes its draws through `getrandbits` as a Python call."""

    def __init__(self, drawn) -> None:
        self.getrandbits = drawn.getrandbits


def test_a_chance_shuffles_and_picks_as_any_generator_of_the_same_bits():
    """games.deal calls a `Chance` natively and any other generator by `getrandbits`: the same cards and picks."""
    for seed in range(200):
        native, generic = chance(seed, "deal"), _Generic(chance(seed, "deal"))
        for length in (0, 1, 2, 5, 12, 36, 60):
            mine, theirs = list(range(length)), list(range(length))
            shuffle(native, mine)
            shuffle(generic, theirs)
            assert mine == theirs, (seed, length)
        for n in (1, 2, 3, 6, 7, 33, 2**40 + 3):
            assert randbelow(native, n) == randbelow(generic, n), (seed, n)
