"""The rules' shuffle and pick: `random.Random.shuffle` and `randrange(n)` step for step, compiled with the rules
that deal (setup.py).

CPython's `Random.shuffle` and `randrange` are interpreted (random.py), and a game that deals during play pays for
them in every playout: a Zipang battle's deal cost 9% of a compiled search, a Naishi gift phase's two Hand shuffles
a tenth of its opening playouts; the search's tree draws its untried moves and breaks its ties by `randrange`. The
same algorithms (Fisher-Yates from the end, each index drawn by `_randbelow` from `getrandbits`), so the same order
and index from the same generator; tests/test_deal.py holds them to the standard library's. They draw from a
game's own chance (`games.values.Chance`, called natively where compiled) or from the search's `random.Random`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from games.values import Bits, Chance

T = TypeVar("T")


def shuffle(rng: Bits, cards: list[T]) -> None:
    """`rng.shuffle(cards)`: the same order, and the same draws taken from `rng`."""
    if isinstance(rng, Chance):  # a game's own chance (games.values): its draws called natively where compiled
        for i in range(len(cards) - 1, 0, -1):
            j = _chance_below(rng, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return
    getrandbits = rng.getrandbits  # bound once: binding it for each card cost a compiled Hinode deal 4% of a move
    for i in range(len(cards) - 1, 0, -1):
        j = _below(getrandbits, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def randbelow(rng: Bits, n: int) -> int:
    """`rng.randrange(n)` for `n` >= 1: the same index, and the same draws taken from `rng`."""
    if isinstance(rng, Chance):
        return _chance_below(rng, n)
    return _below(rng.getrandbits, n)


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """`Random._randbelow_with_getrandbits`: a draw of `n`'s bit length, again until it is below `n`."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _chance_below(rng: Chance, n: int) -> int:
    """`_below` from a `Chance`, whose `getrandbits` a compiled caller calls natively (through a bound method, a
    Python call a draw: a compiled Hinode deal, a hundred draws, took longer than with Mersenne Twister)."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r
