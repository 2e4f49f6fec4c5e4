"""What a seat sees of a Hinode state, and determinizations consistent with it."""

from __future__ import annotations

import random
from dataclasses import replace

from games.deal import shuffle
from games.hinode.data import BATTLE_CARDS, HERO, PLAYERS
from games.hinode.state import State, View
from games.hinode.work import Work, freeze, thaw_view


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


def sample_work(v: View, rng: random.Random) -> Work:
    """Deal the cards `v` cannot see among the others' hands, the proxy piles and the removed pile, onto a working
    state made from the view (no frozen state made and thawed: a sample a search iteration)."""
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
    return thaw_view(v, hands, tuple(sorted(unseen)), rng.getrandbits(32))


def sample(v: View, rng: random.Random) -> State:
    """A full state consistent with `v`: `sample_work`'s, frozen."""
    return freeze(sample_work(v, rng))


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
    return replace(state, hands=tuple(hands), removed=tuple(sorted(hidden)), seed=rng.getrandbits(32))
