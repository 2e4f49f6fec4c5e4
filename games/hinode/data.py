"""Hinode's card data: colours, tribes, battle cards, the Area grid and the Nawabari VP table.

Everything the rulebook leaves out lives here, in one table, each row marked `assumed`
(see docs/rules/hinode.md). Colours, tribes and cards are small ints so the engine stays flat and fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from games.base import json_object

COLOURS = ("red", "blue", "yellow")
# Final: the compiled rules (mypyc) read these as constants, not as globals looked up by name
RED: Final = 0
BLUE: Final = 1
YELLOW: Final = 2
WHITE: Final = 3  # only the Hinode Tower Area is white
COLOUR_LETTERS = "rby"

TRIBES = ("kansai", "samurai", "yozakura", "charmont")
TRIBE_TITLES = ("Kansai Gōgakuren", "Blue SAMURAI", "Yozakura-kai", "Charmont")
KANSAI: Final = 0
SAMURAI: Final = 1
YOZAKURA: Final = 2
CHARMONT: Final = 3
# "spending 2 identical resources of a color of your choice (only 1 for Yozakura-kai)"
SKILL_COST: Final[tuple[int, ...]] = (2, 2, 1, 2)

PLAYERS: Final = 4  # proxies fill the table up to four
TRICKS: Final = 9
HAND_SIZE: Final = 9
SUIT_SIZE: Final = 13
BATTLE_CARDS: Final = 39  # 39: battle card c is suit c // 13, number c % 13 + 1
HERO: Final = 39  # the card code of a Hero in a play
HERO_POWER: Final = 14

COLS: Final = 4  # "a grid of 4 across x 3 down"
ROWS: Final = 3
AREAS: Final = 12  # COLS * ROWS
NAWABARI_CARDS: Final = 13  # the 13th card is the Bonus Area


def card_name(card: int) -> str:
    """Short card name: r10, b3, y13, hero."""
    return "hero" if card == HERO else f"{COLOUR_LETTERS[card // SUIT_SIZE]}{card % SUIT_SIZE + 1}"


def card_title(card: int) -> str:
    return "Hero" if card == HERO else f"{COLOURS[card // SUIT_SIZE]} {card % SUIT_SIZE + 1}"


def _adjacent(area: int) -> tuple[int, ...]:
    row, col = divmod(area, COLS)
    near = []
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < ROWS and 0 <= c < COLS:
            near.append(r * COLS + c)
    return tuple(sorted(near))


ADJACENT = tuple(_adjacent(a) for a in range(AREAS))
ADJACENT_MASK = tuple(sum(1 << b for b in ADJACENT[a]) for a in range(AREAS))


@dataclass(frozen=True)
class Nawabari:
    """One Nawabari card: its colour and the VP for 1st and 2nd place."""

    key: str
    colour: int
    first: int
    second: int
    assumed: bool  # True: the printed value is unknown (RULES_RESEARCH.md); this is our choice


# The printed VP are not known: 4 red, 4 blue, 4 yellow and 1 white card, "the VP may decrease" on some.
# Each colour gets the same spread, so no colour is better: a rich card, two middling ones and a bad one.
NAWABARI: tuple[Nawabari, ...] = (
    Nawabari("red-1", RED, 6, 3, assumed=True),
    Nawabari("red-2", RED, 5, 2, assumed=True),
    Nawabari("red-3", RED, 4, 1, assumed=True),
    Nawabari("red-4", RED, -2, -1, assumed=True),
    Nawabari("blue-1", BLUE, 6, 3, assumed=True),
    Nawabari("blue-2", BLUE, 5, 2, assumed=True),
    Nawabari("blue-3", BLUE, 4, 1, assumed=True),
    Nawabari("blue-4", BLUE, -2, -1, assumed=True),
    Nawabari("yellow-1", YELLOW, 6, 3, assumed=True),
    Nawabari("yellow-2", YELLOW, 5, 2, assumed=True),
    Nawabari("yellow-3", YELLOW, 4, 1, assumed=True),
    Nawabari("yellow-4", YELLOW, -2, -1, assumed=True),
    Nawabari("white", WHITE, 8, 4, assumed=True),  # Hinode Tower
)
NAWABARI_KEYS = tuple(n.key for n in NAWABARI)
NAWABARI_COLOUR = tuple(n.colour for n in NAWABARI)
VP_LIMIT = 99


def vp_table(override: Any = None) -> tuple[int, ...]:
    """The VP table as 26 ints (1st, 2nd per Nawabari card), with `override` applied; raise ValueError.

    `override` is a JSON object (or its text) mapping card keys to [first, second], e.g.
    {"red-4": [-3, 1], "white": [10, 5]}; cards it does not name keep the assumed values.
    """
    values = [v for n in NAWABARI for v in (n.first, n.second)]
    for key, pair in json_object("nawabari_vp", override).items():
        if key not in NAWABARI_KEYS:
            raise ValueError(f"nawabari_vp: unknown card {key!r} (cards: {', '.join(NAWABARI_KEYS)})")
        if not isinstance(pair, list | tuple) or len(pair) != 2 or not all(map(_is_vp, pair)):
            raise ValueError(f"nawabari_vp[{key!r}] must be [first, second], integers from -99 to 99")
        i = NAWABARI_KEYS.index(key)
        values[2 * i], values[2 * i + 1] = (int(v) for v in pair)
    return tuple(values)


def _is_vp(value: Any) -> bool:
    # 3.0 is accepted as 3: JSON that went through a protobuf Struct has only floats.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return value == int(value) and abs(value) <= VP_LIMIT
