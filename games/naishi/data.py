"""Naishi's cards: one small int per card type, with the data table of names, kinds, colours and copies.

The rulebook says each card shows its number of copies but does not list them; the counts below come from the
Game Park adaptation (`rules/src/material/CardId.ts`) and agree with a second code source (see
RULES_RESEARCH.md), so they are marked `assumed` as the architecture asks for data the rulebook leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Final: the compiled rules (mypyc) read these as constants, not as globals looked up by name
MOUNTAIN: Final = 0
NAISHI: Final = 1
ADVISOR: Final = 2
SENTINEL: Final = 3
MONK: Final = 4
HORSEMAN: Final = 5
RONIN: Final = 6
NINJA: Final = 7
FORT: Final = 8
TORII: Final = 9
RICE: Final = 10
BANNER: Final = 11


@dataclass(frozen=True)
class CardType:
    """One row of the card table."""

    card: int
    name: str
    kind: str  # "mountain", "character" or "province"
    colour: str
    copies: int
    assumed: bool  # True when the rulebook does not state it (copies: Game Park CardId.ts)


CARD_TABLE: tuple[CardType, ...] = (
    CardType(MOUNTAIN, "Mountain", "mountain", "white", 16, False),  # "16 mountain cards"
    CardType(NAISHI, "Naishi", "character", "pink", 2, True),
    CardType(ADVISOR, "Advisor", "character", "purple", 4, True),
    CardType(SENTINEL, "Sentinel", "character", "green", 4, True),
    CardType(MONK, "Monk", "character", "orange", 3, True),
    CardType(HORSEMAN, "Horseman", "character", "deep blue", 2, True),
    CardType(RONIN, "Ronin", "character", "turquoise", 2, True),
    CardType(NINJA, "Ninja", "character", "black", 2, True),
    CardType(FORT, "Fort", "province", "brown", 4, True),
    CardType(TORII, "Torii", "province", "red", 4, True),
    CardType(RICE, "Rice field", "province", "yellow", 5, True),
    CardType(BANNER, "Banner", "province", "light blue", 2, True),
)

NAMES: tuple[str, ...] = tuple(row.name for row in CARD_TABLE)
SLUGS: tuple[str, ...] = tuple(row.name.lower().replace(" ", "_") for row in CARD_TABLE)
COPIES: tuple[int, ...] = tuple(row.copies for row in CARD_TABLE)
CHARACTERS: tuple[int, ...] = tuple(row.card for row in CARD_TABLE if row.kind == "character")
PROVINCES: tuple[int, ...] = tuple(row.card for row in CARD_TABLE if row.kind == "province")
# What a Ninja may copy: a character that is not itself a Ninja.
COPIABLE: tuple[int, ...] = tuple(c for c in CHARACTERS if c != NINJA)
# The types a Ronin counts: the 6 non-Ninja characters and the 4 provinces (the Mountain is not one).
RONIN_TYPES: frozenset[int] = frozenset(COPIABLE + PROVINCES)

DEVELOPMENT_DECK: tuple[int, ...] = tuple(
    row.card for row in CARD_TABLE if row.kind != "mountain" for _ in range(row.copies)
)
assert len(DEVELOPMENT_DECK) == 34, "the rulebook's 34 development cards"

PILES: Final = 5  # River piles, and cards in a Hand and in a Line
PILE_SIZE: Final = 6
LINE_MOUNTAINS: Final = 5
HAND_MOUNTAINS: Final = 3

