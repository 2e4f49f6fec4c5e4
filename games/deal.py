"""The rules' shuffle: `random.Random.shuffle` step for step, compiled with the rules that deal (setup.py).

CPython's `Random.shuffle` is interpreted (random.py), and a game that deals during play pays for it in every
playout: a Zipang battle's deal cost 9% of a compiled search, a Naishi gift phase's two Hand shuffles a tenth of
its opening playouts. The same algorithm (Fisher-Yates from the end, each index drawn by `_randbelow` from
`getrandbits`), so the same order from the same generator; tests/test_deal.py holds it to the standard library's.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(rng: random.Random, cards: list[T]) -> None:
    """`rng.shuffle(cards)`: the same order, and the same draws taken from `rng`."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
