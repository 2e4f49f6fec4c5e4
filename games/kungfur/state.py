"""Kung Fur Fight's plain data: a player's public board, a plan, the full state and a seat's view.

Everything a hand holds is public knowledge: each side's 9 animals are known, and every card that enters or
leaves a hand is shown (Rangers are won face up, Shu's and Kkami's cards and the Banana's choice are shown, a
recovery takes back the whole rest area). So a view shows both hands. What is hidden: a plan while it is being
made (even its size), the order of the reward deck, and the two cards each Banana discards face down (known to
the seat that drew them). `unseen` in a view is the multiset of reward cards that seat cannot locate.

Compiled (setup.py), the classes here are native; the state and the records in it are made by their own `__init__`:
docs/architecture.md, *Frozen states*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.kungfur.data import Table

# Final: constants to the compiled rules (mypyc), not globals looked up by name
PLAN: Final = "plan"
BATTLE: Final = "battle"
REGROUP: Final = "regroup"
OVER: Final = "over"
# Decisions made in the open, one seat at a time (State.queue): Master Shu's and Ringo's battle abilities, the
# Banana's choice, Kkami's recovery and the regroup's recovery.
SHU: Final = "shu"
RINGO: Final = "ringo"
BANANA: Final = "banana"
KKAMI: Final = "kkami"
RECOVER: Final = "recover"
OPEN: Final = "open"
FIGHT: Final = "fight"
SPOILS: Final = "spoils"


@dataclass(init=False, unsafe_hash=True)
class Player:
    """One seat's public board."""

    species: str  # cats or dogs
    hand: tuple[int, ...]  # sorted card codes (during planning: the hand before the plan)
    rest: tuple[int, ...]  # the rest area (휴식 구역), sorted
    sp: int
    vp: int
    limit: int  # the card limit marker: 3, 4 or 5
    food: int  # food tokens left
    dish: int  # Special Dish token: 0 not yet taken, 1 held, 2 eaten
    weapons: int  # Hidden Weapon tokens in stock
    hua: int  # Hua tokens in stock
    coconuts: int  # Coconut tokens owned (they come back after each round)
    items: tuple[int, ...]  # one-time item cards held (Head Chef, Reinforcements), sorted
    apple: int  # Apple cards in front of the player
    sinking: int  # Sinking cards in front of the player
    ginseng: bool  # Ginseng's free recovery waits for this round's regroup
    blocked: int  # the round whose planning has card limit -1 (Blockade), 0 for none

    def __init__(
        self, species: str, hand: tuple[int, ...], rest: tuple[int, ...], sp: int, vp: int, limit: int, food: int,
        dish: int, weapons: int, hua: int, coconuts: int, items: tuple[int, ...], apple: int, sinking: int,
        ginseng: bool, blocked: int,
    ) -> None:
        self.species = species
        self.hand = hand
        self.rest = rest
        self.sp = sp
        self.vp = vp
        self.limit = limit
        self.food = food
        self.dish = dish
        self.weapons = weapons
        self.hua = hua
        self.coconuts = coconuts
        self.items = items
        self.apple = apple
        self.sinking = sinking
        self.ginseng = ginseng
        self.blocked = blocked


@dataclass(init=False, unsafe_hash=True)
class Plan:
    """What a seat put behind its screen: a stack per arena (leader first), tokens per arena."""

    stacks: tuple[tuple[int, ...], ...]
    weapons: tuple[int, ...]
    coconuts: tuple[int, ...]
    boost: bool  # Reinforcements used: card limit +1 this round
    done: bool

    def __init__(
        self, stacks: tuple[tuple[int, ...], ...], weapons: tuple[int, ...], coconuts: tuple[int, ...], boost: bool,
        done: bool,
    ) -> None:
        self.stacks = stacks
        self.weapons = weapons
        self.coconuts = coconuts
        self.boost = boost
        self.done = done


EMPTY_PLAN = Plan(((), (), ()), (0, 0, 0), (0, 0, 0), False, False)


