"""The battle phase (arena 1 to 3): the reveal, the abilities, the fights and the rewards, played on the working state
in place (the end of the round is games.kungfur.regroup's).

`run` drives the round forward until a seat must decide something in the open (Work.queue) or the next planning
phase begins; `apply_decision` makes such a decision. The pure functions of a battle (`team_ap`, `battle_winner`,
`win_vp`, `weakest_assistant`, `verdict`) and OTHER_ARENAS are shared with the wire and the greedy player, which
read views and imagined plans.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from games.base import Move
from games.deal import randbelow
from games.kungfur.data import (
    APPLE,
    ARENAS,
    BANANA,
    BANG,
    BLOCKADE,
    BOSHAK,
    CHEF,
    COCONUT,
    COUNTERATTACK,
    DESTRUCTION,
    GINSENG,
    GONGMING,
    HEO_YUN,
    HUA,
    KIND,
    KKAMI,
    MAX_PER_ARENA,
    MAX_SP,
    MIGHT,
    MUSASHI,
    RAIFU,
    RANGER,
    REINFORCEMENTS,
    RINGO,
    SHU,
    SINKING,
    SIU_YAO,
    SONGO,
    SONGO_PER_ARENA,
    TAI_CHII,
    TOKEN_AP,
    YAOU,
    YE,
)
from games.kungfur.moves import (
    BANANA_PICKS,
    KKAMI_TAKES,
    RECOVERS,
    RINGO_ADDS,
    SHU_ADDS,
    SHU_NONE,
    BananaPick,
    KkamiTake,
    Recover,
    RingoAdd,
    ShuAdd,
)
from games.kungfur.planning import LONER
from games.kungfur.regroup import DISH_SP, end_battle, end_regroup, prepare
from games.kungfur.state import (
    BANANA as BANANA_CHOICE,
)
from games.kungfur.state import (
    BATTLE,
    FIGHT,
    OPEN,
    RECOVER,
    REGROUP,
    SPOILS,
)
from games.kungfur.state import (
    KKAMI as KKAMI_CHOICE,
)
from games.kungfur.state import (
    RINGO as RINGO_CHOICE,
)
from games.kungfur.state import (
    SHU as SHU_CHOICE,
)
from games.kungfur.work import Side, Work, leader, tokens, with_cards, without
from games.tuples import count, with_item
from games.values import Bits, chance

WEAPON_IGNORE: Final = 5  # Senior Brother Bang
WEAPON_STEAL: Final = 2
RINGO_MAX: Final = 4
BOSHAK_SP: Final = 2
TAI_CHII_BEHIND: Final = 4
MIGHT_LOSS: Final = 2
MIGHT_GAIN: Final = 1
BLOCKADE_LOSS: Final = 1
COUNTER_LOSS: Final = 2
BANANA_DRAW: Final = 3

_RECOVER_CHEF, _RECOVER_DISH, _RECOVER_FOOD, _RECOVER_NONE = (RECOVERS[h] for h in ("chef", "dish", "food", "none"))


def _pair(pair: tuple[tuple[int, ...], ...], seat: int, value: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# --- the reveal ----------------------------------------------------------------------------------------------
# Raifu leading arena k puts a Raifu token on each of OTHER_ARENAS[k]
OTHER_ARENAS: Final[tuple[tuple[int, ...], ...]] = ((1, 2), (0, 2), (0, 1))


def reveal(work: Work) -> None:
    """The screens come down: the plans leave the hands, Reinforcements used are discarded, the Raifu tokens go
    down."""
    assert work.origin is None, "materialized first (games.kungfur.rules.materialize), both sides derived"
    raifu: list[int | None] = [None, None, None]
    used = [0, 0]
    for seat in range(2):
        side = work.sides[seat]
        side.hand = tuple(side.avail)
        side.avail = []
        if side.boost:
            side.items = without(side.items, REINFORCEMENTS)
            work.discard += (REINFORCEMENTS,)
        side.weapons -= tokens(side.pw)
        stacks = side.stacks
        used[seat] = len(stacks[0]) + len(stacks[1]) + len(stacks[2])
        for k in range(ARENAS):
            stack = stacks[k]
            if stack and stack[0] == RAIFU:
                for other in OTHER_ARENAS[k]:
                    raifu[other] = seat
    work.used = tuple(used)
    work.raifu = tuple(raifu)
    work.phase = BATTLE
    work.arena = 0
    work.stage = OPEN


# --- the driver ----------------------------------------------------------------------------------------------
def run(work: Work) -> None:
    """Resolve what needs no decision; stop when a seat must decide, or at the next planning phase."""
    queue = work.queue
    while True:
        if queue:
            seat, kind = queue[0]
            moves = decision_moves(work, seat, kind)
            if len(moves) > 1:
                return
            if moves:
                apply_decision(work, seat, moves[0])
            else:
                del queue[0]
            continue
        phase = work.phase
        if phase == BATTLE:
            stage = work.stage
            if stage == OPEN:
                _open(work)
            elif stage == FIGHT:
                fight(work)
            elif work.todo:
                _take(work)
            elif work.arena + 1 < ARENAS:
                work.arena += 1
                work.stage = OPEN
            else:
                end_battle(work)
        elif phase == REGROUP:
            end_regroup(work)
            prepare(work)
        else:
            return


def _open(work: Work) -> None:
    """Queue the abilities decided at the start of a battle: Master Shu's and Ringo's (rock-paper-scissors first
    when they face each other: the loser decides first)."""
    k = work.arena
    queue = work.queue  # empty: the battle's decisions are all made
    for seat in range(2):
        lead = leader(work.sides[seat], k)
        if lead is None:
            continue
        if lead == SHU:
            queue.append((seat, SHU_CHOICE))
        elif lead == RINGO:
            queue.append((seat, RINGO_CHOICE))
    if len(queue) == 2:
        draws: Bits | None = work.draws
        if draws is None:
            draws = chance(work.seed, f"rock-paper-scissors:{work.round}:{k}")
        if queue[0][0] != randbelow(draws, 2):
            queue.reverse()
    work.stage = FIGHT


def decision_moves(work: Work, seat: int, kind: str) -> list[Move]:
    """The answers `seat` may give to the open decision `kind`."""
    side = work.sides[seat]
    if kind == SHU_CHOICE:
        if len(side.stacks[work.arena]) >= MAX_PER_ARENA:
            return []
        return [SHU_NONE, *(SHU_ADDS[c] for c in sorted(set(side.hand)) if c != LONER and c != SHU)]
    if kind == RINGO_CHOICE:
        return list(RINGO_ADDS[: min(RINGO_MAX, side.weapons) + 1])
    if kind == BANANA_CHOICE:
        return [BANANA_PICKS[c] for c in sorted(set(work.offer))]
    if kind == KKAMI_CHOICE:
        return [KKAMI_TAKES[c] for c in sorted(set(side.rest)) if c != KKAMI]
    assert kind == RECOVER
    if not side.rest:
        return []
    moves: list[Move] = []
    if side.sp > DISH_SP and CHEF in side.items:
        moves.append(_RECOVER_CHEF)
    if side.dish == 1 and side.sp <= DISH_SP:
        moves.append(_RECOVER_DISH)
    if side.food:
        moves.append(_RECOVER_FOOD)
    if moves:
        moves.append(_RECOVER_NONE)
    return moves


def apply_decision(work: Work, seat: int, move: Move) -> None:
    """Make `seat`'s answer to the first open decision (without running on)."""
    del work.queue[0]
    side = work.sides[seat]
    k = work.arena
    if type(move) is Recover:  # type() is, not isinstance: see games.kungfur.rules.play
        how = move.how
        if how == "none":
            return
        if how == "food":
            side.food -= 1
        elif how == "dish":
            side.dish = 2
        else:
            side.items = without(side.items, CHEF)
            work.discard += (CHEF,)
        side.hand = with_cards(side.hand, side.rest)
        side.rest = ()
    elif type(move) is ShuAdd:
        card = move.card
        if card is not None:
            side.stacks[k].append(card)
            side.hand = without(side.hand, card)
    elif type(move) is RingoAdd:
        side.pw[k] = side.pw[k] + move.count
        side.weapons -= move.count
    elif type(move) is BananaPick:
        card = move.card
        work.buried = _pair(work.buried, seat, with_cards(work.buried[seat], without(work.offer, card)))
        work.offer = ()
        work.todo.insert(0, card)
    else:
        assert type(move) is KkamiTake
        side.rest = without(side.rest, move.card)
        side.hand = with_cards(side.hand, (move.card,))


