"""Kung Fur Fight's rules, written once (games.base.Rules): setup and the dispatch of every move, on the working state
of games.kungfur.work; the planning phase's rules are in games.kungfur.planning, the battle phase's in
games.kungfur.battle, the win checks', the regroup's and the preparation's in games.kungfur.regroup.

Both seats plan at once, in secret, one move at a time; when both have finished, the screens come down and
`battle.run` resolves the arenas, stopping at each decision made in the open.

The checked engine (games.base.Game) and the search (ai.ismcts) both run these functions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from games.base import Move
from games.deal import shuffle
from games.kungfur import battle, scoring
from games.kungfur.data import (
    CATS,
    DOGS,
    FOOD,
    HIMIKO,
    HUA_TOKENS,
    MAX_PER_ARENA,
    START_LIMIT,
    WEAPONS,
    Table,
)
from games.kungfur.moves import (
    Assist,
    Done,
    Lead,
    Reinforce,
    Token,
)
from games.kungfur.planning import LONER, arena_shape, card_limit, change_plan, copy_plan, derive, plan_moves
from games.kungfur.regroup import prepare
from games.kungfur.state import EMPTY_PLAN, OPEN, OVER, PLAN, Plan, Player, State
from games.kungfur.work import Side, Work
from games.values import chance


def new_game(table: Table, cats: int, seed: int) -> State:
    deck = list(table.rewards)
    shuffle(chance(seed, "deck"), deck)
    players = tuple(_new_player(table, CATS if seat == cats else DOGS) for seat in (0, 1))
    # Set out before the first preparation, and thawed at once: the game's first state is the one `freeze` makes.
    setup = State(
        seed=seed, table=table, cats=cats, round=1, phase=PLAN, players=players,
        plans=(EMPTY_PLAN, EMPTY_PLAN), used=(0, 0), arena=0, stage=OPEN, rewards=((), (), ()),
        raifu=(None, None, None), hua=(None, None, None), songo=((), (), ()),
        results=(None, None, None), diff=0, todo=(), deck=tuple(deck), discard=(),
        buried=((), ()), offer=(), queue=(), winners=(), end="", acting=(),
    )  # fmt: skip
    work = thaw(setup)
    materialize(work)
    prepare(work)
    return freeze(work)


def _new_player(table: Table, species: str) -> Player:
    cats = species == CATS
    return Player(
        species=species, hand=table.hands[0 if cats else 1], rest=(), sp=table.start_sp, vp=0,
        limit=START_LIMIT, food=FOOD, dish=0, weapons=WEAPONS if cats else 0,
        hua=0 if cats else HUA_TOKENS, coconuts=0, items=(), apple=0, sinking=0, ginseng=False,
        blocked=0,
    )  # fmt: skip


# --- thaw and freeze -----------------------------------------------------------------------------------------
def _thaw_side(player: Player, plan: Plan, planning: bool) -> Side:
    side = Side()
    side.done = plan.done
    if planning:
        # The rest is copied in when first read (games.kungfur.planning.derive).
        side.player = player
        side.plan = plan
        side.derived = False
        return side
    side.player = side.plan = None
    copy_plan(side, player, plan)
    side.derived = True  # nothing to derive after the planning phase
    side.avail = []
    side.room = side.tokens = 0
    side.shapes = [0, 0, 0]
    _thaw_board(side, player)
    return side


def _thaw_board(side: Side, player: Player) -> None:
    """The rest of a seat's board, which only the battle and the regroup read and change."""
    side.species = player.species
    side.rest = player.rest
    side.sp = player.sp
    side.food = player.food
    side.dish = player.dish
    side.hua = player.hua
    side.apple = player.apple
    side.sinking = player.sinking
    side.ginseng = player.ginseng


def _thaw_table(work: Work, state: State) -> None:
    """The rest of the state, which only the battle and the regroup read and change."""
    work.seed = state.seed
    work.table = state.table
    work.cats = state.cats
    work.used = state.used
    work.arena = state.arena
    work.stage = state.stage
    work.raifu = state.raifu
    work.hua = state.hua
    work.songo = state.songo
    work.results = list(state.results)
    work.diff = state.diff
    work.todo = list(state.todo)
    work.deck = state.deck
    work.discard = state.discard
    work.buried = state.buried
    work.offer = state.offer
    work.end = state.end


