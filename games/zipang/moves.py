"""Zipang's typed moves. Cards are the type indexes of games.zipang.data; seats are 0-based in fields and ids,
1-based ("seat 2") in labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.base import Move, Words
from games.zipang.data import ATTACK, EFFECTS, KEYS, MAIDEN, PEASANT, STEAL, TITLES


def _seat_list(seats: tuple[int, ...], words: Words | None) -> str:
    names = [f"seat {s + 1}" if words is None else words.seat(s) for s in seats]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _targets_id(targets: tuple[int, ...]) -> str:
    return "".join(f">s{t}" for t in targets)


def _use_text(card: int, targets: tuple[int, ...], ikki: bool, words: Words | None) -> str:
    """The object of "play" / "use": the card and what it is aimed at."""
    if ikki:
        return "2 Peasants, an Ikki attacking every other player in the battle"
    text = f"the {TITLES[card]}"
    effect = EFFECTS[card]
    if effect == ATTACK:
        text += f", attacking {_seat_list(targets, words)}" if targets else " without attacking"
    elif effect == STEAL:
        text += f", taking 1 coin from {_seat_list(targets, words)}"
    elif card == MAIDEN and targets:
        text += f" on {_seat_list(targets, words)}"
    return text


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play a card from your hand on your turn (two Peasants at once: an Ikki), with its targets."""

    card: int
    targets: tuple[int, ...] = ()  # attack: the seats attacked; Bandit, Shrine Maiden: the one seat aimed at
    ikki: bool = False

    @property
    def id(self) -> str:
        return f"play:{KEYS[self.card]}{'+ikki' if self.ikki else ''}{_targets_id(self.targets)}"

    @property
    def label(self) -> str:
        return "Play " + _use_text(self.card, self.targets, self.ikki, None)

    def describe(self, words: Words) -> str:
        return f"{words.subject} {words.verb('play')} {_use_text(self.card, self.targets, self.ikki, words)}"


@dataclass(frozen=True, slots=True)
class Use(Move):
    """Use at once the card chosen from the discard pile (Kabuki) or taken from a hand (Shrine Maiden)."""

    card: int
    targets: tuple[int, ...] = ()
    ikki: bool = False  # a Peasant used together with a Peasant from your hand (FAQ Q7)

    @property
    def id(self) -> str:
        return f"use:{KEYS[self.card]}{'+ikki' if self.ikki else ''}{_targets_id(self.targets)}"

    @property
    def label(self) -> str:
        return "Use " + self._object(None)

    def describe(self, words: Words) -> str:
        return f"{words.subject} {words.verb('use')} {self._object(words)}"

    def _object(self, words: Words | None) -> str:
        if self.ikki:
            whose = "your" if words is None else words.possessive
            return f"the Peasant with a Peasant from {whose} hand, an Ikki attacking every other player in the battle"
        return _use_text(self.card, self.targets, False, words)


@dataclass(frozen=True, slots=True)
class Take(Move):
    """Shrine Maiden: take one card from the hand you looked at (to use it at once), or none."""

    card: int | None
    victim: int

    @property
    def id(self) -> str:
        return "take:none" if self.card is None else f"take:{KEYS[self.card]}"

    @property
    def label(self) -> str:
        return self._text(None)

    def describe(self, words: Words) -> str:
        text = self._text(words)
        verb, _, rest = text.partition(" ")
        return f"{words.subject} {words.verb(verb.lower())} {rest}"

    def _text(self, words: Words | None) -> str:
        whose = f"seat {self.victim + 1}" if words is None else words.seat(self.victim)
        if self.card is None:
            return f"Take no card from {whose}"
        return f"Take the {TITLES[self.card]} from {whose}"


# Final: the compiled rules (mypyc) read them as constants
MONK_CANCEL: Final = "monk"
COIN_BLOCK: Final = "coin"
DEFEND: Final = "defend"
ACCEPT: Final = "accept"


@dataclass(frozen=True, slots=True)
class React(Move):
    """The answer of a seat an effect is aimed at, out of turn: cancel it with a Monk, block an attack with a
    coin (before its first turn), or let it happen (an attack: defend with the hand)."""

    kind: str  # MONK_CANCEL, COIN_BLOCK, DEFEND or ACCEPT
    card: int  # the card whose effect is answered (PEASANT with ikki: the Ikki)
    ikki: bool = False

    @property
    def id(self) -> str:
        return self.kind

    @property
    def label(self) -> str:
        what = "the Ikki" if self.ikki else f"the {TITLES[self.card]}"
        if self.kind == MONK_CANCEL:
            return f"Cancel {what} with your Monk"
        if self.kind == COIN_BLOCK:
            return f"Block {what} with a coin"
        if self.kind == DEFEND:
            return f"Defend against {what} with your hand"
        return f"Let {what} take effect"


MOVE_TYPES = (Play, Use, Take, React)

__all__ = ["ACCEPT", "COIN_BLOCK", "DEFEND", "MONK_CANCEL", "MOVE_TYPES", "PEASANT", "Play", "React", "Take", "Use"]