# --- one battle ----------------------------------------------------------------------------------------------
def team_ap(ap: tuple[int, ...], stack: list[int], weapons: int, coconuts: int, seat: int, songo: tuple[int, ...],
            raifu: int | None, hua: int | None, opposing: int, sp: int) -> int:
    """`seat`'s AP on an arena: its cards (`stack`, with AP `ap`), its Hidden Weapons and Coconuts there, the tokens
    beside the arena that are its own (Songo Mushrooms +1, a Raifu or a Hua token +2), and its leader's ability
    (Ye adds the `opposing` cards; Heo-Yun reads the seat's `sp`)."""
    total = weapons + coconuts
    if songo:  # most arenas have no Songo Mushroom beside them
        total += count(songo, seat)  # games.tuples: `tuple.count` is a Python method call compiled
    # The tokens' holders are `int | None`: compared as ints once not None (compiled, `None == int` and even
    # `int == int` through the union compare Python objects, CPython's slowest path).
    if raifu is not None and raifu == seat:
        total += TOKEN_AP
    if hua is not None and hua == seat:
        total += TOKEN_AP
    for card in stack:
        total += ap[card]
    if stack:
        lead = stack[0]
        if lead == YE:
            total += opposing
        elif lead == HEO_YUN:
            total += 4 if sp <= 4 else 2 if sp <= 8 else 0
    return total