def thaw(state: State) -> Work:
    """A working copy of `state`, which stays unchanged.

    A planning state is thawed in part, the state kept (`Work.origin`): a side is filled in when first read
    (games.kungfur.planning.derive), the rest when the screens come down (`materialize`). The checked engine thaws
    a state twice per move, mostly planning states, for one seat's move: this saves it most of the copying."""
    work = Work()
    work.draws = None
    work.round = state.round
    work.phase = phase = state.phase
    work.ap = state.table.ap
    work.rewards = state.rewards
    work.queue = list(state.queue)
    work.winners = state.winners
    planning = phase == PLAN
    players, plans = state.players, state.plans
    work.sides = [
        _thaw_side(players[0], plans[0], planning), _thaw_side(players[1], plans[1], planning),
    ]
    if planning:
        work.origin = state
    else:
        work.origin = None
        _thaw_table(work, state)
    return work


def draw_chance(work: Work, rng: random.Random) -> None:
    """From now on `work` draws the chance still to come from `rng`, not from its seed (`games.base.Rules` says
    why: the search calls it on its determinizations, the engine never)."""
    work.draws = rng


def materialize(work: Work) -> None:
    """Copy in what a planning thaw left in its state (the battle phase reads and changes all of it); from here on,
    `freeze` builds the whole state."""
    origin = work.origin
    if origin is not None:
        _thaw_table(work, origin)
        for side, player in zip(work.sides, origin.players, strict=True):
            if not side.derived:
                derive(work, side)
            _thaw_board(side, player)
            side.player = None  # the battle changes the board
        work.origin = None


# --- the rules' interface (games.base.Rules) ---------------------------------------------------------------
_NOBODY: Final[tuple[int, ...]] = ()
_BOTH: Final[tuple[int, ...]] = (0, 1)
_ONE: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))


def to_act(work: Work) -> tuple[int, ...]:
    """The seats that must decide now: both while neither has finished its plan, then the open decisions one at a
    time (State.queue); nobody once the game is over."""
    phase = work.phase
    if phase == PLAN:
        sides = work.sides
        done0, done1 = sides[0].done, sides[1].done
        return _NOBODY if done0 and done1 else _ONE[1] if done0 else _ONE[0] if done1 else _BOTH
    queue = work.queue
    if phase == OVER or not queue:
        return _NOBODY
    return _ONE[queue[0][0]]


def _freeze_player(side: Side) -> Player:
    return Player(
        species=side.species, hand=side.hand, rest=side.rest, sp=side.sp, vp=side.vp,
        limit=side.limit, food=side.food, dish=side.dish, weapons=side.weapons, hua=side.hua,
        coconuts=side.coconuts, items=side.items, apple=side.apple, sinking=side.sinking,
        ginseng=side.ginseng, blocked=side.blocked,
    )  # fmt: skip


def _freeze_plan(side: Side) -> Plan:
    stacks = side.stacks
    return Plan(
        stacks=(tuple(stacks[0]), tuple(stacks[1]), tuple(stacks[2])), weapons=tuple(side.pw),
        coconuts=tuple(side.pc), boost=side.boost, done=side.done,
    )  # fmt: skip


def freeze(work: Work) -> State:
    """The frozen state of `work`, with the seats to act; `work` may be played on after."""
    sides = work.sides
    side0, side1 = sides
    origin = work.origin
    if origin is not None:
        # Only the plans have changed since the thaw. Every field named, not `dataclasses.replace` (an interpreted
        # function: 8.9 us a call, compiled, more than a whole compiled checked move).
        plan0, plan1 = side0.plan, side1.plan
        plans = (plan0 or _freeze_plan(side0), plan1 or _freeze_plan(side1))
        o = origin
        return State(
            seed=o.seed, table=o.table, cats=o.cats, round=o.round, phase=o.phase, players=o.players, plans=plans,
            used=o.used, arena=o.arena, stage=o.stage, rewards=o.rewards, raifu=o.raifu, hua=o.hua, songo=o.songo,
            results=o.results, diff=o.diff, todo=o.todo, deck=o.deck, discard=o.discard, buried=o.buried,
            offer=o.offer, queue=o.queue, winners=o.winners, end=o.end, acting=to_act(work),
        )
    return State(
        seed=work.seed, table=work.table, cats=work.cats, round=work.round, phase=work.phase,
        players=(_freeze_player(side0), _freeze_player(side1)),
        plans=(_freeze_plan(side0), _freeze_plan(side1)), used=work.used, arena=work.arena,
        stage=work.stage, rewards=work.rewards, raifu=work.raifu, hua=work.hua, songo=work.songo,
        results=tuple(work.results), diff=work.diff, todo=tuple(work.todo), deck=work.deck,
        discard=work.discard, buried=work.buried, offer=work.offer, queue=tuple(work.queue),
        winners=work.winners, end=work.end,
        acting=to_act(work),
    )  # fmt: skip


