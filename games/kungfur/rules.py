"""Setup, the planning phase and the dispatch of every move: legal moves and transitions.

Planning is a sequence of secret moves by each seat (both seats plan at once): lead an empty arena, add an
assistant under a leader, then (after the animals) put tokens, and finish. When both have finished, the screens
come down and `battle.run` resolves the arenas, stopping at each decision made in the open.
"""

from __future__ import annotations

from games.base import Move, chance, evolve
from games.kungfur import battle
from games.kungfur.data import (
    CATS,
    DOGS,
    FOOD,
    HIMIKO,
    HUA_TOKENS,
    MAX_PER_ARENA,
    REINFORCEMENTS,
    START_LIMIT,
    TUMAZ,
    WEAPONS,
    Table,
)
from games.kungfur.moves import (
    ASSISTS,
    COCONUT_TOKENS,
    DONE,
    LEADS,
    REINFORCE,
    WEAPON_TOKENS,
    Assist,
    Done,
    Lead,
    Reinforce,
    Token,
)
from games.kungfur.state import EMPTY_PLAN, OPEN, PLAN, Plan, Player, State

_ARENAS = (0, 1, 2)


def new_game(table: Table, cats: int, seed: int) -> State:
    deck = list(table.rewards)
    chance(seed, "deck").shuffle(deck)
    players = tuple(_new_player(table, CATS if seat == cats else DOGS) for seat in (0, 1))
    state = State(
        seed=seed, table=table, cats=cats, round=1, phase=PLAN, players=players, plans=(EMPTY_PLAN, EMPTY_PLAN),
        used=(0, 0), arena=0, stage=OPEN, rewards=((), (), ()), raifu=(None, None, None), hua=(None, None, None),
        songo=((), (), ()), results=(None, None, None), diff=0, todo=(), deck=tuple(deck), discard=(),
        buried=((), ()), offer=(), queue=(), winners=(), end="",
    )  # fmt: skip
    return battle.prepare(state)


def _new_player(table: Table, species: str) -> Player:
    cats = species == CATS
    return Player(
        species=species, hand=table.hands[0 if cats else 1], rest=(), sp=table.start_sp, vp=0, limit=START_LIMIT,
        food=FOOD, dish=0, weapons=WEAPONS if cats else 0, hua=0 if cats else HUA_TOKENS, coconuts=0, items=(),
        apple=0, sinking=0, ginseng=False, blocked=0,
    )  # fmt: skip


def card_limit(state: State, seat: int) -> int:
    """The card limit of `seat` in this round's planning."""
    player = state.players[seat]
    return player.limit + state.plans[seat].boost - (player.blocked == state.round)


def available(hand: tuple[int, ...], plan: Plan) -> list[int]:
    """The cards of `hand` not yet in `plan`."""
    cards = list(hand)
    for stack in plan.stacks:
        for card in stack:
            cards.remove(card)
    return cards


def placed(plan: Plan) -> int:
    """Cards of the plan that count toward the card limit (Himiko does not)."""
    return sum(1 for stack in plan.stacks for card in stack if card != HIMIKO)


def plan_moves(state: State, seat: int) -> list[Move]:
    plan = state.plans[seat]
    if plan.done:
        return []
    player = state.players[seat]
    stacks = plan.stacks
    moves: list[Move] = []
    weapons_left = player.weapons - sum(plan.weapons)
    coconuts_left = player.coconuts - sum(plan.coconuts)
    if not (any(plan.weapons) or any(plan.coconuts)):  # "Then" the tokens: no animal after the first token
        cards = sorted(set(available(player.hand, plan)))
        room = placed(plan) < card_limit(state, seat)
        for k in _ARENAS:
            stack = stacks[k]
            if not stack:
                leads = LEADS[k]
                moves.extend(leads[c] for c in cards if room or c == HIMIKO)
            elif len(stack) < MAX_PER_ARENA and stack[0] != TUMAZ:
                assists = ASSISTS[k]
                moves.extend(assists[c] for c in cards if c != TUMAZ and (room or c == HIMIKO))
        if not plan.boost and REINFORCEMENTS in player.items:
            moves.append(REINFORCE)
    if weapons_left or coconuts_left:
        for k in _ARENAS:
            if stacks[k]:
                if weapons_left:
                    moves.append(WEAPON_TOKENS[k])
                if coconuts_left:
                    moves.append(COCONUT_TOKENS[k])
    moves.append(DONE)
    return moves


def legal_moves(state: State, seat: int) -> list[Move]:
    if state.phase == PLAN:
        return plan_moves(state, seat)
    queue = state.queue
    if queue and queue[0][0] == seat:
        return battle.decision_moves(state, seat, queue[0][1])
    return []


def _with_plan(state: State, seat: int, plan: Plan) -> State:
    plans = (plan, state.plans[1]) if seat == 0 else (state.plans[0], plan)
    return evolve(state, plans=plans)


def transition(state: State, seat: int, move: Move) -> State:
    if state.phase != PLAN:
        return battle.decide(state, seat, move)
    plan = state.plans[seat]
    cls = type(move)
    if cls is Lead or cls is Assist:
        k = move.arena  # type: ignore[attr-defined]
        stacks = list(plan.stacks)
        stacks[k] = stacks[k] + (move.card,)  # type: ignore[attr-defined]
        return _with_plan(state, seat, evolve(plan, stacks=tuple(stacks)))
    if cls is Token:
        k = move.arena  # type: ignore[attr-defined]
        if move.kind == "weapon":  # type: ignore[attr-defined]
            weapons = list(plan.weapons)
            weapons[k] += 1
            return _with_plan(state, seat, evolve(plan, weapons=tuple(weapons)))
        coconuts = list(plan.coconuts)
        coconuts[k] += 1
        return _with_plan(state, seat, evolve(plan, coconuts=tuple(coconuts)))
    if cls is Reinforce:
        return _with_plan(state, seat, evolve(plan, boost=True))
    assert cls is Done
    state = _with_plan(state, seat, evolve(plan, done=True))
    if state.plans[1 - seat].done:
        return battle.run(battle.reveal(state))
    return state


def why_illegal(state: State, seat: int, move: Move) -> str:
    """A precise reason for the common planning mistakes."""
    if state.phase == PLAN and isinstance(move, Lead | Assist):
        plan = state.plans[seat]
        if move.card not in available(state.players[seat].hand, plan):
            return "that animal is not in your hand"
        if any(plan.weapons) or any(plan.coconuts):
            return "animals are placed before the tokens"
        if move.card != HIMIKO and placed(plan) >= card_limit(state, seat):
            return f"your card limit is {card_limit(state, seat)}"
        stack = plan.stacks[move.arena]
        if isinstance(move, Lead) and stack:
            return f"arena {move.arena + 1} already has your leader"
        if isinstance(move, Assist):
            if not stack:
                return f"arena {move.arena + 1} has no leader of yours yet"
            if len(stack) >= MAX_PER_ARENA:
                return f"at most {MAX_PER_ARENA} of your animals per arena"
            if TUMAZ in (stack[0], move.card):
                return "Tumaz must be played alone, as a leader"
    if state.phase == PLAN and isinstance(move, Token) and not state.plans[seat].stacks[move.arena]:
        return "tokens go only on an arena where you have an animal"
    name = getattr(move, "label", type(move).__name__)
    return f"{name} is not a legal move for seat {seat} now"
