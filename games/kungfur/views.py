"""What each observer sees (`view`) and the determinizations built from it (`sample`)."""

from __future__ import annotations

import random

from games.deal import shuffle
from games.kungfur.moves import DONE
from games.kungfur.policy import choose
from games.kungfur.rules import finish_hidden_plan, freeze, play, thaw
from games.kungfur.state import BANANA, EMPTY_PLAN, PLAN, Plan, State, View
from games.kungfur.work import Work

_HIDDEN = (None, None)


def _chooser(state_or_view) -> int | None:
    queue = state_or_view.queue
    return queue[0][0] if queue and queue[0][1] == BANANA else None


def view(state: State, seat: int | None) -> View:
    planning = state.phase == PLAN
    plans: tuple[Plan | None, ...]
    if planning:
        plans = (state.plans[0], None) if seat == 0 else (None, state.plans[1]) if seat == 1 else _HIDDEN
    else:
        plans = state.plans
    chooser = _chooser(state)
    unseen = list(state.deck)
    for s in (0, 1):
        if s != seat:
            unseen += state.buried[s]
    if chooser is not None and chooser != seat:
        unseen += state.offer
    return View(
        seat=seat,
        table=state.table,
        cats=state.cats,
        round=state.round,
        phase=state.phase,
        players=state.players,
        plans=plans,
        done=(state.plans[0].done, state.plans[1].done),
        used=state.used,
        arena=state.arena,
        stage=state.stage,
        rewards=state.rewards,
        raifu=state.raifu,
        hua=state.hua,
        songo=state.songo,
        results=state.results,
        diff=state.diff,
        todo=state.todo,
        deck_size=len(state.deck),
        discard=state.discard,
        buried=state.buried[seat] if seat is not None else (),
        buried_sizes=(len(state.buried[0]), len(state.buried[1])),
        offer=state.offer if chooser is not None and chooser == seat else (),
        offer_size=len(state.offer),
        unseen=tuple(sorted(unseen)),
        queue=state.queue,
        winners=state.winners,
        end=state.end,
    )


def sample(v: View, rng: random.Random) -> State:
    """A full state consistent with `v`: the unseen reward cards dealt at random into the deck, the other seats'
    face-down cards and a Banana draw, and a random plan (finished or not, as the view says) for each seat whose
    plan is hidden."""
    return freeze(sample_work(v, rng))


def sample_work(v: View, rng: random.Random) -> Work:
    """`sample(v, rng)` as the working state it is made on (the search plays on it: no freeze, and no thaw)."""
    pool = list(v.unseen)
    shuffle(rng, pool)
    chooser = _chooser(v)
    offer = v.offer
    if chooser is not None and chooser != v.seat:
        offer, pool = tuple(sorted(pool[: v.offer_size])), pool[v.offer_size :]
    buried = []
    for s in (0, 1):
        if s == v.seat:
            buried.append(v.buried)
        else:
            buried.append(tuple(sorted(pool[: v.buried_sizes[s]])))
            pool = pool[v.buried_sizes[s] :]
    assert len(pool) == v.deck_size
    # Set out from the view, then thawed: the state returned is the one `freeze` makes, with the seats to act.
    drawn = State(
        seed=rng.getrandbits(32), table=v.table, cats=v.cats, round=v.round, phase=v.phase,
        players=v.players, plans=tuple(p if p is not None else EMPTY_PLAN for p in v.plans), used=v.used,
        arena=v.arena, stage=v.stage, rewards=v.rewards, raifu=v.raifu, hua=v.hua, songo=v.songo,
        results=v.results, diff=v.diff, todo=v.todo, deck=tuple(pool), discard=v.discard,
        buried=tuple(buried), offer=offer, queue=v.queue, winners=v.winners, end=v.end, acting=(),
    )  # fmt: skip
    work = thaw(drawn)
    for s in (0, 1):
        if v.plans[s] is None:
            _policy_plan(work, s, v.done[s], rng)
    return work


def _policy_plan(work: Work, seat: int, finished: bool, rng: random.Random) -> None:
    """A plan for `seat` that the viewer cannot see, made as the search's playout policy makes plans
    (games/kungfur/policy.py): whole if the seat is `finished`, else its first few moves (0 to 5; the search goes on
    from there, ai.ismcts). A seat's search thus meets the same kind of opponent whether that opponent finished
    its plan before it or plans at the same time; drawn uniformly at random, a finished plan was a much weaker
    opponent than one the search completed by the policy, and the seat planning second was misled by it."""
    steps = None if finished else rng.randrange(6)
    random_ = rng.random
    while steps is None or steps > 0:
        move = choose(work, seat, None, random_)  # the policy lists the moves where it needs them
        if move is DONE:
            break
        play(work, seat, move)
        if steps is not None:
            steps -= 1
    if finished:
        finish_hidden_plan(work, seat)
