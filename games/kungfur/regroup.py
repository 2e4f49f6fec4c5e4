"""The end of a round: the win checks after the battle phase, the regroup phase and the next preparation, played
on the working state in place (games.kungfur.battle.run drives them)."""

from __future__ import annotations

from typing import Final

from games.kungfur.data import ARENAS, KKAMI, MAX_PER_ARENA
from games.kungfur.planning import card_limit
from games.kungfur.state import KKAMI as KKAMI_CHOICE
from games.kungfur.state import OPEN, OVER, PLAN, RECOVER, REGROUP
from games.kungfur.work import Work, leader, with_cards

DISH_SP: Final = 4
LIMIT_4_SP: Final = 8
LIMIT_5_SP: Final = 4
LEAD_VP: Final = 4  # a lead of this many VP wins

_BOTH: Final[tuple[int, ...]] = (0, 1)
_ONE: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))


def verdict(sp0: int, sp1: int, vp0: int, vp1: int, deck_size: int) -> tuple[tuple[int, ...], str] | None:
    """Who wins after the battle phase, and why; None when the game goes on."""
    if sp0 == 0 and sp1 == 0:
        return _higher(vp0, vp1, 0, 0, "both players' SP are 0: the higher VP wins")
    if sp0 == 0 or sp1 == 0:
        return (_ONE[1] if sp0 == 0 else _ONE[0]), "the opponent's SP is 0"
    if deck_size < ARENAS:
        return _higher(vp0, vp1, sp0, sp1, "fewer than 3 reward cards remain: the higher VP wins")
    if abs(vp0 - vp1) >= LEAD_VP:
        return (_ONE[0] if vp0 > vp1 else _ONE[1]), "VP 4 or more higher than the opponent's"
    return None


def _higher(vp0: int, vp1: int, sp0: int, sp1: int, why: str) -> tuple[tuple[int, ...], str]:
    if vp0 != vp1:
        return (_ONE[0] if vp0 > vp1 else _ONE[1]), why
    if sp0 != sp1:
        return (_ONE[0] if sp0 > sp1 else _ONE[1]), why + " (VP tied: the higher SP)"
    return _BOTH, why + " (VP and SP tied: a draw)"


def end_battle(work: Work) -> None:
    """The win checks; the regroup if the game goes on."""
    work.raifu = (None, None, None)
    side0, side1 = work.sides
    result = verdict(side0.sp, side1.sp, side0.vp, side1.vp, len(work.deck))
    if result is not None:
        work.phase = OVER
        work.winners, work.end = result
        work.queue.clear()
        return
    _start_regroup(work)


# --- regroup -------------------------------------------------------------------------------------------------
def _start_regroup(work: Work) -> None:
    """The used animals go to the rest area; the card limit and the Special Dish follow the SP; a seat that placed
    no animal (or won a Ginseng, above SP 4) recovers for free; the others decide in the open."""
    queue = work.queue
    for seat in range(2):
        side = work.sides[seat]
        stacks = side.stacks
        rest = with_cards(side.rest, (*stacks[0], *stacks[1], *stacks[2]))
        sp = side.sp
        side.limit = max(side.limit, 5 if sp <= LIMIT_5_SP else 4 if sp <= LIMIT_4_SP else 3)
        if side.dish == 0 and sp <= DISH_SP:
            side.dish = 1
        if work.used[seat] == 0 or (side.ginseng and sp > DISH_SP):
            side.hand = with_cards(side.hand, rest)  # a free recovery
            side.rest = ()
        else:
            side.rest = rest
            if leader(side, 0) == KKAMI or leader(side, 1) == KKAMI or leader(side, 2) == KKAMI:
                queue.append((seat, KKAMI_CHOICE))
            queue.append((seat, RECOVER))
    work.phase = REGROUP


def end_regroup(work: Work) -> None:
    """The plans come off the table (the Coconuts come back), the next round begins; a Blockade's token goes once
    the round it applied to is over."""
    work.round += 1
    for side in work.sides:
        side.ginseng = False
        if side.blocked < work.round:
            side.blocked = 0
        side.stacks = [[], [], []]
        side.pw = [0, 0, 0]
        side.pc = [0, 0, 0]
        side.boost = False
        side.done = False
        side.derived = True
        side.avail = list(side.hand)
        side.room = card_limit(side.limit, False, side.blocked, work.round)
        side.shapes = [0, 0, 0]
        side.tokens = 0
    work.used = (0, 0)
    work.results = [None, None, None]
    work.arena = 0
    work.stage = OPEN
    work.diff = 0


# --- the next preparation ------------------------------------------------------------------------------------
def prepare(work: Work) -> None:
    """A reward card on each arena, on top of any left by a tie; a 4th card pushes the oldest to the discard."""
    assert work.origin is None, "materialized first (games.kungfur.rules.materialize)"
    deck = work.deck
    top = len(deck)
    rewards = []
    for stack in work.rewards:
        top -= 1
        stack += (deck[top],)
        if len(stack) > MAX_PER_ARENA:
            work.discard += stack[:1]
            stack = stack[1:]
        rewards.append(stack)
    work.rewards = tuple(rewards)
    work.deck = deck[:top]
    work.phase = PLAN
