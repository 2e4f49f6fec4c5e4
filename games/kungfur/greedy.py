"""A greedy Kung Fur Fight player: it plans by sampling, and decides in the open by looking one battle ahead.

Planning: it draws many candidate plans from its hand and scores each against the same random plans of its
opponent (drawn from the opponent's known hand, card limit and tokens), counting VP, rewards and SP for the
arenas it would win or lose and the cost of the cards and Hidden Weapons it spends; then it places the best plan
one secret move at a time. In battle (Master Shu, Ringo) it tries each choice on a determinization of its view
and keeps the cheapest that wins the arena. It knows only its view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.kungfur.battle import (
    BOSHAK_SP,
    OTHER_ARENAS,
    apply_decision,
    battle_winner,
    decision_moves,
    fight,
    team_ap,
    weakest_assistant,
    win_vp,
)
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
    HIMIKO,
    KIND,
    MIGHT,
    RAIFU,
    RANGER,
    REINFORCEMENTS,
    SINKING,
    SIU_YAO,
    SONGO,
)
from games.kungfur.moves import (
    ASSISTS,
    COCONUT_TOKENS,
    DONE,
    LEADS,
    REINFORCE,
    WEAPON_TOKENS,
    BananaPick,
    KkamiTake,
    Recover,
    RingoAdd,
    ShuAdd,
)
from games.kungfur.planning import LONER, card_limit, open_to_assistant
from games.kungfur.rules import thaw
from games.kungfur.state import PLAN, RINGO, SHU, View

CANDIDATES = 160
OPPONENT_PLANS = 24
SP_WORTH = 0.45  # one SP, in VP
CARD_COST = 0.18  # a card sent to the rest area
WEAPON_COST = 0.3
REWARD_WORTH = {
    GINSENG: 0.6, APPLE: 0.8, COCONUT: 0.9, BANANA: 0.7, SONGO: 0.6, CHEF: 0.5, REINFORCEMENTS: 0.4,
    MIGHT: 3 * SP_WORTH, BLOCKADE: 0.9, COUNTERATTACK: 2 * SP_WORTH + 0.4, DESTRUCTION: 2 * SP_WORTH,
    SINKING: 1.5 * SP_WORTH,
}  # fmt: skip


def reward_worth(view: View, card: int) -> float:
    if KIND[card] == RANGER:
        return 0.8 + 0.15 * view.table.ap[card]
    return REWARD_WORTH.get(card, 0.5)


class KungFurGreedy:
    name = "greedy"

    def __init__(self) -> None:
        self._plans: dict[tuple, list] = {}

    def choose(self, game, view: View, moves: Sequence, rng: random.Random):
        if view.phase == PLAN:
            return self._plan_move(view, moves, rng)
        first = moves[0]
        if isinstance(first, ShuAdd | RingoAdd):
            return self._ability(game, view, moves, rng)
        if isinstance(first, BananaPick):
            return max(moves, key=lambda m: reward_worth(view, m.card))
        if isinstance(first, KkamiTake):
            return max(moves, key=lambda m: view.table.ap[m.card])
        if isinstance(first, Recover):
            return self._recover(view, moves)
        return first

    # --- planning ------------------------------------------------------------------------------------------
    def _plan_move(self, view: View, moves: Sequence, rng: random.Random):
        me = view.seat
        key = (view.round, me, view.players[me].hand)
        script = self._plans.get(key)
        if script is None:
            script = self._plans[key] = self._script(view, rng)
        legal = set(moves)
        while script:
            move = script.pop(0)
            if move in legal:
                return move
        return DONE if DONE in legal else moves[0]

    def _script(self, view: View, rng: random.Random) -> list:
        me = view.seat
        opponent_plans = [_random_plan(view, 1 - me, rng) for _ in range(OPPONENT_PLANS)]
        best, best_worth = ([(), (), ()], [0, 0, 0], [0, 0, 0], False), None
        for i in range(CANDIDATES):
            plan = _random_plan(view, me, rng, empty=i == 0)
            worth = sum(_worth(view, me, plan, other) for other in opponent_plans) / OPPONENT_PLANS
            worth -= _cost(view, me, plan)
            if best_worth is None or worth > best_worth:
                best, best_worth = plan, worth
        stacks, weapons, coconuts, boost = best
        script: list = [REINFORCE] if boost else []
        for k in range(ARENAS):
            if stacks[k]:
                script.append(LEADS[k][stacks[k][0]])
                script.extend(ASSISTS[k][c] for c in stacks[k][1:])
        for k in range(ARENAS):
            script.extend([WEAPON_TOKENS[k]] * weapons[k] + [COCONUT_TOKENS[k]] * coconuts[k])
        return script + [DONE]

    # --- decisions in the open -----------------------------------------------------------------------------
    def _ability(self, game, view: View, moves: Sequence, rng: random.Random):
        me, k = view.seat, view.arena
        state = game.sample(view, rng)
        best, best_worth = moves[0], None
        for move in moves:
            after = thaw(state)
            apply_decision(after, me, move)
            while after.queue and after.queue[0][1] in (SHU, RINGO):  # the other side declines
                seat, kind = after.queue[0]
                apply_decision(after, seat, decision_moves(after, seat, kind)[0])
            fight(after)
            won = after.results[k]
            worth = 0.0 if won is None else (1.0 if won == me else -1.0)
            if isinstance(move, ShuAdd) and move.card is not None:
                worth -= CARD_COST + 0.02 * view.table.ap[move.card]
            if isinstance(move, RingoAdd):
                worth -= 0.1 * move.count
            if best_worth is None or worth > best_worth:
                best, best_worth = move, worth
        return best

    def _recover(self, view: View, moves: Sequence):
        player = view.players[view.seat]
        by_how = {m.how: m for m in moves}
        need = len(player.hand) <= player.limit or len(player.rest) >= 4
        if not need:
            return by_how["none"]
        for how in ("chef", "dish", "food"):
            if how in by_how:
                return by_how[how]
        return by_how["none"]


# --- a quick model of one battle -----------------------------------------------------------------------------
def _random_plan(view: View, seat: int, rng: random.Random, empty: bool = False):
    """A random plan of `seat` from its known hand, card limit and tokens: (stacks, weapons, coconuts, boost)."""
    player = view.players[seat]
    stacks: list[list[int]] = [[], [], []]
    weapons, coconuts = [0, 0, 0], [0, 0, 0]
    if empty:
        return (tuple(map(tuple, stacks)), weapons, coconuts, False)
    boost = REINFORCEMENTS in player.items and rng.random() < 0.3
    limit = card_limit(player.limit, boost, player.blocked, view.round)
    hand = list(player.hand)
    rng.shuffle(hand)
    n = rng.randint(1, max(1, limit))
    arenas = rng.sample(range(ARENAS), rng.randint(1, ARENAS))
    count = 0
    for card in hand:
        if count >= n and card != HIMIKO:
            continue
        k = arenas[rng.randrange(len(arenas))]
        stack = stacks[k]
        if stack and (not open_to_assistant(stack) or card == LONER):
            continue
        stack.append(card)
        count += card != HIMIKO
    used = [k for k in range(ARENAS) if stacks[k]]
    if used:
        for _ in range(rng.randint(0, player.weapons)):
            weapons[rng.choice(used)] += 1
        for _ in range(player.coconuts):
            coconuts[rng.choice(used)] += 1
    return (tuple(map(tuple, stacks)), weapons, coconuts, boost)


def _side_ap(view: View, seat: int, k: int, plan, other) -> int:
    """`seat`'s AP on arena `k` with `plan` against `other` (both imagined): the rules' AP, with the abilities that
    act before it guessed at (Bang ignores every Hidden Weapon; Siu-Yao rests the weakest assistant)."""
    stacks, weapons, coconuts, _ = plan
    stack, opp = stacks[k], other[0][k]
    ap = view.table.ap
    if opp and opp[0] == SIU_YAO and len(stack) >= 2:
        weakest = weakest_assistant(ap, stack)
        stack = stack[:weakest] + stack[weakest + 1 :]
    raifu = seat if any(stacks[j] and stacks[j][0] == RAIFU for j in OTHER_ARENAS[k]) else None
    weapons_left = 0 if opp and opp[0] == BANG else weapons[k]
    return team_ap(ap, list(stack), weapons_left, coconuts[k], seat, view.songo[k], raifu, view.hua[k], len(opp),
                   view.players[seat].sp)


def _worth(view: View, me: int, plan, other) -> float:
    """My plan's worth against one opponent plan: VP, rewards and SP of the arenas won minus those lost."""
    total = 0.0
    apples = view.players[me].apple > 0, view.players[1 - me].apple > 0
    for k in range(ARENAS):
        mine, theirs = _side_ap(view, me, k, plan, other), _side_ap(view, 1 - me, k, other, plan)
        lead_me = plan[0][k][0] if plan[0][k] else None
        lead_them = other[0][k][0] if other[0][k] else None
        winner = battle_winner(lead_me, lead_them, mine, theirs, apples[0], apples[1])  # "seat 0" is me
        if winner is None:
            continue
        sign = 1 if winner == 0 else -1
        lead = lead_me if sign > 0 else lead_them
        value = win_vp(lead) + view.table.battle_loss * SP_WORTH
        value += (BOSHAK_SP * SP_WORTH if lead == BOSHAK else 0)
        value += sum(reward_worth(view, c) for c in view.rewards[k])
        total += sign * value
    return total


def _cost(view: View, me: int, plan) -> float:
    stacks, weapons, _, boost = plan
    cards = [c for stack in stacks for c in stack]
    player = view.players[me]
    scarcity = 1.0 if player.food or player.dish == 1 else 2.0
    cost = sum(CARD_COST * scarcity + 0.02 * view.table.ap[c] for c in cards) + WEAPON_COST * sum(weapons)
    return cost + (0.3 if boost else 0.0)



