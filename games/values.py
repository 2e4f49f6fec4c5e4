"""The seeded chance the rules draw from, compiled with the rules that call it (setup.py).

A chance event of a game (a deal, a Naishi Hand's shuffle, a Zipang battle's pile, a Kung Fur Fight tie) draws from
the state's seed and the event's salt alone, so that a stored game plays on the same after a restart or on another
replica. Its bits are BLAKE2b's (`hashlib`) in counter mode: the digest of the key and a block number, 512 bits a
block. That replaced a `random.Random` seeded from the same key: Mersenne Twister's seeding fills 624 words before
the first draw (4.8 us timed, against 0.5 us for a BLAKE2b block), 2.3 k of a compiled checked Naishi move's 18.1 k
instructions (two Hand shuffles a game) and about 1 k of a six-seat Zipang move's (a battle's pile), by callgrind.
The search's own draws (`draw_chance`) stay a `random.Random`: it is seeded once a search.
"""

from __future__ import annotations

from hashlib import blake2b
from struct import Struct
from typing import Final, Protocol

_WORDS: Final = Struct("<16I")  # a BLAKE2b digest at its full size (64 bytes): 16 words of 32 bits, little-endian
# The first block numbers as the 8 bytes (little-endian) hashed after the key, made once (`int.to_bytes` is a
# Python method call): a chance event of a few draws hashes one or two.
_FIRST_BLOCKS: Final = 8
_BLOCKS: Final[tuple[bytes, ...]] = tuple(block.to_bytes(8, "little") for block in range(_FIRST_BLOCKS))


class Bits(Protocol):
    """What the rules draw chance from: `getrandbits` (a `Chance`, or the search's `random.Random`)."""

    def getrandbits(self, k: int, /) -> int: ...


class Chance:
    """The draws of one chance event: the 32-bit words of BLAKE2b(key, block) for block 0, 1, 2, ... (each digest
    read as 16 little-endian words), taken as `random.Random` takes its generator's words (games.deal shuffles and
    draws indices by `getrandbits`, by rejection, so every draw is uniform): `getrandbits(k)` for `k` <= 32 is the
    next word's top `k` bits; a wider draw is as many words as it needs, the first in its low bits, the last's top
    bits on top. A word is a small integer, so a draw makes no big one (a draw shifting one 512-bit integer cost about
    half of the generator's time, by callgrind)."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._block = 0  # the next block to hash
        self._words: tuple[int, ...] = ()  # the words of the last block
        self._next = 0  # the index of the next word to take

    def _word(self) -> int:
        """The next 32-bit word."""
        i = self._next
        if i == len(self._words):
            block = self._block
            self._words = _WORDS.unpack(
                blake2b(self._key + (_BLOCKS[block] if block < _FIRST_BLOCKS else block.to_bytes(8, "little"))).digest()
            )
            self._block += 1
            i = 0
        self._next = i + 1
        return self._words[i]

    def getrandbits(self, k: int, /) -> int:
        """The next `k` bits as a non-negative integer below 2**k (none taken for `k` = 0)."""
        if k <= 32:
            if k <= 0:
                if k < 0:
                    raise ValueError("number of bits must be non-negative")
                return 0
            return self._word() >> (32 - k)
        drawn = 0
        shift = 0
        while k > 0:
            word = self._word()
            if k < 32:
                word >>= 32 - k
            drawn |= word << shift
            shift += 32
            k -= 32
        return drawn


def chance(seed: int, event: str) -> Chance:
    """The draws of the chance event `event` names in the game of `seed` (the event's parts joined by ':', e.g.
    f"shuffle:{seat}"): the key is f"{seed}:{event}". One string the caller formats, not parts joined here (joining
    a `*salt` of parts was a fifth of the cost of a compiled Naishi Hand's shuffle, by callgrind)."""
    return Chance(f"{seed}:{event}".encode())
