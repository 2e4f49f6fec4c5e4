"""Zipang's card data: the 11 character types, the removal table, coins, and the one table of assumed values.

The seed's character table stops after "Princess" (RULES_RESEARCH.md). Every value it does not print lives in
`CARDS`, its row marked `assumed`, and can be overridden per game with the `cards` option (`card_table`).
A card in a hand or a pile is its type's index; copies of a type are interchangeable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from games.base import json_object

# Effects: what playing (or using) a card does. Final: the compiled rules (mypyc) read these and the constants
# below as constants, not as globals looked up by name.
IKKI: Final = "ikki"  # Peasant: alone nothing; two at once attack every other player with BTL 5
ATTACK: Final = "attack"  # attack any of the other players in the battle with the card's BTL
STEAL: Final = "steal"  # Bandit: take 1 coin from another player (also one excluded from the battle)
TAX: Final = "tax"  # Merchant: every player puts 1 coin into the center (also the excluded ones)
TRIBUTE: Final = "tribute"  # Princess: take 1 coin from every other player (also the excluded ones)
CANCEL: Final = "cancel"  # Monk: out of turn, cancel an effect aimed at you; on your own turn nothing happens
END: Final = "end"  # Emperor: the battle ends at once and honour decides it
TAKE: Final = "take"  # Shrine Maiden: look at another player's hand, you may take a card from it and use it at once
REUSE: Final = "reuse"  # Kabuki: choose a card in the discard pile and use it at once


@dataclass(frozen=True)
class CardType:
    """One character: Battle and Honor points, copies in the full deck (30), effect, and whether assumed."""

    key: str
    title: str
    btl: int
    hnr: int
    copies: int
    effect: str
    assumed: str  # "" when the seed prints the row; else which values are our choice


KABUKI: Final = 0
PEASANT: Final = 1
BANDIT: Final = 2
MERCHANT: Final = 3
PRINCESS: Final = 4
CAPTAIN: Final = 5
COMMANDER: Final = 6
WARLORD: Final = 7
MONK: Final = 8
EMPEROR: Final = 9
MAIDEN: Final = 10

# The one table. Values from the seed: Kabuki, Peasant, Bandit, Merchant (all four columns) and Princess's
# BTL/HNR. Everything else is assumed to fit the clues: the removal table (Captain >= 2, Commander >= 3,
# Monk >= 1 copies), 30 cards in all, three attack cards of rising strength around the Ikki's 5, a Monk that
# reacts out of turn, an Emperor worth keeping for honour or playing to end the battle, a Shrine Maiden aimed
# at another player (the card that lets you look at a hand and take a card from it, FAQ Q7).
CARDS: tuple[CardType, ...] = (
    CardType("kabuki", "Kabuki", 0, 3, 1, REUSE, ""),
    CardType("peasant", "Peasant", 1, 0, 7, IKKI, ""),
    CardType("bandit", "Bandit", 2, 0, 3, STEAL, ""),
    CardType("merchant", "Merchant", 1, 0, 1, TAX, ""),
    CardType("princess", "Princess", 0, 3, 1, TRIBUTE, "copies, effect (1 coin from every other player)"),
    CardType("captain", "Captain", 3, 1, 4, ATTACK, "BTL, HNR, copies"),
    CardType("commander", "Commander", 4, 1, 4, ATTACK, "BTL, HNR, copies"),
    CardType("warlord", "Warlord", 6, 2, 2, ATTACK, "BTL, HNR, copies"),
    CardType("monk", "Monk", 1, 2, 3, CANCEL, "BTL, HNR, copies"),
    CardType("emperor", "Emperor", 0, 5, 1, END, "BTL, HNR, copies"),
    CardType("maiden", "Shrine Maiden", 0, 2, 3, TAKE, "BTL, HNR, copies, effect (look, take 1, use it)"),
)
TYPES: Final = 11  # len(CARDS), asserted below
KEYS = tuple(c.key for c in CARDS)
TITLES = tuple(c.title for c in CARDS)
EFFECTS: Final = tuple(c.effect for c in CARDS)
assert len(CARDS) == TYPES

IKKI_BTL: Final = 5  # "If you play 2 Peasants at the same time, you can make an attack of BTL 5"
HAND_SIZE: Final = 2
START_COINS: Final = 5
START_COINS_TWO: Final = 4  # "(4 in a 2-player game)"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6


def removed(num_players: int) -> tuple[int, ...]:
    """Copies of each type removed from the game for this player count (the seed's table)."""
    out = [0] * TYPES
    if num_players <= 3:
        out[BANDIT], out[CAPTAIN], out[PEASANT], out[MONK], out[COMMANDER] = 2, 2, 4, 1, 3
    elif num_players <= 5:
        out[BANDIT] = out[CAPTAIN] = out[PEASANT] = out[MONK] = out[COMMANDER] = 1
    return tuple(out)


@dataclass(frozen=True)
class Table:
    """The card values one game plays with: BTL, HNR and copies in play (after the removal) per type."""

    btl: tuple[int, ...]
    hnr: tuple[int, ...]
    copies: tuple[int, ...]


LIMIT = 20  # the largest BTL, HNR or copy count an override may give


def card_table(num_players: int, override: Any = None) -> Table:
    """The values for a game of `num_players`, with `override` applied; raise ValueError on bad input.

    `override` is a JSON object (or its text) mapping card keys to objects with any of "btl", "hnr",
    "copies" (copies in the full deck, before the removal), e.g. {"warlord": {"btl": 7}, "monk": {"copies": 2}}.
    """
    btl = [c.btl for c in CARDS]
    hnr = [c.hnr for c in CARDS]
    copies = [c.copies for c in CARDS]
    if override is not None:
        for key, values in json_object("cards", override).items():
            if key not in KEYS:
                raise ValueError(f"cards: unknown card {key!r} (cards: {', '.join(KEYS)})")
            if not isinstance(values, dict) or not values or set(values) - {"btl", "hnr", "copies"}:
                raise ValueError(f"cards[{key!r}] must be an object with some of btl, hnr, copies")
            i = KEYS.index(key)
            for field, value in values.items():
                if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
                    raise ValueError(f"cards[{key!r}].{field} must be an integer")
                if not 0 <= value <= LIMIT:
                    raise ValueError(f"cards[{key!r}].{field} must be from 0 to {LIMIT}")
                {"btl": btl, "hnr": hnr, "copies": copies}[field][i] = int(value)
    gone = removed(num_players)
    in_play = [c - r for c, r in zip(copies, gone, strict=True)]
    for i, n in enumerate(in_play):
        if n < 0:
            raise ValueError(f"cards: {KEYS[i]} needs at least {gone[i]} copies ({num_players} players remove them)")
    if sum(in_play) < HAND_SIZE * num_players + 2:
        raise ValueError(f"cards: too few cards to deal {num_players} players, a face-down discard and a draw")
    return Table(tuple(btl), tuple(hnr), tuple(in_play))
