"""The planning phase's rules: the card limit, where an animal may go, and the planning moves a seat has.

Planning is a sequence of secret moves by each seat (both seats plan at once): lead an empty arena, add an
assistant under a leader, then (after the animals) put tokens, and finish. What a plan leaves its seat
(`plan_facts`) is remembered by what it depends on: the checked engine asks for the facts of nearly every planning
state it thaws. The moves a seat has (`plan_moves`) are built on the compiled path and remembered on the pure one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games import compiled
from games.base import Move
from games.kungfur.data import ARENAS, HIMIKO, MAX_PER_ARENA, REINFORCEMENTS, TUMAZ
from games.kungfur.moves import ASSISTS, COCONUT_TOKENS, DONE, LEADS, REINFORCE, WEAPON_TOKENS
from games.kungfur.state import Plan, Player
from games.kungfur.work import Side, Work

LONER: Final = TUMAZ  # the animal that fights alone: never an assistant, and none under it
_CACHE_MAX: Final = 100_000  # keys a long search sees stay far below this; a bound all the same


def card_limit(limit: int, boost: bool, blocked: int, round_: int) -> int:
    """A seat's card limit in the planning of round `round_`: its marker `limit`, +1 with Reinforcements used
    (`boost`), -1 under a Blockade (`blocked`: the round it applies to)."""
    return limit + boost - (blocked == round_)


def arena_shape(stack: Sequence[int]) -> int:
    """An arena where a seat has `stack` (leader first), for its planning: 0 empty (a leader may go there), 1 open
    to an assistant (fewer than 3 cards, and the leader is not Tumaz, who fights alone), 2 closed."""
    if not stack:
        return 0
    return 1 if len(stack) < MAX_PER_ARENA and stack[0] != LONER else 2


def open_to_assistant(stack: Sequence[int]) -> bool:
    """Whether an arena where a seat has `stack` takes another of its animals as an assistant."""
    return arena_shape(stack) == 1


Facts = tuple[tuple[int, ...], int, tuple[int, int, int]]  # (cards free, room under the limit, arena shapes)
_FACTS: Final[dict[tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int], Facts]] = {}


def plan_facts(hand: tuple[int, ...], stacks: tuple[tuple[int, ...], ...], limit: int) -> Facts:
    """What a plan of `stacks` leaves a seat with `hand` and card limit `limit`: the cards of the hand not in the
    plan (sorted), how many more animals the limit allows (Himiko does not count), and each arena's
    `arena_shape`."""
    key = (hand, stacks, limit)
    facts = _FACTS.get(key)
    if facts is None:
        if len(_FACTS) >= _CACHE_MAX:
            _FACTS.clear()
        avail = hand
        room = limit
        for stack in stacks:
            for card in stack:
                if card != HIMIKO:
                    room -= 1
                i = avail.index(card)
                avail = avail[:i] + avail[i + 1 :]
        facts = _FACTS[key] = avail, room, (arena_shape(stacks[0]), arena_shape(stacks[1]), arena_shape(stacks[2]))
    return facts


def copy_plan(side: Side, player: Player, plan: Plan) -> None:
    """Copy into `side` its plan and what the planning phase reads of its board (no planning move changes that)."""
    side.hand = player.hand
    side.vp = player.vp
    side.limit = player.limit
    side.blocked = player.blocked
    side.items = player.items
    side.weapons = player.weapons
    side.coconuts = player.coconuts
    side.stacks = [list(plan.stacks[0]), list(plan.stacks[1]), list(plan.stacks[2])]
    side.pw = list(plan.weapons)
    side.pc = list(plan.coconuts)
    side.boost = plan.boost


def derive(work: Work, side: Side) -> None:
    """Fill in a side of a planning state, which the thaw left for later (the checked engine thaws a planning state
    for one seat's move; the other seat's side is seldom read): its plan, its board as planning reads it, and what
    the plan leaves it (`plan_facts`). Done before anything reads the side or changes its plan."""
    player, plan = side.player, side.plan
    assert player is not None and plan is not None, "derived as thawed"
    copy_plan(side, player, plan)
    side.tokens = sum(plan.weapons) + sum(plan.coconuts)
    limit = card_limit(player.limit, plan.boost, player.blocked, work.round)
    avail, side.room, shapes = plan_facts(player.hand, plan.stacks, limit)
    side.avail = list(avail)
    side.shapes = list(shapes)
    side.derived = True


def change_plan(work: Work, side: Side) -> None:
    """Note that `side`'s plan is about to change (freeze then builds it anew)."""
    if not side.derived:
        derive(work, side)
    side.plan = None


