"""Hinode's plain data: a played card, the full state and a seat's view.

Positions 0..3 sit clockwise; real seats are 0..num_players-1 and proxies fill the rest. Colours, tribes and
cards are the ints of games.hinode.data.

Compiled (setup.py), these are native classes: a determinization (games.hinode.views.sample) reads most of a
`View`'s fields and a thaw every field of a `State`, each a C field read. `State` and `Played` are made by their own
`__init__`: docs/architecture.md, *Frozen states*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.hinode.data import HERO
from games.hinode.moves import MOVE_TYPES, ChooseArea, ChooseTribe, PlayCard, TakeResource


@dataclass(init=False, unsafe_hash=True)
class Played:
    """A card on the table: who played it in which trick, how, and what it counts as."""

    trick: int
    seat: int
    move: PlayCard
    power: int  # battle power after a red resource
    follow: bool  # after a blue resource

    def __init__(self, trick: int, seat: int, move: PlayCard, power: int, follow: bool) -> None:
        self.trick = trick
        self.seat = seat
        self.move = move
        self.power = power
        self.follow = follow


# Phases of `State.phase`.
TRIBE: Final = "tribe"
AREA: Final = "area"
PLAY: Final = "play"
PICK: Final = "pick"
OVER: Final = "over"


@dataclass(init=False, unsafe_hash=True)
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

    def __init__(
        self, seed: int, num_players: int, advanced: bool, vp: tuple[int, ...], layout: tuple[int, ...],
        cubes: tuple[int, ...], tribes: tuple[int | None, ...], hands: tuple[tuple[int, ...], ...],
        removed: tuple[int, ...], heroes: tuple[bool, ...], resources: tuple[int, ...], first: tuple[int | None, ...],
        second: tuple[int | None, ...], skill_markers: tuple[int, ...], trick: int, phase: str, actor: int | None,
        start: int, battlefield: int | None, colour: int | None, plays: tuple[Played, ...], history: tuple[Played, ...],
        hero_last: int | None, ranking: tuple[int, ...], next_start: int | None, acting: tuple[int, ...],
    ) -> None:
        self.seed = seed
        self.num_players = num_players
        self.advanced = advanced
        self.vp = vp
        self.layout = layout
        self.cubes = cubes
        self.tribes = tribes
        self.hands = hands
        self.removed = removed
        self.heroes = heroes
        self.resources = resources
        self.first = first
        self.second = second
        self.skill_markers = skill_markers
        self.trick = trick
        self.phase = phase
        self.actor = actor
        self.start = start
        self.battlefield = battlefield
        self.colour = colour
        self.plays = plays
        self.history = history
        self.hero_last = hero_last
        self.ranking = ranking
        self.next_start = next_start
        self.acting = acting


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