def arena_aps(work: Work, k: int) -> tuple[int, int]:
    """Both seats' AP on arena `k` now."""
    ap, songo, raifu, hua = work.ap, work.songo[k], work.raifu[k], work.hua[k]
    side0, side1 = work.sides
    stack0, stack1 = side0.stacks[k], side1.stacks[k]
    return (
        team_ap(ap, stack0, side0.pw[k], side0.pc[k], 0, songo, raifu, hua, len(stack1), side0.sp),
        team_ap(ap, stack1, side1.pw[k], side1.pc[k], 1, songo, raifu, hua, len(stack0), side1.sp),
    )


def weakest_assistant(ap: tuple[int, ...], stack: Sequence[int]) -> int:
    """The place in `stack` (leader first, 2 cards or more) of the assistant Siu-Yao sends to the rest area: the one
    with the least AP, of equals the one placed last."""
    weakest = 1
    for i in range(2, len(stack)):
        if ap[stack[i]] <= ap[stack[weakest]]:
            weakest = i
    return weakest


def battle_winner(lead0: int | None, lead1: int | None, ap0: int, ap1: int, apple0: bool, apple1: bool) -> int | None:
    """Higher AP wins; Tai-Chii also wins 4 or more AP behind; an Apple wins a tie that is not 0:0."""
    if lead0 is not None and lead0 == TAI_CHII and ap1 >= ap0 + TAI_CHII_BEHIND:  # compared as ints (see team_ap)
        return 0
    if lead1 is not None and lead1 == TAI_CHII and ap0 >= ap1 + TAI_CHII_BEHIND:
        return 1
    if ap0 != ap1:
        return 0 if ap0 > ap1 else 1
    if ap0 > 0 and apple0 != apple1:
        return 0 if apple0 else 1
    return None


def win_vp(lead: int | None) -> int:
    """The VP a battle won under this leader gives: 2 for Teacher Gongming, else 1."""
    return 2 if lead is not None and lead == GONGMING else 1  # compared as ints (see team_ap)


def _sp_loss(lead: int | None, n: int) -> int:
    """The SP a seat loses from an effect of a battle it lost under `lead`: at most 1 when Musashi leads."""
    return min(n, 1) if lead is not None and lead == MUSASHI else n  # compared as ints (see team_ap)


def _lose(side: Side, n: int) -> None:
    if n:
        side.sp = max(0, side.sp - n)


def _gain(side: Side, n: int) -> None:
    sp = side.sp
    if sp != 0 and sp != MAX_SP:  # SP at 0 cannot be restored; 12 is the top of the track
        side.sp = min(MAX_SP, sp + n)