_PLAN_MOVES: Final[dict[int, tuple[Move, ...]]] = {}  # the pure path's, by `_remembered_plan_moves`' key
_BUILT: Final = compiled.COMPILED  # this module runs compiled: `plan_moves` builds the list rather than look it up


def plan_moves(work: Work, seat: int) -> Sequence[Move]:
    """`seat`'s planning moves, in a stable order: animals (a leader on an empty arena, an assistant on an open
    one; past the card limit only Himiko) until the first token, the Reinforcements, tokens on the arenas with an
    animal, and done. Compiled, built anew at each call; interpreted, remembered by what the list depends on
    (`_remembered_plan_moves`). Compiled, the build costs less time than finding the list in the table: after a few
    thousand random games it holds some 100,000 lists, and a lookup waits on memory (8% of a compiled random Kung
    Fur Fight game's time went to the lookup alone, for 2.5% of its instructions; docs/benchmarks.md,
    *Twenty-first step*). Interpreted, the build costs more than the lookup."""
    side = work.sides[seat]
    if side.done:
        return ()
    if not side.derived:
        derive(work, side)
    if _BUILT:
        return _list_plan_moves(side)
    return _remembered_plan_moves(side)


def _remembered_plan_moves(side: Side) -> tuple[Move, ...]:
    """`plan_moves`' list for a derived `side` that is not done, remembered by what it depends on (the pure
    path's way)."""
    shapes = side.shapes
    animals = side.tokens == 0  # "Then" the tokens: no animal after the first token
    cards = 0  # the animals still free to place, as a set of card codes (bit c: card c); none once tokens began
    if animals:
        for card in side.avail:
            cards |= 1 << card
    room = animals and side.room > 0
    reinforce = animals and not side.boost and REINFORCEMENTS in side.items
    pw, pc = side.pw, side.pc
    weapons_left = side.weapons > pw[0] + pw[1] + pw[2]
    coconuts_left = side.coconuts > pc[0] + pc[1] + pc[2]
    # What the list depends on, as one int (a tuple of them costs more to hash and compare):
    # the three arenas' shapes (2 bits each), four flags, and the free cards' set above them.
    key = (
        (((cards << 4 | animals << 3 | room << 2 | reinforce << 1 | weapons_left) << 1 | coconuts_left) << 6)
        | shapes[0] << 4
        | shapes[1] << 2
        | shapes[2]
    )
    moves = _PLAN_MOVES.get(key)
    if moves is None:
        if len(_PLAN_MOVES) >= _CACHE_MAX:
            _PLAN_MOVES.clear()
        moves = _PLAN_MOVES[key] = tuple(_list_plan_moves(side))
    return moves  # the remembered tuple itself: a list of legal moves is read, never changed


def _list_plan_moves(side: Side) -> list[Move]:
    """`plan_moves`' list for a derived `side` that is not done, built: native loops over `range()` and the cards
    (`avail` is sorted, so a repeated card is the one before), with no set, sort, comprehension, `+=` or tuple
    constant to iterate."""
    moves: list[Move] = []
    shapes = side.shapes
    if side.tokens == 0:  # "Then" the tokens: no animal after the first token
        room = side.room > 0
        cards: list[int] = []  # the free animals that may be placed, once each: past the card limit only Himiko
        last = -1
        for c in side.avail:
            if c != last and (room or c == HIMIKO):
                cards.append(c)
            last = c
        if cards:
            for k in range(ARENAS):
                shape = shapes[k]
                if shape == 0:
                    table = LEADS[k]
                    for c in cards:
                        moves.append(table[c])
                elif shape == 1:
                    assists = ASSISTS[k]
                    for c in cards:
                        if c != LONER:  # Tumaz fights alone
                            moves.append(assists[c])
        if not side.boost and REINFORCEMENTS in side.items:
            moves.append(REINFORCE)
    pw, pc = side.pw, side.pc
    weapons_left = side.weapons > pw[0] + pw[1] + pw[2]
    coconuts_left = side.coconuts > pc[0] + pc[1] + pc[2]
    if weapons_left or coconuts_left:
        for k in range(ARENAS):
            if shapes[k]:
                if weapons_left:
                    moves.append(WEAPON_TOKENS[k])
                if coconuts_left:
                    moves.append(COCONUT_TOKENS[k])
    moves.append(DONE)
    return moves
