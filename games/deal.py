"""The rules' shuffle and pick: `random.Random.shuffle` and `randrange(n)` step for step, compiled with the rules
that deal (setup.py).

CPython's `Random.shuffle` and `randrange` are interpreted (random.py), and a game that deals during play pays for
them in every playout: a Zipang battle's deal cost 9% of a compiled search, a Naishi gift phase's two Hand shuffles
a tenth of its opening playouts; the search's tree draws its untried moves and breaks its ties by `randrange`. The
same algorithms (Fisher-Yates from the end, each index drawn by `_randbelow` from `getrandbits`), so the same order
and index from the same generator; tests/test_deal.py holds them to the standard library's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from games.values import Bits

T = TypeVar("T")


def shuffle(rng: Bits, cards: list[T]) -> None:
    """`rng.shuffle(cards)`: the same order, and the same draws taken from `rng`."""
    getrandbits = rng.getrandbits  # bound once: binding it for each card cost a compiled Hinode deal 4% of a move
    for i in range(len(cards) - 1, 0, -1):
        j = _below(getrandbits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def randbelow(rng: Bits, n: int) -> int:
    """`rng.randrange(n)` for `n` >= 1: the same index, and the same draws taken from `rng`."""
    return _below(rng.getrandbits, n)


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """`Random._randbelow_with_getrandbits`: a draw of `n`'s bit length, again until it is below `n`."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
