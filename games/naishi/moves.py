"""Naishi's typed moves. Fields count positions from 0; ids and labels count from 1, left to right, as the
rulebook does ("card in 4th position (from left to right)")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.base import Move
from games.naishi.data import NAMES, SLUGS

ROW_NAMES = {"hand": "Hand", "line": "Line"}
SWITCH_KINDS = {"river": "River", "line": "your Line", "hand": "your Hand", "column": "your Hand and Line"}
# The Imperial Court's spaces: 3 "switch 2 cards", 2 "discard 2 River cards", 1 Imperial Decree.
SPACES: tuple[str, ...] = ("switch1", "switch2", "switch3", "discard1", "discard2", "decree")
SPACE_TITLES = ("switch 1", "switch 2", "switch 3", "discard 1", "discard 2", "the Decree")
SWITCH_SPACES: Final[tuple[int, ...]] = (0, 1, 2)
DISCARD_SPACES: Final[tuple[int, ...]] = (3, 4)
DECREE_SPACE: Final = 5


@dataclass(frozen=True)
class Give(Move):
    """Setup: give this one of your 2 development cards to your opponent (a secret, simultaneous choice)."""

    card: int

    @property
    def id(self) -> str:
        return f"give:{SLUGS[self.card]}"

    @property
    def label(self) -> str:
        return f"Give your {NAMES[self.card]} to your opponent, keeping the other card"


@dataclass(frozen=True)
class Develop(Move):
    """Discard the card at `pos` of your Hand or Line and take the River card at `pos` into that slot."""

    row: str  # "hand" or "line"
    pos: int

    @property
    def id(self) -> str:
        return f"develop:{self.row}:{self.pos + 1}"

    @property
    def label(self) -> str:
        return f"Develop position {self.pos + 1} of your {ROW_NAMES[self.row]} with River card {self.pos + 1}"


@dataclass(frozen=True)
class Switch(Move):
    """Additional action (an Emissary on a "switch" space): switch 2 cards; for "column", a == b."""

    kind: str  # "river", "line", "hand" or "column"
    a: int
    b: int

    @property
    def id(self) -> str:
        if self.kind == "column":
            return f"switch:column:{self.a + 1}"
        return f"switch:{self.kind}:{self.a + 1}:{self.b + 1}"

    @property
    def label(self) -> str:
        if self.kind == "column":
            return f"Send an Emissary to switch your Hand and Line cards in position {self.a + 1}"
        return f"Send an Emissary to switch {SWITCH_KINDS[self.kind]} cards {self.a + 1} and {self.b + 1}"


@dataclass(frozen=True)
class DiscardRiver(Move):
    """Additional action: discard the top cards of 2 different River piles, then reveal the next ones."""

    a: int
    b: int

    @property
    def id(self) -> str:
        return f"discard:{self.a + 1}:{self.b + 1}"

    @property
    def label(self) -> str:
        return f"Send an Emissary to discard River cards {self.a + 1} and {self.b + 1}"


@dataclass(frozen=True)
class Decree(Move):
    """Impose the Imperial Decree: exchange both players' Hand (or Line) cards at `pos`."""

    row: str
    pos: int

    @property
    def id(self) -> str:
        return f"decree:{self.row}:{self.pos + 1}"

    @property
    def label(self) -> str:
        row, place = ROW_NAMES[self.row], self.pos + 1
        return f"Impose the Imperial Decree, exchanging both players' {row} cards in position {place}"


@dataclass(frozen=True)
class Recall(Move):
    """Recall your Emissaries from these court spaces (never the Decree's)."""

    spaces: tuple[int, ...]

    @property
    def id(self) -> str:
        return "recall:" + "+".join(SPACES[s] for s in self.spaces)

    @property
    def label(self) -> str:
        which = " and ".join(SPACE_TITLES[s] for s in self.spaces)
        return f"Recall your Emissar{'ies' if len(self.spaces) > 1 else 'y'} from {which}"


@dataclass(frozen=True)
class DeclareEnd(Move):
    """Declare the end of the game: your opponent plays one last turn."""

    @property
    def id(self) -> str:
        return "declare_end"

    @property
    def label(self) -> str:
        return "Declare the end of the game (your opponent plays a final turn)"


@dataclass(frozen=True)
class EndTurn(Move):
    """End your turn after developing without an additional action (or pass when no action is possible)."""

    @property
    def id(self) -> str:
        return "end_turn"

    @property
    def label(self) -> str:
        return "End your turn"


MOVE_TYPES = (Give, Develop, Switch, DiscardRiver, Decree, Recall, DeclareEnd, EndTurn)