def fight(work: Work) -> None:
    """Resolve the battle on the current arena (its Shu and Ringo decisions made)."""
    k = work.arena
    sides = work.sides
    ap = work.ap
    for seat in range(2):
        me, them = sides[seat], sides[1 - seat]
        stack = me.stacks[k]
        first = stack[0] if stack else -1  # the leader, or no card's code: an int, compared as one (see team_ap)
        if first == SIU_YAO and len(them.stacks[k]) >= 2:
            stack = them.stacks[k]
            weakest = weakest_assistant(ap, stack)
            them.rest = with_cards(them.rest, (stack[weakest],))
            del stack[weakest]
        elif first == BANG and them.pw[k]:
            ignored = min(WEAPON_IGNORE, them.pw[k])
            them.pw[k] = them.pw[k] - ignored
            me.weapons += min(WEAPON_STEAL, ignored)
    ap0, ap1 = arena_aps(work, k)
    side0, side1 = sides[0], sides[1]
    stack0, stack1 = side0.stacks[k], side1.stacks[k]
    lead0 = stack0[0] if stack0 else None
    lead1 = stack1[0] if stack1 else None
    winner = battle_winner(lead0, lead1, ap0, ap1, side0.apple > 0, side1.apple > 0)
    if winner is not None:
        loser = 1 - winner
        me, them = sides[winner], sides[loser]
        lead, lost = (lead0, lead1) if winner == 0 else (lead1, lead0)
        me.vp += win_vp(lead)
        loss = _sp_loss(lost, work.table.battle_loss)
        if lead is not None and lead == BOSHAK:  # the leaders are `int | None`: compared as ints (see team_ap)
            loss += _sp_loss(lost, BOSHAK_SP)
        _lose(them, loss)
        hua = work.hua[k]
        if hua is not None and hua == loser and (lost is None or lost != HUA):
            work.hua = with_item(work.hua, k, None)
        if lead is not None and lead == YAOU:  # back to the hand instead of the rest area
            del me.stacks[k][0]
            me.hand = with_cards(me.hand, (YAOU,))
        work.todo = list(work.rewards[k])
        work.rewards = with_item(work.rewards, k, ())
    if work.hua[k] is None:
        for seat in range(2):
            side = sides[seat]
            lead = leader(side, k)
            if side.hua and lead is not None and lead == HUA:
                work.hua = with_item(work.hua, k, seat)
                side.hua -= 1
                break
    work.results[k] = winner
    work.diff = abs(ap0 - ap1)
    work.stage = SPOILS


# --- rewards -------------------------------------------------------------------------------------------------
def _take(work: Work) -> None:
    """The winner of the current arena takes its next reward card: a Ranger joins the hand, Apple, Head Chef,
    Reinforcements and Sinking stay in front of the winner, every other card is activated and discarded."""
    k = work.arena
    card = work.todo.pop(0)
    winner = work.results[k]
    assert winner is not None
    loser = 1 - winner
    me, them = work.sides[winner], work.sides[loser]
    if KIND[card] == RANGER:
        me.hand = with_cards(me.hand, (card,))
        return
    if card == APPLE:
        me.apple += 1
        return
    if card == CHEF or card == REINFORCEMENTS:
        me.items = with_cards(me.items, (card,))
        return
    if card == SINKING:
        me.sinking += 1
        _lose(them, _sp_loss(leader(them, k), me.sinking))
        return
    work.discard += (card,)
    if card == GINSENG:
        _gain(me, 1)
        me.ginseng = True
    elif card == COCONUT:
        me.coconuts += 1
    elif card == BANANA:
        deck = work.deck
        n = min(BANANA_DRAW, len(deck))
        if n:
            work.offer = tuple(sorted(deck[len(deck) - n :]))
            work.deck = deck[: len(deck) - n]
            work.queue.insert(0, (winner, BANANA_CHOICE))
    elif card == SONGO:
        songo = work.songo
        if len(songo[k]) < SONGO_PER_ARENA:
            work.songo = songo[:k] + (songo[k] + (winner,),) + songo[k + 1 :]
    elif card == MIGHT:
        _lose(them, _sp_loss(leader(them, k), MIGHT_LOSS))
        _gain(me, MIGHT_GAIN)
    elif card == BLOCKADE:
        _lose(them, _sp_loss(leader(them, k), BLOCKADE_LOSS))
        them.blocked = work.round + 1
    elif card == COUNTERATTACK:
        _lose(them, _sp_loss(leader(them, k), COUNTER_LOSS))
        me.hand = with_cards(me.hand, tuple(me.stacks[k]))
        me.stacks[k] = []
    else:
        assert card == DESTRUCTION, f"unknown reward {card}"
        _lose(them, _sp_loss(leader(them, k), min(work.diff, work.table.destruction_max)))
