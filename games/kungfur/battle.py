"""The battle phase (arena 1 to 3), the rewards, the win checks, the regroup phase and the next preparation.

`run` drives the round forward until a seat must decide something in the open (State.queue) or the next
planning phase begins; `decide` applies such a decision and runs on.
"""

from __future__ import annotations

from games.base import Move, chance, evolve
from games.kungfur.data import (
    ACHIEVEMENT,
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
    RANGER,
    RINGO,
    SHU,
    SINKING,
    SIU_YAO,
    SONGO,
    SONGO_PER_ARENA,
    TAI_CHII,
    TOKEN_AP,
    TUMAZ,
    YAOU,
    YE,
)
from games.kungfur.data import (
    RAIFU as RAIFU_CODE,
)
from games.kungfur.data import (
    REINFORCEMENTS as REINFORCEMENTS_CODE,
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
from games.kungfur.state import (
    BANANA as BANANA_CHOICE,
)
from games.kungfur.state import (
    BATTLE,
    EMPTY_PLAN,
    FIGHT,
    OPEN,
    OVER,
    PLAN,
    RECOVER,
    REGROUP,
    SPOILS,
    Plan,
    Player,
    State,
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

WEAPON_IGNORE, WEAPON_STEAL = 5, 2  # Senior Brother Bang
RINGO_MAX = 4
BOSHAK_SP = 2
MIGHT_LOSS, MIGHT_GAIN, BLOCKADE_LOSS, COUNTER_LOSS = 2, 1, 1, 2
BANANA_DRAW = 3
DISH_SP, LIMIT_4_SP, LIMIT_5_SP = 4, 8, 4


def _add(cards: tuple[int, ...], *more: int) -> tuple[int, ...]:
    return tuple(sorted(cards + more))


def _remove(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _pair(pair: tuple, seat: int, value) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _set(items: tuple, k: int, value) -> tuple:
    return items[:k] + (value,) + items[k + 1 :]


def leader(plan: Plan, k: int) -> int | None:
    stack = plan.stacks[k]
    return stack[0] if stack else None


# --- preparation ---------------------------------------------------------------------------------------------
def prepare(state: State) -> State:
    """A reward card on each arena, on top of any left by a tie; a 4th card pushes the oldest to the discard."""
    deck, discard = state.deck, state.discard
    rewards = []
    for k in range(ARENAS):
        stack = state.rewards[k] + (deck[-1],)
        deck = deck[:-1]
        if len(stack) > MAX_PER_ARENA:
            discard += stack[:1]
            stack = stack[1:]
        rewards.append(stack)
    return evolve(state, deck=deck, discard=discard, rewards=tuple(rewards), phase=PLAN)


# --- the screens come down -----------------------------------------------------------------------------------
def reveal(state: State) -> State:
    players = list(state.players)
    discard = state.discard
    used = []
    raifu: list[int | None] = [None, None, None]
    for seat in (0, 1):
        plan, player = state.plans[seat], players[seat]
        hand = list(player.hand)
        cards = [c for stack in plan.stacks for c in stack]
        for card in cards:
            hand.remove(card)
        items = player.items
        if plan.boost:
            items = _remove(items, REINFORCEMENTS_CODE)
            discard += (REINFORCEMENTS_CODE,)
        players[seat] = evolve(player, hand=tuple(hand), weapons=player.weapons - sum(plan.weapons), items=items)
        used.append(len(cards))
        for k in range(ARENAS):
            if leader(plan, k) == RAIFU_CODE:
                for j in range(ARENAS):
                    if j != k:
                        raifu[j] = seat
    return evolve(
        state, players=tuple(players), discard=discard, used=tuple(used), raifu=tuple(raifu), phase=BATTLE,
        arena=0, stage=OPEN,
    )  # fmt: skip





# --- the driver ----------------------------------------------------------------------------------------------
def run(state: State) -> State:
    """Resolve what needs no decision; stop when a seat must decide, or at the next planning phase."""
    while True:
        if state.queue:
            seat, kind = state.queue[0]
            moves = decision_moves(state, seat, kind)
            if len(moves) > 1:
                return state
            if moves:
                state = _apply_decision(state, seat, moves[0])
            else:
                state = evolve(state, queue=state.queue[1:])
            continue
        phase = state.phase
        if phase == BATTLE:
            stage = state.stage
            if stage == OPEN:
                state = _open(state)
            elif stage == FIGHT:
                state = fight(state)
            elif state.todo:
                state = _take(state)
            elif state.arena + 1 < ARENAS:
                state = evolve(state, arena=state.arena + 1, stage=OPEN)
            else:
                state = _end_battle(state)
        elif phase == REGROUP:
            state = prepare(_end_regroup(state))
        else:
            return state


def _open(state: State) -> State:
    """Queue the abilities decided at the start of a battle: Master Shu's and Ringo's (rock-paper-scissors first
    when they face each other: the loser decides first)."""
    k = state.arena
    leaders = (leader(state.plans[0], k), leader(state.plans[1], k))
    queue: list[tuple[int, str]] = []
    for seat in (0, 1):
        if leaders[seat] == SHU:
            queue.append((seat, SHU_CHOICE))
        elif leaders[seat] == RINGO:
            queue.append((seat, RINGO_CHOICE))
    if len(queue) == 2:
        loser = chance(state.seed, "rock-paper-scissors", state.round, k).randrange(2)
        queue.sort(key=lambda item: item[0] != loser)
    return evolve(state, stage=FIGHT, queue=tuple(queue))


def decision_moves(state: State, seat: int, kind: str) -> list[Move]:
    player = state.players[seat]
    if kind == SHU_CHOICE:
        if len(state.plans[seat].stacks[state.arena]) >= MAX_PER_ARENA:
            return []
        return [SHU_NONE, *(SHU_ADDS[c] for c in sorted(set(player.hand)) if c != TUMAZ and c != SHU)]
    if kind == RINGO_CHOICE:
        return list(RINGO_ADDS[: min(RINGO_MAX, player.weapons) + 1])
    if kind == BANANA_CHOICE:
        return [BANANA_PICKS[c] for c in sorted(set(state.offer))]
    if kind == KKAMI_CHOICE:
        return [KKAMI_TAKES[c] for c in sorted(set(player.rest)) if c != KKAMI]
    assert kind == RECOVER
    if not player.rest:
        return []
    moves = []
    if player.sp > DISH_SP and CHEF in player.items:
        moves.append(RECOVERS["chef"])
    if player.dish == 1 and player.sp <= DISH_SP:
        moves.append(RECOVERS["dish"])
    if player.food:
        moves.append(RECOVERS["food"])
    if moves:
        moves.append(RECOVERS["none"])
    return moves


def decide(state: State, seat: int, move: Move) -> State:
    return run(_apply_decision(state, seat, move))


def _apply_decision(state: State, seat: int, move: Move) -> State:
    state = evolve(state, queue=state.queue[1:])
    player = state.players[seat]
    k = state.arena
    cls = type(move)
    if cls is ShuAdd:
        card = move.card  # type: ignore[attr-defined]
        if card is None:
            return state
        plan = state.plans[seat]
        plan = evolve(plan, stacks=_set(plan.stacks, k, plan.stacks[k] + (card,)))
        player = evolve(player, hand=_remove(player.hand, card))
        return evolve(state, plans=_pair(state.plans, seat, plan), players=_pair(state.players, seat, player))
    if cls is RingoAdd:
        n = move.count  # type: ignore[attr-defined]
        plan = state.plans[seat]
        plan = evolve(plan, weapons=_set(plan.weapons, k, plan.weapons[k] + n))
        player = evolve(player, weapons=player.weapons - n)
        return evolve(state, plans=_pair(state.plans, seat, plan), players=_pair(state.players, seat, player))
    if cls is BananaPick:
        card = move.card  # type: ignore[attr-defined]
        others = _remove(state.offer, card)
        buried = _pair(state.buried, seat, _add(state.buried[seat], *others))
        return evolve(state, offer=(), buried=buried, todo=(card, *state.todo))
    if cls is KkamiTake:
        card = move.card  # type: ignore[attr-defined]
        player = evolve(player, rest=_remove(player.rest, card), hand=_add(player.hand, card))
        return evolve(state, players=_pair(state.players, seat, player))
    assert cls is Recover
    how = move.how  # type: ignore[attr-defined]
    if how == "none":
        return state
    discard = state.discard
    if how == "food":
        player = evolve(player, food=player.food - 1)
    elif how == "dish":
        player = evolve(player, dish=2)
    else:
        player = evolve(player, items=_remove(player.items, CHEF))
        discard += (CHEF,)
    player = evolve(player, hand=_add(player.hand, *player.rest), rest=())
    return evolve(state, players=_pair(state.players, seat, player), discard=discard)


# --- one battle ----------------------------------------------------------------------------------------------
def arena_ap(state: State, seat: int, k: int) -> int:
    """`seat`'s AP on arena `k` now: cards, tokens and its leader's ability."""
    plan = state.plans[seat]
    stack = plan.stacks[k]
    ap = state.table.ap
    total = sum(ap[c] for c in stack) + plan.weapons[k] + plan.coconuts[k] + state.songo[k].count(seat)
    if state.raifu[k] == seat:
        total += TOKEN_AP
    if state.hua[k] == seat:
        total += TOKEN_AP
    if stack:
        lead = stack[0]
        if lead == YE:
            total += len(state.plans[1 - seat].stacks[k])
        elif lead == HEO_YUN:
            sp = state.players[seat].sp
            total += 4 if sp <= 4 else 2 if sp <= 8 else 0
    return total


def battle_winner(state: State, k: int, ap0: int, ap1: int) -> int | None:
    """Higher AP wins; Tai-Chii also wins 4 or more AP behind; an Apple wins a tie that is not 0:0."""
    lead0, lead1 = leader(state.plans[0], k), leader(state.plans[1], k)
    if lead0 == TAI_CHII and ap1 >= ap0 + 4:
        return 0
    if lead1 == TAI_CHII and ap0 >= ap1 + 4:
        return 1
    if ap0 != ap1:
        return 0 if ap0 > ap1 else 1
    if ap0 > 0:
        apples = (state.players[0].apple > 0, state.players[1].apple > 0)
        if apples[0] != apples[1]:
            return 0 if apples[0] else 1
    return None


def _sp_loss(state: State, victim: int, n: int, k: int) -> int:
    """SP `victim` loses from an effect of the battle on arena `k`: at most 1 when Musashi leads its cards."""
    return min(n, 1) if leader(state.plans[victim], k) == MUSASHI else n


def _lose(player: Player, n: int) -> Player:
    return evolve(player, sp=max(0, player.sp - n)) if n else player


def _gain(player: Player, n: int) -> Player:
    if player.sp in (0, MAX_SP):  # SP at 0 cannot be restored; 12 is the top of the track
        return player
    return evolve(player, sp=min(MAX_SP, player.sp + n))


def fight(state: State) -> State:
    """Resolve the battle on the current arena (its Shu and Ringo decisions made)."""
    k = state.arena
    plans, players = list(state.plans), list(state.players)
    for seat in (0, 1):
        lead, other = leader(plans[seat], k), 1 - seat
        if lead == SIU_YAO and len(plans[other].stacks[k]) >= 2:
            # The weakest assistant goes to the rest area (a tie: the one placed last).
            stack = plans[other].stacks[k]
            ap = state.table.ap
            i = min(range(1, len(stack)), key=lambda j: (ap[stack[j]], -j))
            players[other] = evolve(players[other], rest=_add(players[other].rest, stack[i]))
            plans[other] = evolve(plans[other], stacks=_set(plans[other].stacks, k, stack[:i] + stack[i + 1 :]))
        elif lead == BANG and plans[other].weapons[k]:
            ignored = min(WEAPON_IGNORE, plans[other].weapons[k])
            weapons = plans[other].weapons
            plans[other] = evolve(plans[other], weapons=_set(weapons, k, weapons[k] - ignored))
            players[seat] = evolve(players[seat], weapons=players[seat].weapons + min(WEAPON_STEAL, ignored))
    state = evolve(state, plans=tuple(plans), players=tuple(players))
    ap0, ap1 = arena_ap(state, 0, k), arena_ap(state, 1, k)
    winner = battle_winner(state, k, ap0, ap1)
    hua = list(state.hua)
    todo: tuple[int, ...] = ()
    rewards = state.rewards
    if winner is not None:
        loser = 1 - winner
        lead = leader(plans[winner], k)
        players[winner] = evolve(players[winner], vp=players[winner].vp + (2 if lead == GONGMING else 1))
        loss = _sp_loss(state, loser, state.table.battle_loss, k)
        if lead == BOSHAK:
            loss += _sp_loss(state, loser, BOSHAK_SP, k)
        players[loser] = _lose(players[loser], loss)
        if hua[k] == loser and leader(plans[loser], k) != HUA:
            hua[k] = None
        if lead == YAOU:  # back to the hand instead of the rest area
            stack = plans[winner].stacks[k]
            plans[winner] = evolve(plans[winner], stacks=_set(plans[winner].stacks, k, stack[1:]))
            players[winner] = evolve(players[winner], hand=_add(players[winner].hand, YAOU))
        todo = rewards[k]
        rewards = _set(rewards, k, ())
    for seat in (0, 1):
        if leader(plans[seat], k) == HUA and hua[k] is None and players[seat].hua:
            hua[k] = seat
            players[seat] = evolve(players[seat], hua=players[seat].hua - 1)
    return evolve(
        state, plans=tuple(plans), players=tuple(players), hua=tuple(hua), rewards=rewards, todo=todo,
        results=_set(state.results, k, winner), diff=abs(ap0 - ap1), stage=SPOILS,
    )  # fmt: skip


# --- rewards -------------------------------------------------------------------------------------------------
def _take(state: State) -> State:
    """The winner of the current arena takes its next reward card."""
    k = state.arena
    card, todo = state.todo[0], state.todo[1:]
    winner = state.results[k]
    assert winner is not None
    loser = 1 - winner
    players = list(state.players)
    me, them = players[winner], players[loser]
    discard = state.discard + (card,)
    kind = KIND[card]
    state = evolve(state, todo=todo)
    if kind == RANGER:
        me = evolve(me, hand=_add(me.hand, card))
        discard = state.discard
    elif card == GINSENG:
        me = evolve(_gain(me, 1), ginseng=True)
    elif card == APPLE:
        me = evolve(me, apple=me.apple + 1)
        discard = state.discard
    elif card == COCONUT:
        me = evolve(me, coconuts=me.coconuts + 1)
    elif card == BANANA:
        n = min(BANANA_DRAW, len(state.deck))
        if n:
            offer = state.deck[len(state.deck) - n :]
            state = evolve(state, deck=state.deck[: len(state.deck) - n], offer=tuple(sorted(offer)),
                           queue=((winner, BANANA_CHOICE), *state.queue))  # fmt: skip
    elif card == SONGO:
        if len(state.songo[k]) < SONGO_PER_ARENA:
            state = evolve(state, songo=_set(state.songo, k, state.songo[k] + (winner,)))
    elif card in (CHEF, REINFORCEMENTS_CODE):
        me = evolve(me, items=_add(me.items, card))
        discard = state.discard
    elif card == MIGHT:
        them = _lose(them, _sp_loss(state, loser, MIGHT_LOSS, k))
        me = _gain(me, MIGHT_GAIN)
    elif card == BLOCKADE:
        them = evolve(_lose(them, _sp_loss(state, loser, BLOCKADE_LOSS, k)), blocked=state.round + 1)
    elif card == COUNTERATTACK:
        them = _lose(them, _sp_loss(state, loser, COUNTER_LOSS, k))
        plan = state.plans[winner]
        me = evolve(me, hand=_add(me.hand, *plan.stacks[k]))
        state = evolve(state, plans=_pair(state.plans, winner, evolve(plan, stacks=_set(plan.stacks, k, ()))))
    elif card == DESTRUCTION:
        them = _lose(them, _sp_loss(state, loser, min(state.diff, state.table.destruction_max), k))
    elif card == SINKING:
        me = evolve(me, sinking=me.sinking + 1)
        them = _lose(them, _sp_loss(state, loser, me.sinking, k))
        discard = state.discard
    else:  # pragma: no cover - every reward kind is handled above
        raise AssertionError(f"unknown reward {card}")
    assert kind in (RANGER, ACHIEVEMENT, "item")
    players[winner], players[loser] = me, them
    return evolve(state, players=tuple(players), discard=discard)


# --- the end of the battle phase -----------------------------------------------------------------------------
def verdict(players: tuple[Player, ...], deck_size: int) -> tuple[tuple[int, ...], str] | None:
    """Who wins after the battle phase, and why; None when the game goes on."""
    sp = (players[0].sp, players[1].sp)
    vp = (players[0].vp, players[1].vp)
    if sp[0] == 0 and sp[1] == 0:
        return _higher(vp, (0, 0), "both players' SP are 0: the higher VP wins")
    if sp[0] == 0 or sp[1] == 0:
        return ((1,) if sp[0] == 0 else (0,)), "the opponent's SP is 0"
    if deck_size < ARENAS:
        return _higher(vp, sp, "fewer than 3 reward cards remain: the higher VP wins")
    if abs(vp[0] - vp[1]) >= 4:
        return ((0,) if vp[0] > vp[1] else (1,)), "VP 4 or more higher than the opponent's"
    return None


def _higher(vp: tuple[int, int], sp: tuple[int, int], why: str) -> tuple[tuple[int, ...], str]:
    if vp[0] != vp[1]:
        return ((0,) if vp[0] > vp[1] else (1,)), why
    if sp[0] != sp[1]:
        return ((0,) if sp[0] > sp[1] else (1,)), why + " (VP tied: the higher SP)"
    return (0, 1), why + " (VP and SP tied: a draw)"


def _end_battle(state: State) -> State:
    state = evolve(state, raifu=(None, None, None))
    result = verdict(state.players, len(state.deck))
    if result is not None:
        return evolve(state, phase=OVER, winners=result[0], end=result[1], queue=())
    return _start_regroup(state)


# --- regroup -------------------------------------------------------------------------------------------------
def _start_regroup(state: State) -> State:
    players = list(state.players)
    queue: list[tuple[int, str]] = []
    for seat in (0, 1):
        player, plan = players[seat], state.plans[seat]
        rest = _add(player.rest, *(c for stack in plan.stacks for c in stack))
        limit = max(player.limit, 5 if player.sp <= LIMIT_5_SP else 4 if player.sp <= LIMIT_4_SP else 3)
        dish = 1 if player.dish == 0 and player.sp <= DISH_SP else player.dish
        player = evolve(player, rest=rest, limit=limit, dish=dish)
        if state.used[seat] == 0 or (player.ginseng and player.sp > DISH_SP):
            player = evolve(player, hand=_add(player.hand, *rest), rest=())  # a free recovery
        else:
            if any(leader(plan, k) == KKAMI for k in range(ARENAS)):
                queue.append((seat, KKAMI_CHOICE))
            queue.append((seat, RECOVER))
        players[seat] = player
    return evolve(state, players=tuple(players), phase=REGROUP, queue=tuple(queue))


def _end_regroup(state: State) -> State:
    players = tuple(
        evolve(p, ginseng=False, blocked=0 if p.blocked <= state.round else p.blocked) for p in state.players
    )
    return evolve(
        state, players=players, plans=(EMPTY_PLAN, EMPTY_PLAN), used=(0, 0), results=(None, None, None),
        round=state.round + 1, arena=0, stage=OPEN, diff=0,
    )  # fmt: skip