@dataclass(init=False, unsafe_hash=True)
class State:
    seed: int
    table: Table
    cats: int  # the seat playing the cats
    round: int
    phase: str
    players: tuple[Player, ...]
    plans: tuple[Plan, ...]
    used: tuple[int, ...]  # animals each seat placed in this round's planning
    arena: int  # the arena being resolved (battle phase)
    stage: str  # of that arena: "open" (abilities to decide), "fight" (to resolve), "spoils" (rewards to take)
    rewards: tuple[tuple[int, ...], ...]  # reward cards on each arena, oldest first
    raifu: tuple[int | None, ...]  # owner of the Raifu token on each arena (this battle phase)
    hua: tuple[int | None, ...]  # owner of the Hua token on each arena
    songo: tuple[tuple[int, ...], ...]  # owners of the Songo Mushroom tokens beside each arena
    results: tuple[int | None, ...]  # winner of each arena this round (None: not yet, or a tie)
    diff: int  # AP difference of the battle whose rewards are being taken
    todo: tuple[int, ...]  # rewards of that battle still to take
    deck: tuple[int, ...]  # face down; the last card is the top
    discard: tuple[int, ...]  # face up, in order
    buried: tuple[tuple[int, ...], ...]  # cards each seat's Bananas discarded face down, sorted
    offer: tuple[int, ...]  # the Banana draw waiting for a choice
    queue: tuple[tuple[int, str], ...]  # open decisions (seat, kind), the first is due now
    winners: tuple[int, ...]
    end: str  # why the game ended
    acting: tuple[int, ...]  # the seats to act, ascending: set by games.kungfur.work.freeze only

    def __init__(
        self, seed: int, table: Table, cats: int, round: int, phase: str, players: tuple[Player, ...],
        plans: tuple[Plan, ...], used: tuple[int, ...], arena: int, stage: str, rewards: tuple[tuple[int, ...], ...],
        raifu: tuple[int | None, ...], hua: tuple[int | None, ...], songo: tuple[tuple[int, ...], ...],
        results: tuple[int | None, ...], diff: int, todo: tuple[int, ...], deck: tuple[int, ...],
        discard: tuple[int, ...], buried: tuple[tuple[int, ...], ...], offer: tuple[int, ...],
        queue: tuple[tuple[int, str], ...], winners: tuple[int, ...], end: str, acting: tuple[int, ...],
    ) -> None:
        self.seed = seed
        self.table = table
        self.cats = cats
        self.round = round
        self.phase = phase
        self.players = players
        self.plans = plans
        self.used = used
        self.arena = arena
        self.stage = stage
        self.rewards = rewards
        self.raifu = raifu
        self.hua = hua
        self.songo = songo
        self.results = results
        self.diff = diff
        self.todo = todo
        self.deck = deck
        self.discard = discard
        self.buried = buried
        self.offer = offer
        self.queue = queue
        self.winners = winners
        self.end = end
        self.acting = acting


@dataclass(frozen=True)
class View:
    seat: int | None
    table: Table
    cats: int
    round: int
    phase: str
    players: tuple[Player, ...]
    plans: tuple[Plan | None, ...]  # during planning, only the viewer's own plan
    done: tuple[bool, ...]  # whose plan is finished (public: the table sees who is still planning)
    used: tuple[int, ...]
    arena: int
    stage: str
    rewards: tuple[tuple[int, ...], ...]
    raifu: tuple[int | None, ...]
    hua: tuple[int | None, ...]
    songo: tuple[tuple[int, ...], ...]
    results: tuple[int | None, ...]
    diff: int
    todo: tuple[int, ...]
    deck_size: int
    discard: tuple[int, ...]
    buried: tuple[int, ...]  # the viewer's own face-down Banana discards
    buried_sizes: tuple[int, ...]
    offer: tuple[int, ...]  # the Banana draw, for the seat choosing only
    offer_size: int
    unseen: tuple[int, ...]  # reward cards the viewer cannot locate (deck and others' face-down cards), sorted
    queue: tuple[tuple[int, str], ...]
    winners: tuple[int, ...]
    end: str
