"""Kung Fur Fight's plain data: the card codes and THE one data table of what the rulebook leaves out.

Every card (animal, Ranger, item, achievement) has a code, its index in `CARDS`. The table `TABLE` lists each
card's English and Korean name, kind, side, AP and copies, and the game's missing numbers (starting SP, the SP a
lost battle costs, the cap of Destruction); rows the rulebook (seed 004) or RULES_RESEARCH.md do not fix are
marked `assumed`. The `data` game option overrides AP, copies and numbers (see `compile_table`). What each card
does is listed beside its row in docs/rules/kung-fur-fight.md (Assumed data) and written in the rules (battle.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from games.base import json_object

# Final: the compiled rules (mypyc) read these as constants, not as globals looked up by name
CATS: Final = "cats"
DOGS: Final = "dogs"
ANIMAL: Final = "animal"
RANGER: Final = "ranger"
ITEM: Final = "item"
ACHIEVEMENT: Final = "achievement"
NUMBER: Final = "number"
ARENAS: Final = 3
MAX_SP: Final = 12
START_LIMIT: Final = 3  # the card limit marker starts on 3 (RULES_RESEARCH.md, the English how-to)
MAX_PER_ARENA: Final = 3
FOOD: Final = 3
WEAPONS: Final = 4
HUA_TOKENS: Final = 3
SONGO_PER_ARENA: Final = 2
TOKEN_AP: Final = 2  # a Raifu or Hua token
HAND_SIZE: Final = 9


@dataclass(frozen=True)
class Row:
    key: str  # the stable id used in move ids and options
    name: str  # English
    korean: str  # the rulebook's name
    kind: str  # animal (a side's starting card), ranger, item, achievement, or number (a rule's value)
    side: str | None  # cats or dogs for animals
    value: int  # AP for animals and Rangers; the number itself for number rows
    copies: int
    assumed: bool


# fmt: off
TABLE: tuple[Row, ...] = (
    # The cats (Kōga Meows): 9 animal cards.
    Row("raifu", "Raifu", "라이후우", ANIMAL, CATS, 1, 1, True),
    Row("musashi", "Musashi", "무사시", ANIMAL, CATS, 3, 1, True),
    Row("himiko", "Himiko", "히미코", ANIMAL, CATS, 2, 1, True),
    Row("ringo", "Ringo", "링고", ANIMAL, CATS, 2, 1, True),
    Row("yaou", "Yaou", "야오우", ANIMAL, CATS, 3, 1, True),
    Row("genin", "Kōga Genin", "(고양이 기본 카드)", ANIMAL, CATS, 2, 2, True),
    Row("jonin", "Kōga Jōnin", "(고양이 기본 카드)", ANIMAL, CATS, 3, 2, True),
    # The dogs (Shaolin Woofs): 9 animal cards.
    Row("hua", "Hua", "후아", ANIMAL, DOGS, 1, 1, True),
    Row("bang", "Senior Brother Bang", "방 사형", ANIMAL, DOGS, 3, 1, True),
    Row("ye", "Eldest Senior Brother Ye", "예 대사형", ANIMAL, DOGS, 2, 1, True),
    Row("shu", "Master Shu", "슈 사부", ANIMAL, DOGS, 2, 1, True),
    Row("gongming", "Teacher Gongming", "공밍 선생", ANIMAL, DOGS, 3, 1, True),
    Row("siu-yao", "Siu-Yao", "시우-야오", ANIMAL, DOGS, 2, 1, True),
    Row("novice", "Shaolin Novice", "(강아지 기본 카드)", ANIMAL, DOGS, 2, 1, True),
    Row("monk", "Shaolin Monk", "(강아지 기본 카드)", ANIMAL, DOGS, 5, 2, True),
    # Rangers (방랑자): animals in the reward deck; whoever wins one adds it to their hand.
    Row("boshak", "Boshak", "보샤크", RANGER, None, 3, 1, True),
    Row("tai-chii", "Tai-Chii", "타이-치이", RANGER, None, 1, 1, True),
    Row("tumaz", "Tumaz", "투마즈", RANGER, None, 5, 1, True),
    Row("heo-yun", "Heo-Yun", "허윤", RANGER, None, 1, 1, True),
    Row("kkami", "Kkami", "까미", RANGER, None, 2, 1, True),
    # Items (아이템).
    Row("ginseng", "Ginseng", "인삼", ITEM, None, 0, 3, True),
    Row("apple", "Apple", "사과", ITEM, None, 0, 1, True),
    Row("coconut", "Coconut", "코코넛", ITEM, None, 0, 3, True),
    Row("banana", "Banana", "바나나", ITEM, None, 0, 3, True),
    Row("songo", "Songo Mushroom", "송고 버섯", ITEM, None, 0, 4, True),
    Row("chef", "Head Chef", "주방장", ITEM, None, 0, 2, True),
    Row("reinforcements", "Reinforcements", "(이름 없는 아이템)", ITEM, None, 0, 2, True),
    # Achievements (성취).
    Row("might", "Might", "위력", ACHIEVEMENT, None, 0, 3, True),
    Row("blockade", "Blockade", "봉쇄", ACHIEVEMENT, None, 0, 2, True),
    Row("counterattack", "Counterattack", "반격", ACHIEVEMENT, None, 0, 2, True),
    Row("destruction", "Destruction", "파괴", ACHIEVEMENT, None, 0, 2, True),
    Row("sinking", "Sinking", "굉침", ACHIEVEMENT, None, 0, 2, True),
    # The numbers the rulebook leaves out.
    Row("start_sp", "starting SP", "SP 시작", NUMBER, None, 10, 0, True),
    Row("battle_loss", "SP lost by the loser of a battle", "전투 패배 SP", NUMBER, None, 1, 0, True),
    Row("destruction_max", "most SP Destruction takes", "파괴 최대 SP", NUMBER, None, 3, 0, True),
)
# fmt: on

CARDS: tuple[Row, ...] = tuple(r for r in TABLE if r.kind != NUMBER)
KEYS: tuple[str, ...] = tuple(r.key for r in CARDS)
NAMES: tuple[str, ...] = tuple(r.name for r in CARDS)
KIND: tuple[str, ...] = tuple(r.kind for r in CARDS)
CODE: dict[str, int] = {k: i for i, k in enumerate(KEYS)}
NUMBERS: dict[str, Row] = {r.key: r for r in TABLE if r.kind == NUMBER}
IS_ANIMAL: tuple[bool, ...] = tuple(k in (ANIMAL, RANGER) for k in KIND)

# The card codes: a card's place in CARDS, its key in capitals (tests/kungfur/test_setup_and_views.py holds them to it)
RAIFU: Final = 0
MUSASHI: Final = 1
HIMIKO: Final = 2
RINGO: Final = 3
YAOU: Final = 4
GENIN: Final = 5
JONIN: Final = 6
HUA: Final = 7
BANG: Final = 8
YE: Final = 9
SHU: Final = 10
GONGMING: Final = 11
SIU_YAO: Final = 12
NOVICE: Final = 13
MONK: Final = 14
BOSHAK: Final = 15
TAI_CHII: Final = 16
TUMAZ: Final = 17
HEO_YUN: Final = 18
KKAMI: Final = 19
GINSENG: Final = 20
APPLE: Final = 21
COCONUT: Final = 22
BANANA: Final = 23
SONGO: Final = 24
CHEF: Final = 25
REINFORCEMENTS: Final = 26
MIGHT: Final = 27
BLOCKADE: Final = 28
COUNTERATTACK: Final = 29
DESTRUCTION: Final = 30
SINKING: Final = 31
NAMED_ONCE = frozenset({RAIFU, MUSASHI, HIMIKO, RINGO, YAOU, HUA, BANG, YE, SHU, GONGMING, SIU_YAO})


@dataclass(frozen=True)
class Table:
    """The data table compiled for one game (after the `data` option): what the state and views carry."""

    ap: tuple[int, ...]  # per card code
    hands: tuple[tuple[int, ...], tuple[int, ...]]  # the cats' and the dogs' 9 starting cards, sorted
    rewards: tuple[int, ...]  # the reward deck's cards, sorted
    start_sp: int
    battle_loss: int
    destruction_max: int


def compile_table(override: Any = None) -> Table:
    """The table with `override` applied; raise ValueError saying what is wrong.

    `override` is a JSON object (or its text): card keys map to {"ap": n, "copies": n} (named animals of a side
    keep 1 copy; each side must still have 9 cards), number keys to an integer, e.g.
    {"jonin": {"ap": 5}, "might": {"copies": 2}, "start_sp": 11}.
    """
    ap = [r.value for r in CARDS]
    copies = [r.copies for r in CARDS]
    numbers = {k: r.value for k, r in NUMBERS.items()}
    for key, value in json_object("data", override).items():
        if key in NUMBERS:
            low = 1 if key == "start_sp" else 0
            if not _is_int(value) or not low <= value <= MAX_SP:
                raise ValueError(f"data[{key!r}] must be an integer from {low} to {MAX_SP}")
            numbers[key] = int(value)
            continue
        if key not in CODE:
            raise ValueError(f"data: unknown key {key!r} (cards: {', '.join(KEYS)}; numbers: {', '.join(NUMBERS)})")
        code = CODE[key]
        if not isinstance(value, dict) or not value or set(value) - {"ap", "copies"}:
            raise ValueError(f'data[{key!r}] must be an object with "ap" and/or "copies"')
        if "ap" in value:
            if not IS_ANIMAL[code] or not _is_int(value["ap"]) or not 0 <= value["ap"] <= 9:
                raise ValueError(f"data[{key!r}].ap must be an integer from 0 to 9, for an animal or Ranger")
            ap[code] = int(value["ap"])
        if "copies" in value:
            if code in NAMED_ONCE or not _is_int(value["copies"]) or not 0 <= value["copies"] <= 9:
                raise ValueError(f"data[{key!r}].copies must be an integer from 0 to 9 (named animals keep 1)")
            copies[code] = int(value["copies"])
    hands = tuple(
        tuple(c for c, r in enumerate(CARDS) if r.side == side for _ in range(copies[c])) for side in (CATS, DOGS)
    )
    for side, hand in zip((CATS, DOGS), hands, strict=True):
        if len(hand) != HAND_SIZE:
            raise ValueError(f"data: the {side} must have {HAND_SIZE} animal cards, not {len(hand)}")
    rewards = tuple(c for c, r in enumerate(CARDS) if r.kind not in (ANIMAL,) for _ in range(copies[c]))
    if len(rewards) < ARENAS:
        raise ValueError(f"data: the reward deck needs at least {ARENAS} cards")
    return Table(tuple(ap), hands, rewards, numbers["start_sp"], numbers["battle_loss"], numbers["destruction_max"])


def _is_int(value: Any) -> bool:
    # 3.0 is accepted as 3: JSON that went through a protobuf Struct has only floats.
    return not isinstance(value, bool) and isinstance(value, int | float) and value == int(value)
