"""Kung Fur Fight's typed moves. Arenas are 0-2 in fields and 1-3 in ids and labels, as the rulebook counts.

A plan is built from several secret moves of one seat (lead, assist, token, done), so the legal move list stays
small; every move is built once (`LEADS`, `ASSISTS`, ...) and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.base import Move, Words
from games.kungfur.data import ARENAS, CARDS, KEYS, NAMES


@dataclass(frozen=True)
class Lead(Move):
    """Planning: put this animal on an empty arena as its leader."""

    arena: int
    card: int

    @property
    def id(self) -> str:
        return f"lead:{self.arena + 1}:{KEYS[self.card]}"

    @property
    def label(self) -> str:
        return f"Lead arena {self.arena + 1} with {NAMES[self.card]}"


@dataclass(frozen=True)
class Assist(Move):
    """Planning: put this animal under the leader of an arena as an assistant."""

    arena: int
    card: int

    @property
    def id(self) -> str:
        return f"assist:{self.arena + 1}:{KEYS[self.card]}"

    @property
    def label(self) -> str:
        return f"Add {NAMES[self.card]} to arena {self.arena + 1} as an assistant"


@dataclass(frozen=True)
class Token(Move):
    """Planning, after the animals: a Hidden Weapon or Coconut token on an arena where you have an animal."""

    arena: int
    kind: str  # "weapon" or "coconut"

    @property
    def id(self) -> str:
        return f"{self.kind}:{self.arena + 1}"

    @property
    def label(self) -> str:
        what = "a Hidden Weapon" if self.kind == "weapon" else "a Coconut"
        return f"Put {what} token on arena {self.arena + 1}"


@dataclass(frozen=True)
class Reinforce(Move):
    """Planning: use your Reinforcements card (the card limit is 1 higher this round)."""

    @property
    def id(self) -> str:
        return "reinforce"

    @property
    def label(self) -> str:
        return "Use your Reinforcements card (card limit +1 this round)"


@dataclass(frozen=True)
class Done(Move):
    """Planning: your plan is complete."""

    @property
    def id(self) -> str:
        return "done"

    @property
    def label(self) -> str:
        return "Finish your plan"


@dataclass(frozen=True)
class ShuAdd(Move):
    """Battle: Master Shu adds this card from your hand as an assistant (None: decline)."""

    card: int | None

    @property
    def id(self) -> str:
        return "shu:none" if self.card is None else f"shu:{KEYS[self.card]}"

    @property
    def label(self) -> str:
        if self.card is None:
            return "Decline Master Shu's ability"
        return f"Add {NAMES[self.card]} as an assistant with Master Shu"


@dataclass(frozen=True)
class RingoAdd(Move):
    """Battle: Ringo adds this many of your Hidden Weapon tokens to its arena."""

    count: int

    @property
    def id(self) -> str:
        return f"ringo:{self.count}"

    @property
    def label(self) -> str:
        return f"Add {self.count} Hidden Weapon token{'' if self.count == 1 else 's'} with Ringo"


@dataclass(frozen=True)
class BananaPick(Move):
    """Battle: keep this card of the Banana's draw (shown); the others are discarded face down."""

    card: int

    @property
    def id(self) -> str:
        return f"banana:{KEYS[self.card]}"

    @property
    def label(self) -> str:
        return f"Choose {NAMES[self.card]} from the Banana's draw"


@dataclass(frozen=True)
class KkamiTake(Move):
    """Regroup: Kkami brings this card back from your rest area (shown)."""

    card: int

    @property
    def id(self) -> str:
        return f"kkami:{KEYS[self.card]}"

    @property
    def label(self) -> str:
        return f"Recover {NAMES[self.card]} with Kkami"


RECOVER_LABELS = {
    "food": "Spend a food token to recover your animals",
    "dish": "Eat your Special Dish to recover your animals",
    "chef": "Use your Head Chef to recover your animals",
    "none": "Leave your animals in the rest area",
}


@dataclass(frozen=True)
class Recover(Move):
    """Regroup: take every animal of your rest area back into your hand, paying with `how` ("none": don't)."""

    how: str

    @property
    def id(self) -> str:
        return f"recover:{self.how}"

    @property
    def label(self) -> str:
        return RECOVER_LABELS[self.how]

    def describe(self, words: Words) -> str:
        if self.how == "none":
            return f"{words.subject} {words.verb('leave')} {words.possessive} animals in the rest area"
        return super().describe(words)


MOVE_TYPES = (Lead, Assist, Token, Reinforce, Done, ShuAdd, RingoAdd, BananaPick, KkamiTake, Recover)

_N: Final = len(CARDS)
# The moves, built once and shared (Final: compiled, a read is a C global, not a module dictionary lookup).
LEADS: Final = tuple(tuple(Lead(k, c) for c in range(_N)) for k in range(ARENAS))
ASSISTS: Final = tuple(tuple(Assist(k, c) for c in range(_N)) for k in range(ARENAS))
WEAPON_TOKENS: Final = tuple(Token(k, "weapon") for k in range(ARENAS))
COCONUT_TOKENS: Final = tuple(Token(k, "coconut") for k in range(ARENAS))
REINFORCE: Final = Reinforce()
DONE: Final = Done()
SHU_ADDS: Final = tuple(ShuAdd(c) for c in range(_N))
SHU_NONE: Final = ShuAdd(None)
RINGO_ADDS: Final = tuple(RingoAdd(n) for n in range(5))
BANANA_PICKS: Final = tuple(BananaPick(c) for c in range(_N))
KKAMI_TAKES: Final = tuple(KkamiTake(c) for c in range(_N))
RECOVERS = {how: Recover(how) for how in RECOVER_LABELS}
PLANNING_TYPES = (Lead, Assist, Token, Reinforce, Done)
