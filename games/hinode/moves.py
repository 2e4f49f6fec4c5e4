"""Hinode's typed moves. Colours, tribes and cards are the ints of games.hinode.data; ids and labels name them."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import Move, Words
from games.hinode.data import COLOURS, SKILL_COST, TRIBE_TITLES, TRIBES, card_name, card_title


def _colour(colour: int | None) -> str:
    """A colour the move sets with another field (a skill's payment with the skill, a robbery's with its victim)."""
    assert colour is not None, "a skill's payment and a robbery's colour are set with the skill and the victim"
    return COLOURS[colour]


def area_title(area: int) -> str:
    """An Area in words: the grid counts rows and columns from 1; area 12 is the Bonus Area."""
    if area == 12:
        return "the Bonus Area"
    row, col = divmod(area, 4)
    return f"the Area at row {row + 1}, column {col + 1}"


@dataclass(frozen=True, slots=True)
class ChooseTribe(Move):
    tribe: int

    @property
    def id(self) -> str:
        return f"tribe:{TRIBES[self.tribe]}"

    @property
    def label(self) -> str:
        return f"Choose the tribe {TRIBE_TITLES[self.tribe]}"


@dataclass(frozen=True, slots=True)
class ChooseArea(Move):
    area: int  # grid position 0..11, row by row

    @property
    def id(self) -> str:
        return f"area:{self.area}"

    @property
    def label(self) -> str:
        return f"Fight on {area_title(self.area)}"


@dataclass(frozen=True, slots=True)
class PlayCard(Move):
    """Play a battle card or the Hero, with at most one resource or one skill (and its targets)."""

    card: int  # 0..38 battle card, 39 Hero
    resource: int | None = None  # RED or BLUE spent on the card
    skill: int | None = None  # the tribe whose skill is used (always the player's own)
    pay: int | None = None  # the colour of the identical resources paid for the skill
    target_area: int | None = None  # Blue SAMURAI: where the extra marker goes
    target_seat: int | None = None  # Charmont: whom to rob
    target_colour: int | None = None  # Charmont: which resource
    declare: int | None = None  # the start player's Hero on the white Area: the colour he declares

    @property
    def id(self) -> str:
        text = "play:" + card_name(self.card)
        if self.declare is not None:
            text += "@" + COLOURS[self.declare]
        if self.resource is not None:
            text += "+" + COLOURS[self.resource]
        if self.skill is not None:
            text += f"+{TRIBES[self.skill]}/{_colour(self.pay)}"
            if self.target_area is not None:
                text += f">a{self.target_area}"
            if self.target_seat is not None:
                text += f">s{self.target_seat}:{_colour(self.target_colour)}"
        return text

    @property
    def label(self) -> str:
        return "Play " + self._object(None)

    def describe(self, words: Words) -> str:
        return f"{words.subject} {words.verb('play')} {self._object(words)}"

    def _object(self, words: Words | None) -> str:
        text = "the " + card_title(self.card)
        if self.declare is not None:
            text += f", declaring the Hinode Tower {COLOURS[self.declare]}"
        if self.resource is not None:
            text += f" with a {COLOURS[self.resource]} resource"
        if self.skill is not None:
            text += f" with the {TRIBE_TITLES[self.skill]} skill (paying {SKILL_COST[self.skill]} {_colour(self.pay)})"
            if self.target_area is not None:
                text += f", marking {area_title(self.target_area)}"
            if self.target_seat is not None:
                victim = f"seat {self.target_seat + 1}" if words is None else words.seat(self.target_seat)
                text += f", taking a {_colour(self.target_colour)} resource from {victim}"
        return text


@dataclass(frozen=True, slots=True)
class TakeResource(Move):
    """The 4th-place pick: one resource from the Battlefield, for oneself or (choosing for a proxy) for it."""

    colour: int
    receiver: int  # position that gets the resource

    @property
    def id(self) -> str:
        return f"take:{COLOURS[self.colour]}"

    @property
    def label(self) -> str:
        return f"Take a {COLOURS[self.colour]} resource"

    def describe(self, words: Words) -> str:
        text = f"{words.subject} {words.verb('take')} a {COLOURS[self.colour]} resource"
        if self.receiver != words.mover:  # the real player who chooses for a proxy in 4th place
            text += f" for the proxy at position {self.receiver + 1}"
        return text


MOVE_TYPES = (ChooseTribe, ChooseArea, PlayCard, TakeResource)
