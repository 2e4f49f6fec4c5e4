"""Kung Fur Fight's playout kernel (the search reaches it through ai/legacy_rules.py until this game's rules are
written once, issue 25): games.kungfur.rules and .battle on a mutable copy of a state.

Only the search uses it, on determinizations it drew with `sample`. The moves are the engine's own interned values,
in the engine's order; tests/conformance/test_kernels.py checks it against the engine move for move. What a
playout never reads is not kept: the discard pile, the face-down Banana discards, why the game ended. A plan being
made keeps the cards still in hand beside the stacks (`avail`), as the engine's `available` would compute them.
"""

from __future__ import annotations

from games.base import chance
from games.kungfur.battle import (
    BANANA_DRAW,
    BLOCKADE_LOSS,
    BOSHAK_SP,
    COUNTER_LOSS,
    DISH_SP,
    LIMIT_4_SP,
    LIMIT_5_SP,
    MIGHT_GAIN,
    MIGHT_LOSS,
    RINGO_MAX,
    WEAPON_IGNORE,
    WEAPON_STEAL,
)
from games.kungfur.data import (
    APPLE,
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
    HIMIKO,
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
    TUMAZ,
    YAOU,
    YE,
)
from games.kungfur.moves import (
    ASSISTS,
    BANANA_PICKS,
    COCONUT_TOKENS,
    DONE,
    KKAMI_TAKES,
    LEADS,
    RECOVERS,
    REINFORCE,
    RINGO_ADDS,
    SHU_ADDS,
    SHU_NONE,
    WEAPON_TOKENS,
    Assist,
    BananaPick,
    KkamiTake,
    Lead,
    Reinforce,
    RingoAdd,
    ShuAdd,
    Token,
)
from games.kungfur.state import (
    BANANA as BANANA_CHOICE,
)
from games.kungfur.state import (
    BATTLE,
    FIGHT,
    OPEN,
    OVER,
    PLAN,
    RECOVER,
    REGROUP,
    SPOILS,
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

_ARENAS = (0, 1, 2)
_BOTH = (0, 1)
_ONE = ((0,), (1,))
_NOBODY = ()
_RECOVER_CHEF, _RECOVER_DISH, _RECOVER_FOOD, _RECOVER_NONE = (RECOVERS[h] for h in ("chef", "dish", "food", "none"))


class Side:
    """One seat: its board (State.players) and its plan (State.plans), as lists changed in place."""

    __slots__ = (
        "hand", "rest", "sp", "vp", "limit", "food", "dish", "weapons", "hua", "coconuts", "items", "apple",
        "sinking", "ginseng", "blocked",
        # the plan
        "stacks", "pw", "pc", "boost", "done", "avail", "placed", "tokens",
    )  # fmt: skip


class Playout:
    """A Kung Fur Fight state as lists, changed in place."""

    __slots__ = (
        "seed", "ap", "battle_loss", "destruction_max", "round", "phase", "sides", "used", "arena", "stage",
        "rewards", "raifu", "hua", "songo", "results", "diff", "todo", "deck", "offer", "queue", "winners",
    )  # fmt: skip


def _load_side(player, plan, planning: bool) -> Side:
    side = Side()
    side.hand = list(player.hand)
    side.rest = list(player.rest)
    side.sp = player.sp
    side.vp = player.vp
    side.limit = player.limit
    side.food = player.food
    side.dish = player.dish
    side.weapons = player.weapons
    side.hua = player.hua
    side.coconuts = player.coconuts
    side.items = list(player.items)
    side.apple = player.apple
    side.sinking = player.sinking
    side.ginseng = player.ginseng
    side.blocked = player.blocked
    side.stacks = [list(stack) for stack in plan.stacks]
    side.pw = list(plan.weapons)
    side.pc = list(plan.coconuts)
    side.boost = plan.boost
    side.done = plan.done
    avail = list(player.hand) if planning else []  # after the reveal the hand no longer holds the plan
    placed = 0
    for stack in plan.stacks:
        for card in stack:
            placed += card != HIMIKO
            if planning:
                avail.remove(card)
    side.avail = avail
    side.placed = placed
    side.tokens = sum(plan.weapons) + sum(plan.coconuts)
    return side


def _clear_plan(side: Side) -> None:
    side.stacks = [[], [], []]
    side.pw = [0, 0, 0]
    side.pc = [0, 0, 0]
    side.boost = False
    side.done = False
    side.placed = 0
    side.tokens = 0


def _insert(cards: list, card: int) -> None:
    """Add `card` to the sorted list `cards`."""
    i = len(cards)
    while i and cards[i - 1] > card:
        i -= 1
    cards.insert(i, card)


def _leader(side: Side, k: int):
    stack = side.stacks[k]
    return stack[0] if stack else None


class KungFurKernel:
    def playout_policy(self, ps: Playout, seat: int, moves: list, rng) -> object:
        return playout_policy(ps, seat, moves, rng.random)

    def load(self, state: State) -> Playout:
        ps = Playout()
        table = state.table
        ps.seed = state.seed
        ps.ap = table.ap
        ps.battle_loss = table.battle_loss
        ps.destruction_max = table.destruction_max
        ps.round = state.round
        ps.phase = state.phase
        planning = state.phase == PLAN
        ps.sides = [_load_side(state.players[s], state.plans[s], planning) for s in _BOTH]
        ps.used = list(state.used)
        ps.arena = state.arena
        ps.stage = state.stage
        ps.rewards = [list(r) for r in state.rewards]
        ps.raifu = list(state.raifu)
        ps.hua = list(state.hua)
        ps.songo = [list(s) for s in state.songo]
        ps.results = list(state.results)
        ps.diff = state.diff
        ps.todo = list(state.todo)
        ps.deck = list(state.deck)
        ps.offer = list(state.offer)
        ps.queue = list(state.queue)
        ps.winners = state.winners
        return ps

    def to_act(self, ps: Playout) -> tuple[int, ...]:
        phase = ps.phase
        if phase == PLAN:
            sides = ps.sides
            done0, done1 = sides[0].done, sides[1].done
            return _NOBODY if done0 and done1 else _ONE[1] if done0 else _ONE[0] if done1 else _BOTH
        if phase == OVER or not ps.queue:
            return _NOBODY
        return _ONE[ps.queue[0][0]]

    def legal_moves(self, ps: Playout, seat: int) -> list:
        if ps.phase == PLAN:
            return _plan_moves(ps, seat)
        queue = ps.queue
        if queue and queue[0][0] == seat:
            return _decision_moves(ps, seat, queue[0][1])
        return []

    def play(self, ps: Playout, seat: int, move) -> Playout:
        if ps.phase != PLAN:
            _apply_decision(ps, seat, move)
            _run(ps)
            return ps
        side = ps.sides[seat]
        cls = type(move)
        if cls is Lead or cls is Assist:
            card = move.card
            side.stacks[move.arena].append(card)
            side.avail.remove(card)
            side.placed += card != HIMIKO
        elif cls is Token:
            if move.kind == "weapon":
                side.pw[move.arena] += 1
            else:
                side.pc[move.arena] += 1
            side.tokens += 1
        elif cls is Reinforce:
            side.boost = True
        else:
            side.done = True
            if ps.sides[1 - seat].done:
                _reveal(ps)
                _run(ps)
        return ps

    def outcome(self, ps: Playout) -> tuple[list[int], tuple[int, ...]]:
        vp0, vp1 = ps.sides[0].vp, ps.sides[1].vp
        if ps.phase == OVER:
            return [vp0, vp1], ps.winners
        return [vp0, vp1], _BOTH if vp0 == vp1 else _ONE[0] if vp0 > vp1 else _ONE[1]


# --- planning --------------------------------------------------------------------------------------------------
_PLAN_MOVES: dict[tuple, tuple] = {}  # the planning moves by what they depend on (see _plan_moves)
_PLAN_CACHE_MAX = 100_000


def _plan_moves(ps: Playout, seat: int) -> list:
    """As rules.plan_moves, remembered by what the list depends on: a playout asks again and again for the moves
    of the same hands and the same shapes of plan."""
    side = ps.sides[seat]
    if side.done:
        return []
    stacks = side.stacks
    tokens = side.tokens
    key = (
        tokens == 0 and tuple(side.avail),
        tokens == 0 and side.placed < side.limit + side.boost - (side.blocked == ps.round),
        tokens == 0 and not side.boost and REINFORCEMENTS in side.items,
        side.weapons > sum(side.pw),
        side.coconuts > sum(side.pc),
        _shape(stacks[0]),
        _shape(stacks[1]),
        _shape(stacks[2]),
    )
    moves = _PLAN_MOVES.get(key)
    if moves is None:
        if len(_PLAN_MOVES) >= _PLAN_CACHE_MAX:
            _PLAN_MOVES.clear()
        moves = _PLAN_MOVES[key] = _list_plan_moves(*key)
    return list(moves)


def _shape(stack: list) -> int:
    return 0 if not stack else 1 if len(stack) < MAX_PER_ARENA and stack[0] != TUMAZ else 2


def _list_plan_moves(avail, room: bool, reinforce: bool, weapons_left: bool, coconuts_left: bool, *shape) -> tuple:
    """The planning moves: animals (unless a token is down: then `avail` is False), Reinforcements, tokens, done.
    `shape` is each arena's stack: 0 empty, 1 open to an assistant, 2 closed (full, or Tumaz alone)."""
    moves: list = []
    if avail is not False:
        cards = sorted(set(avail))
        for k in _ARENAS:
            if shape[k] == 0:
                leads = LEADS[k]
                moves += [leads[c] for c in cards if room or c == HIMIKO]
            elif shape[k] == 1:
                assists = ASSISTS[k]
                moves += [assists[c] for c in cards if c != TUMAZ and (room or c == HIMIKO)]
        if reinforce:
            moves.append(REINFORCE)
    if weapons_left or coconuts_left:
        for k in _ARENAS:
            if shape[k]:
                if weapons_left:
                    moves.append(WEAPON_TOKENS[k])
                if coconuts_left:
                    moves.append(COCONUT_TOKENS[k])
    moves.append(DONE)
    return tuple(moves)


def _reveal(ps: Playout) -> None:
    raifu = [None, None, None]
    for seat in _BOTH:
        side = ps.sides[seat]
        side.hand = side.avail
        side.avail = []
        if side.boost:
            side.items.remove(REINFORCEMENTS)
        side.weapons -= sum(side.pw)
        stacks = side.stacks
        ps.used[seat] = len(stacks[0]) + len(stacks[1]) + len(stacks[2])
        for k in _ARENAS:
            if stacks[k] and stacks[k][0] == RAIFU:
                for j in _ARENAS:
                    if j != k:
                        raifu[j] = seat
    ps.raifu = raifu
    ps.phase = BATTLE
    ps.arena = 0
    ps.stage = OPEN


# --- the battle phase and the regroup ---------------------------------------------------------------------------
def _run(ps: Playout) -> None:
    """As battle.run: resolve what needs no decision; stop when a seat must decide, or at the next planning."""
    queue = ps.queue
    while True:
        if queue:
            seat, kind = queue[0]
            moves = _decision_moves(ps, seat, kind)
            if len(moves) > 1:
                return
            if moves:
                _apply_decision(ps, seat, moves[0])
            else:
                del queue[0]
            continue
        phase = ps.phase
        if phase == BATTLE:
            stage = ps.stage
            if stage == OPEN:
                _open(ps)
            elif stage == FIGHT:
                _fight(ps)
            elif ps.todo:
                _take(ps)
            elif ps.arena < 2:
                ps.arena += 1
                ps.stage = OPEN
            else:
                _end_battle(ps)
        elif phase == REGROUP:
            _end_regroup(ps)
            _prepare(ps)
        else:
            return


def _open(ps: Playout) -> None:
    k = ps.arena
    queue = ps.queue
    for seat in _BOTH:
        lead = _leader(ps.sides[seat], k)
        if lead == SHU:
            queue.append((seat, SHU_CHOICE))
        elif lead == RINGO:
            queue.append((seat, RINGO_CHOICE))
    if len(queue) == 2:
        loser = chance(ps.seed, "rock-paper-scissors", ps.round, k).randrange(2)
        queue.sort(key=lambda item: item[0] != loser)
    ps.stage = FIGHT


def _decision_moves(ps: Playout, seat: int, kind: str) -> list:
    side = ps.sides[seat]
    if kind == SHU_CHOICE:
        if len(side.stacks[ps.arena]) >= MAX_PER_ARENA:
            return []
        return [SHU_NONE, *(SHU_ADDS[c] for c in sorted(set(side.hand)) if c != TUMAZ and c != SHU)]
    if kind == RINGO_CHOICE:
        return list(RINGO_ADDS[: min(RINGO_MAX, side.weapons) + 1])
    if kind == BANANA_CHOICE:
        return [BANANA_PICKS[c] for c in sorted(set(ps.offer))]
    if kind == KKAMI_CHOICE:
        return [KKAMI_TAKES[c] for c in sorted(set(side.rest)) if c != KKAMI]
    if not side.rest:
        return []
    moves = []
    if side.sp > DISH_SP and CHEF in side.items:
        moves.append(_RECOVER_CHEF)
    if side.dish == 1 and side.sp <= DISH_SP:
        moves.append(_RECOVER_DISH)
    if side.food:
        moves.append(_RECOVER_FOOD)
    if moves:
        moves.append(_RECOVER_NONE)
    return moves


def _apply_decision(ps: Playout, seat: int, move) -> None:
    del ps.queue[0]
    side = ps.sides[seat]
    k = ps.arena
    cls = type(move)
    if cls is ShuAdd:
        card = move.card
        if card is not None:
            side.stacks[k].append(card)
            side.hand.remove(card)
    elif cls is RingoAdd:
        side.pw[k] += move.count
        side.weapons -= move.count
    elif cls is BananaPick:
        ps.offer = []
        ps.todo.insert(0, move.card)
    elif cls is KkamiTake:
        side.rest.remove(move.card)
        _insert(side.hand, move.card)
    else:
        how = move.how
        if how == "none":
            return
        if how == "food":
            side.food -= 1
        elif how == "dish":
            side.dish = 2
        else:
            side.items.remove(CHEF)
        side.hand = sorted(side.hand + side.rest)
        side.rest = []


def _arena_ap(ps: Playout, seat: int, k: int) -> int:
    side = ps.sides[seat]
    stack = side.stacks[k]
    ap = ps.ap
    total = side.pw[k] + side.pc[k]
    for card in stack:
        total += ap[card]
    songo = ps.songo[k]
    if songo:
        total += songo.count(seat)
    if ps.raifu[k] == seat:
        total += TOKEN_AP
    if ps.hua[k] == seat:
        total += TOKEN_AP
    if stack:
        lead = stack[0]
        if lead == YE:
            total += len(ps.sides[1 - seat].stacks[k])
        elif lead == HEO_YUN:
            sp = side.sp
            total += 4 if sp <= 4 else 2 if sp <= 8 else 0
    return total


def _sp_loss(side: Side, n: int, k: int) -> int:
    return min(n, 1) if _leader(side, k) == MUSASHI else n


def _lose(side: Side, n: int) -> None:
    if n:
        side.sp = max(0, side.sp - n)


def _gain(side: Side, n: int) -> None:
    sp = side.sp
    if sp != 0 and sp != MAX_SP:
        side.sp = min(MAX_SP, sp + n)


def _fight(ps: Playout) -> None:
    k = ps.arena
    sides = ps.sides
    ap = ps.ap
    for seat in _BOTH:
        me, them = sides[seat], sides[1 - seat]
        lead = _leader(me, k)
        if lead == SIU_YAO and len(them.stacks[k]) >= 2:
            stack = them.stacks[k]
            i = min(range(1, len(stack)), key=lambda j: (ap[stack[j]], -j))
            _insert(them.rest, stack.pop(i))
        elif lead == BANG and them.pw[k]:
            ignored = min(WEAPON_IGNORE, them.pw[k])
            them.pw[k] -= ignored
            me.weapons += min(WEAPON_STEAL, ignored)
    ap0, ap1 = _arena_ap(ps, 0, k), _arena_ap(ps, 1, k)
    lead0, lead1 = _leader(sides[0], k), _leader(sides[1], k)
    if lead0 == TAI_CHII and ap1 >= ap0 + 4:
        winner = 0
    elif lead1 == TAI_CHII and ap0 >= ap1 + 4:
        winner = 1
    elif ap0 != ap1:
        winner = 0 if ap0 > ap1 else 1
    elif ap0 > 0 and (sides[0].apple > 0) != (sides[1].apple > 0):
        winner = 0 if sides[0].apple > 0 else 1
    else:
        winner = None
    hua = ps.hua
    if winner is not None:
        loser = 1 - winner
        me, them = sides[winner], sides[loser]
        lead = _leader(me, k)
        me.vp += 2 if lead == GONGMING else 1
        loss = _sp_loss(them, ps.battle_loss, k)
        if lead == BOSHAK:
            loss += _sp_loss(them, BOSHAK_SP, k)
        _lose(them, loss)
        if hua[k] == loser and _leader(them, k) != HUA:
            hua[k] = None
        if lead == YAOU:  # back to the hand instead of the rest area
            del me.stacks[k][0]
            _insert(me.hand, YAOU)
        ps.todo = ps.rewards[k]
        ps.rewards[k] = []
    else:
        ps.todo = []
    for seat in _BOTH:
        side = sides[seat]
        if hua[k] is None and side.hua and _leader(side, k) == HUA:
            hua[k] = seat
            side.hua -= 1
    ps.results[k] = winner
    ps.diff = abs(ap0 - ap1)
    ps.stage = SPOILS


def _take(ps: Playout) -> None:
    k = ps.arena
    card = ps.todo.pop(0)
    winner = ps.results[k]
    loser = 1 - winner
    me, them = ps.sides[winner], ps.sides[loser]
    kind = KIND[card]
    if kind == RANGER:
        _insert(me.hand, card)
    elif card == GINSENG:
        _gain(me, 1)
        me.ginseng = True
    elif card == APPLE:
        me.apple += 1
    elif card == COCONUT:
        me.coconuts += 1
    elif card == BANANA:
        deck = ps.deck
        n = min(BANANA_DRAW, len(deck))
        if n:
            ps.offer = sorted(deck[len(deck) - n :])
            del deck[len(deck) - n :]
            ps.queue.insert(0, (winner, BANANA_CHOICE))
    elif card == SONGO:
        if len(ps.songo[k]) < SONGO_PER_ARENA:
            ps.songo[k].append(winner)
    elif card == CHEF or card == REINFORCEMENTS:
        _insert(me.items, card)
    elif card == MIGHT:
        _lose(them, _sp_loss(them, MIGHT_LOSS, k))
        _gain(me, MIGHT_GAIN)
    elif card == BLOCKADE:
        _lose(them, _sp_loss(them, BLOCKADE_LOSS, k))
        them.blocked = ps.round + 1
    elif card == COUNTERATTACK:
        _lose(them, _sp_loss(them, COUNTER_LOSS, k))
        me.hand = sorted(me.hand + me.stacks[k])
        me.stacks[k] = []
    elif card == DESTRUCTION:
        _lose(them, _sp_loss(them, min(ps.diff, ps.destruction_max), k))
    else:
        assert card == SINKING
        me.sinking += 1
        _lose(them, _sp_loss(them, me.sinking, k))


def _winners(sides: list[Side], deck_size: int) -> tuple[int, ...] | None:
    """As battle.verdict, the winners only."""
    sp0, sp1 = sides[0].sp, sides[1].sp
    vp0, vp1 = sides[0].vp, sides[1].vp
    if sp0 == 0 and sp1 == 0:
        return _BOTH if vp0 == vp1 else _ONE[0] if vp0 > vp1 else _ONE[1]
    if sp0 == 0 or sp1 == 0:
        return _ONE[1] if sp0 == 0 else _ONE[0]
    if deck_size < 3:
        if vp0 != vp1:
            return _ONE[0] if vp0 > vp1 else _ONE[1]
        return _BOTH if sp0 == sp1 else _ONE[0] if sp0 > sp1 else _ONE[1]
    if abs(vp0 - vp1) >= 4:
        return _ONE[0] if vp0 > vp1 else _ONE[1]
    return None


def _end_battle(ps: Playout) -> None:
    ps.raifu = [None, None, None]
    winners = _winners(ps.sides, len(ps.deck))
    if winners is not None:
        ps.phase = OVER
        ps.winners = winners
        ps.queue.clear()
        return
    queue = ps.queue
    for seat in _BOTH:
        side = ps.sides[seat]
        stacks = side.stacks
        rest = side.rest + stacks[0] + stacks[1] + stacks[2]
        rest.sort()
        sp = side.sp
        side.limit = max(side.limit, 5 if sp <= LIMIT_5_SP else 4 if sp <= LIMIT_4_SP else 3)
        if side.dish == 0 and sp <= DISH_SP:
            side.dish = 1
        if ps.used[seat] == 0 or (side.ginseng and sp > DISH_SP):
            side.hand = sorted(side.hand + rest)  # a free recovery
            side.rest = []
        else:
            side.rest = rest
            if any(stack and stack[0] == KKAMI for stack in stacks):
                queue.append((seat, KKAMI_CHOICE))
            queue.append((seat, RECOVER))
    ps.phase = REGROUP


def _end_regroup(ps: Playout) -> None:
    for side in ps.sides:
        side.ginseng = False
        if side.blocked <= ps.round:
            side.blocked = 0
        _clear_plan(side)
        side.avail = list(side.hand)
    ps.used = [0, 0]
    ps.results = [None, None, None]
    ps.round += 1
    ps.arena = 0
    ps.stage = OPEN
    ps.diff = 0


def _prepare(ps: Playout) -> None:
    deck = ps.deck
    for k in _ARENAS:
        stack = ps.rewards[k]
        stack.append(deck.pop())
        if len(stack) > MAX_PER_ARENA:
            del stack[0]
    ps.phase = PLAN


# --- the playout policy -----------------------------------------------------------------------------------------
EXPLORE = 0.25  # share of uniformly random picks
WEAPON = 0.8  # chance to put down another Hidden Weapon


def playout_policy(ps: Playout, seat: int, moves: list, random_) -> object:
    """A cheap rule of thumb for the playouts: plan animals up to the card limit where the rewards are (lead the
    arena with the most reward cards, half the time with the strongest animal), then the Coconuts and most
    Hidden Weapons, and finish; recover when the hand runs short (the greedy player's rule). A quarter of the
    picks, and the decisions of the battle phase, stay uniformly random. As a player on its own it beat uniformly
    random play in 81-84% of 1000 games (docs/ai.md); a variant that planned fewer animals (it stopped with chance
    0.4 after each) won only 33%."""
    if random_() >= EXPLORE:
        if ps.phase == PLAN:
            move = _plan_pick(ps, ps.sides[seat], random_)
            if move is not None:
                return move
        elif ps.queue[0][1] == RECOVER:
            side = ps.sides[seat]
            if len(side.hand) > side.limit and len(side.rest) < 4:
                return moves[-1]  # leave them: "none" is listed last
            return moves[0]
    return moves[int(random_() * len(moves))]


def _plan_pick(ps: Playout, side: Side, random_):
    stacks = side.stacks
    if not side.tokens:
        avail = side.avail
        if side.placed < side.limit + side.boost - (side.blocked == ps.round):
            cards = avail
        else:
            cards = [HIMIKO] if HIMIKO in avail else ()
        if cards:
            best, best_key = -1, -1.0
            rewards = ps.rewards
            for k in _ARENAS:
                stack = stacks[k]
                if not stack:
                    key = 2 * len(rewards[k]) + 1 + random_()
                elif len(stack) < MAX_PER_ARENA and stack[0] != TUMAZ:
                    key = 2 * len(rewards[k]) + random_()
                else:
                    continue
                if key > best_key:
                    best, best_key = k, key
            if best >= 0:
                lead = not stacks[best]
                if random_() < 0.5:
                    ap = ps.ap
                    card = max(cards, key=ap.__getitem__)
                else:
                    card = cards[int(random_() * len(cards))]
                if lead:
                    return LEADS[best][card]
                if card != TUMAZ:
                    return ASSISTS[best][card]
    used = [k for k in _ARENAS if stacks[k]]
    if used:
        if side.coconuts > sum(side.pc):
            return COCONUT_TOKENS[used[int(random_() * len(used))]]
        if side.weapons > sum(side.pw) and random_() < WEAPON:
            return WEAPON_TOKENS[used[int(random_() * len(used))]]
    return DONE


KERNEL = KungFurKernel()