def legal_moves(work: Work, seat: int) -> Sequence[Move]:
    """The moves `seat` may make now, in a stable order (empty if it is not to act)."""
    if work.phase == PLAN:
        return plan_moves(work, seat)
    queue = work.queue
    if queue and queue[0][0] == seat:
        return battle.decision_moves(work, seat, queue[0][1])
    return []


def play(work: Work, seat: int, move: Move) -> None:
    """Make `seat`'s legal `move` in place; the last plan finished brings the screens down and runs the battle."""
    if work.phase != PLAN:
        battle.apply_decision(work, seat, move)
        battle.run(work)
        return
    side = work.sides[seat]
    if side.plan is not None or not side.derived:  # else its change is noted already
        change_plan(work, side)
    # type() is, not isinstance: 3.11 runs it faster, and mypy narrows by it alike (moves are final classes).
    if type(move) is Lead or type(move) is Assist:
        card, k = move.card, move.arena
        stack = side.stacks[k]
        stack.append(card)
        side.shapes[k] = arena_shape(stack)
        side.avail.remove(card)
        if card != HIMIKO:  # Himiko does not count toward the card limit
            side.room -= 1
    elif type(move) is Done:
        side.done = True
        if work.sides[1 - seat].done:
            materialize(work)
            battle.reveal(work)
            battle.run(work)
    elif type(move) is Token:
        if move.kind == "weapon":
            side.pw[move.arena] = side.pw[move.arena] + 1
        else:
            side.pc[move.arena] = side.pc[move.arena] + 1
        side.tokens += 1
    else:
        assert type(move) is Reinforce
        side.boost = True
        side.room += 1


def finish_hidden_plan(work: Work, seat: int) -> None:
    """Mark `seat`'s plan finished without playing `done` (which would bring the screens down if the other seat
    had finished too): a plan drawn for a seat whose plan a view hides, as the view says it is finished."""
    side = work.sides[seat]
    change_plan(work, side)
    side.done = True


def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
    """Each seat's VP and the seats ranked first (as games.kungfur.scoring ranks them)."""
    side0, side1 = work.sides
    if not side0.derived:
        derive(work, side0)
    if not side1.derived:
        derive(work, side1)
    vp0, vp1 = side0.vp, side1.vp
    return [vp0, vp1], scoring.ranked_first(vp0, vp1, work.phase == OVER, work.winners)


def why_illegal(state: State, seat: int, move: Move) -> str | None:
    """A precise reason for the common planning mistakes (None: no more precise than "not a legal move")."""
    if state.phase != PLAN:
        return None
    work = thaw(state)
    side = work.sides[seat]
    if not side.derived:
        derive(work, side)
    if isinstance(move, Lead | Assist):
        if move.card not in side.avail:
            return "that animal is not in your hand"
        if side.tokens:
            return "animals are placed before the tokens"
        if move.card != HIMIKO and side.room <= 0:
            return f"your card limit is {card_limit(side.limit, side.boost, side.blocked, work.round)}"
        stack = side.stacks[move.arena]
        if isinstance(move, Lead) and stack:
            return f"arena {move.arena + 1} already has your leader"
        if isinstance(move, Assist):
            if not stack:
                return f"arena {move.arena + 1} has no leader of yours yet"
            if len(stack) >= MAX_PER_ARENA:
                return f"at most {MAX_PER_ARENA} of your animals per arena"
            if LONER in (stack[0], move.card):
                return "Tumaz must be played alone, as a leader"
    if isinstance(move, Token) and not side.stacks[move.arena]:
        return "tokens go only on an arena where you have an animal"
    return None
