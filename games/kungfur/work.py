"""Kung Fur Fight's working state: a frozen State as plain typed objects that the rules change in place.

games.kungfur.rules thaws a State into a `Work` and freezes it back. What changes at almost every move (a plan being
made, the battle's open decisions, the rewards being taken, the arenas' results) is held in lists, copied by the
thaw; the rest changes a few times a round and is held in tuples (immutable: shared with the state, never changed,
only replaced), so that thawing and freezing copy little: the checked engine thaws and freezes at every move.
Playing on a thawed work never changes the state.

While a seat plans, its `hand` is the hand before the plan (as State.players shows it), and what the plan leaves
it (games.kungfur.planning.plan_facts: the cards still free, the room under the card limit, what each arena takes)
is kept beside the stacks, move by move, so that the planning moves and the playout policy's picks need no pass
over the plan. When the screens come down, `hand` becomes `avail`.

While the seats plan, a move changes one plan and nothing else until the screens come down, and the checked engine
thaws a planning state for one seat's move. So a planning state is thawed in part, and the state kept
(`Work.origin`): a side holds its frozen board and plan (`Side.player`, `Side.plan`) and is filled in when first
read (games.kungfur.planning.derive); the fields marked "battle" below are copied in when the screens come down
(games.kungfur.rules.materialize); and while `origin` is set, the freeze copies it with the new plans (a side's
`plan` is kept until its plan changes).
"""

from __future__ import annotations

import random

from games.kungfur.data import Table
from games.kungfur.state import Plan, Player, State


class Side:
    """One seat: its board (State.players) and its plan (State.plans)."""

    __slots__ = (
        "species", "hand", "rest", "sp", "vp", "limit", "food", "dish", "weapons", "hua", "coconuts", "items",
        "apple", "sinking", "ginseng", "blocked",
        # the plan
        "stacks", "pw", "pc", "boost", "done", "derived", "avail", "room", "shapes", "tokens", "player", "plan",
    )  # fmt: skip

    species: str  # battle
    hand: tuple[int, ...]  # sorted; while planning, the hand before the plan
    rest: tuple[int, ...]  # sorted; battle
    sp: int  # battle
    vp: int
    limit: int
    food: int  # battle
    dish: int  # battle
    weapons: int  # while planning, the stock before the plan
    hua: int  # battle
    coconuts: int
    items: tuple[int, ...]  # sorted
    apple: int  # battle
    sinking: int  # battle
    ginseng: bool  # battle
    blocked: int
    stacks: list[list[int]]  # per arena, leader first (lists: a plan grows a card at a time)
    pw: list[int]  # Hidden Weapons per arena
    pc: list[int]  # Coconuts per arena
    boost: bool
    done: bool
    derived: bool  # filled in (games.kungfur.planning.derive): a planning thaw sets only done, player and plan
    avail: list[int]  # while planning: the cards of `hand` not in the plan, sorted
    room: int  # while planning: how many more animals the card limit allows (Himiko aside)
    shapes: list[int]  # while planning: what each arena takes (games.kungfur.planning.arena_shape)
    tokens: int  # while planning: the tokens of the plan
    player: Player | None  # the frozen board this side was thawed with, while planning
    plan: Plan | None  # the frozen plan this side was thawed with, until the plan changes (None then)


class Work:
    """A Kung Fur Fight state as plain objects, changed in place (fields as in State)."""

    __slots__ = (
        "seed", "table", "ap", "cats", "round", "phase", "sides", "used", "arena", "stage", "rewards", "raifu",
        "hua", "songo", "results", "diff", "todo", "deck", "discard", "buried", "offer", "queue", "winners", "end",
        "origin", "draws",
    )  # fmt: skip

    seed: int  # battle
    table: Table  # battle
    ap: tuple[int, ...]  # the table's AP per card, read in every battle
    cats: int  # battle
    round: int
    phase: str
    sides: list[Side]
    used: tuple[int, ...]  # battle
    arena: int  # battle
    stage: str  # battle
    rewards: tuple[tuple[int, ...], ...]
    raifu: tuple[int | None, ...]  # battle
    hua: tuple[int | None, ...]  # battle
    songo: tuple[tuple[int, ...], ...]  # battle
    results: list[int | None]  # battle
    diff: int  # battle
    todo: list[int]  # battle
    deck: tuple[int, ...]  # the last card is the top; battle
    discard: tuple[int, ...]  # battle
    buried: tuple[tuple[int, ...], ...]  # battle
    offer: tuple[int, ...]  # battle
    queue: list[tuple[int, str]]  # never replaced: the battle holds on to it
    winners: tuple[int, ...]
    end: str  # battle
    origin: State | None  # the planning state thawed, while only the plans have changed since (until the reveal)
    draws: random.Random | None  # where the chance to come is drawn from: None, the seed (rules.draw_chance)


def leader(side: Side, k: int) -> int | None:
    """`side`'s leader on arena `k`, if it has one there."""
    stack = side.stacks[k]
    return stack[0] if stack else None


def tokens(per_arena: list[int]) -> int:
    """A side's tokens of one kind placed over the arenas (`Side.pw`, `Side.pc`): a loop, where `sum` takes
    CPython's generic path compiled."""
    total = 0
    for n in per_arena:
        total += n
    return total


def with_cards(cards: tuple[int, ...], more: tuple[int, ...]) -> tuple[int, ...]:
    """The sorted `cards` with `more`, sorted."""
    return tuple(sorted(cards + more))


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """`cards` less one `card`."""
    fewer = list(cards)  # cheaper than joining two slices around the card
    fewer.remove(card)
    return tuple(fewer)
