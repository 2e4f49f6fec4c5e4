"""Hinode's plain data: a played card, the full state and a seat's view.

Positions 0..3 sit clockwise; real seats are 0..num_players-1 and proxies fill the rest. Colours, tribes and
cards are the ints of games.hinode.data.

Compiled (setup.py), `View` is a native class: a determinization (games.hinode.views.sample) reads most of its
fields, each a Python attribute lookup on an interpreted class. `State` and `Played` stay interpreted
(`native_class=False`): the rules make them without their `__init__`, by their `__dict__` (games.values), which a
native class has not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy_extensions import mypyc_attr

from games.hinode.data import HERO
from games.hinode.moves import MOVE_TYPES, ChooseArea, ChooseTribe, PlayCard, TakeResource


@mypyc_attr(native_class=False)
@dataclass(frozen=True)  # no __slots__: games.hinode.work.freeze makes one a move by games.values.frozen, not __init__
class Played:
    """A card on the table: who played it in which trick, how, and what it counts as."""

    trick: int
    seat: int
    move: PlayCard
    power: int  # battle power after a red resource
    follow: bool  # after a blue resource


# Phases of `State.phase`.
TRIBE: Final = "tribe"
AREA: Final = "area"
PLAY: Final = "play"
PICK: Final = "pick"
OVER: Final = "over"


@mypyc_attr(native_class=False)
@dataclass(frozen=True)  # no __slots__: games.values.evolve copies the instance dict (~10x cheaper than __init__)
class State:
    """A whole game, frozen: made by games.hinode.work.freeze (and `acting` is what games.hinode.rules.to_act
    gives), so the base's `to_act` reads the seats to act without a thaw."""

    seed: int
    num_players: int  # real seats; positions num_players..3 are proxies
    advanced: bool
    vp: tuple[int, ...]  # 26: 1st and 2nd VP of each Nawabari card
    layout: tuple[int, ...]  # 13 Nawabari cards: the 12 grid Areas row by row, then the Bonus Area
    cubes: tuple[int, ...]  # 36: resources left on each Area, area * 3 + colour
    tribes: tuple[int | None, ...]  # per position; None until chosen
    hands: tuple[tuple[int, ...], ...]  # per position; a real hand is sorted, a proxy pile is top first
    removed: tuple[int, ...]  # the 3 battle cards removed unseen
    heroes: tuple[bool, ...]  # per position: the Hero is still in front of it, unplayed
    resources: tuple[int, ...]  # 12: unused resources, position * 3 + colour (proxies keep none)
    first: tuple[int | None, ...]  # per Area: the position whose marker is on the 1st space
    second: tuple[int | None, ...]  # per Area: the 2nd space
    skill_markers: tuple[int, ...]  # per position: bitmask of Areas holding its Blue SAMURAI skill marker
    trick: int  # tricks completed
    phase: str
    actor: int | None  # the seat that decides now
    start: int  # start player of the current trick
    battlefield: int | None
    colour: int | None  # the Battlefield's colour this trick (the white Area's once the start player played)
    plays: tuple[Played, ...]  # the current trick, in order of play
    history: tuple[Played, ...]  # every card played in the game, in order (the current trick included)
    hero_last: int | None  # who played a Hero last
    ranking: tuple[int, ...]  # the last judged trick: positions on 1st, 2nd, 3rd, 4th (Yozakura: 1st twice)
    next_start: int | None  # start player of the next trick, once judged
    acting: tuple[int, ...]  # the seats to act: the actor, or nobody once the game is over


@dataclass(frozen=True, slots=True)
class View:
    """What a seat knows: its own hand and the public table (None: a spectator)."""

    seat: int | None
    num_players: int
    advanced: bool
    vp: tuple[int, ...]
    layout: tuple[int, ...]
    cubes: tuple[int, ...]
    tribes: tuple[int | None, ...]
    hand: tuple[int, ...]  # own hand; empty for spectators
    hand_sizes: tuple[int, ...]  # per position (proxies: their face-down pile)
    heroes: tuple[bool, ...]
    resources: tuple[int, ...]
    first: tuple[int | None, ...]
    second: tuple[int | None, ...]
    skill_markers: tuple[int, ...]
    trick: int
    phase: str
    actor: int | None
    start: int
    battlefield: int | None
    colour: int | None
    plays: tuple[Played, ...]
    history: tuple[Played, ...]
    hero_last: int | None
    ranking: tuple[int, ...]
    next_start: int | None


__all__ = [
    "AREA", "HERO", "MOVE_TYPES", "OVER", "PICK", "PLAY", "TRIBE",
    "ChooseArea", "ChooseTribe", "PlayCard", "Played", "State", "TakeResource", "View",
]
