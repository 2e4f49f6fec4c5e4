"""What a seat sees of a Hinode state, and determinizations consistent with it."""

from __future__ import annotations

import random

from games.deal import shuffle
from games.hinode.data import BATTLE_CARDS, HERO, PLAYERS
from games.hinode.state import State, View
from games.hinode.work import Work, acting, thaw_view
from games.values import evolve, frozen


def view(state: State, seat: int | None) -> View:
    """Own hand plus the public table; never the others' hands, the proxy piles, the removed cards or the seed."""
    return View(
        seat,
        state.num_players,
        state.advanced,
        state.vp,
        state.layout,
        state.cubes,
        state.tribes,
        state.hands[seat] if seat is not None else (),
        tuple(len(h) for h in state.hands),
        state.heroes,
        state.resources,
        state.first,
        state.second,
        state.skill_markers,
        state.trick,
        state.phase,
        state.actor,
        state.start,
        state.battlefield,
        state.colour,
        state.plays,
        state.history,
        state.hero_last,
        state.ranking,
        state.next_start,
    )


# The last view's unseen cards: a search samples one view thousands of times. One tuple, replaced whole, so that
# threads sampling other views never read one view's cards beside another's (it holds the view: no id is reused).
_last_unseen: tuple[View | None, tuple[int, ...]] = (None, ())


def _unseen(v: View) -> tuple[int, ...]:
    """The battle cards `v` has not seen (not in its hand, not played), in order."""
    global _last_unseen
    last = _last_unseen
    if last[0] is v:
        return last[1]
    seen = set(v.hand)
    seen.update(p.move.card for p in v.history if p.move.card != HERO)
    unseen = tuple(c for c in range(BATTLE_CARDS) if c not in seen)
    _last_unseen = (v, unseen)
    return unseen


def _deal(v: View, rng: random.Random) -> tuple[list[tuple[int, ...]], list[int]]:
    """Every position's hand with the cards `v` cannot see dealt from `rng` (its own as it is), and the cards left
    over: the removed pile."""
    unseen = list(_unseen(v))
    shuffle(rng, unseen)
    hands: list[tuple[int, ...]] = []
    for p in range(PLAYERS):
        if p == v.seat:
            hands.append(v.hand)
            continue
        size = v.hand_sizes[p]
        dealt, unseen = unseen[:size], unseen[size:]
        hands.append(tuple(sorted(dealt)) if p < v.num_players else tuple(dealt))
    return hands, unseen


def sample_work(v: View, rng: random.Random) -> Work:
    """`thaw(sample(v, rng))` from the same draws, made without the frozen state (a sample a search iteration)."""
    hands, unseen = _deal(v, rng)
    return thaw_view(v, hands, tuple(sorted(unseen)), rng.getrandbits(32))


def sample(v: View, rng: random.Random) -> State:
    """Deal the cards `v` cannot see among the others' hands, the proxy piles and the removed pile."""
    hands, unseen = _deal(v, rng)
    return frozen(State, {  # not State's frozen __init__: an interpreted call, a sample a search iteration
        "seed": rng.getrandbits(32),
        "num_players": v.num_players,
        "advanced": v.advanced,
        "vp": v.vp,
        "layout": v.layout,
        "cubes": v.cubes,
        "tribes": v.tribes,
        "hands": tuple(hands),
        "removed": tuple(sorted(unseen)),
        "heroes": v.heroes,
        "resources": v.resources,
        "first": v.first,
        "second": v.second,
        "skill_markers": v.skill_markers,
        "trick": v.trick,
        "phase": v.phase,
        "actor": v.actor,
        "start": v.start,
        "battlefield": v.battlefield,
        "colour": v.colour,
        "plays": v.plays,
        "history": v.history,
        "hero_last": v.hero_last,
        "ranking": v.ranking,
        "next_start": v.next_start,
        "acting": acting(v.actor),
    })


def unknown_reshuffled(state: State, rng: random.Random) -> State:
    """`state` with what no seat knows drawn anew (the proxies' piles and the removed cards, and the seed of the
    chance still to come): the arena's cheating baseline searches these (its descriptor's `clairvoyance`)."""
    n = state.num_players
    hidden = [card for pile in state.hands[n:] for card in pile] + list(state.removed)
    shuffle(rng, hidden)
    hands = list(state.hands)
    for proxy in range(n, len(hands)):
        size = len(hands[proxy])
        hands[proxy], hidden = tuple(hidden[:size]), hidden[size:]
    return evolve(state, hands=tuple(hands), removed=tuple(sorted(hidden)), seed=rng.getrandbits(32))
