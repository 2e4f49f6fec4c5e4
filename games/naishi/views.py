"""What each observer sees (`view`) and the determinizations built from it (`sample`)."""

from __future__ import annotations

import random
from dataclasses import replace

from games.deal import shuffle
from games.naishi.data import COPIES, HAND_MOUNTAINS, MOUNTAIN
from games.naishi.knowledge import knowledge_index
from games.naishi.rules import seats_to_act
from games.naishi.state import PUBLIC_OF_HAND0, PUBLIC_OF_HAND1, HandKnowledge, State, View


def view(state: State, seat: int | None) -> View:
    gift_phase = state.phase == "gift"
    if seat is None:
        knowledge: tuple[HandKnowledge | None, ...] = (
            None,
            None,
            state.knowledge[PUBLIC_OF_HAND0],
            state.knowledge[PUBLIC_OF_HAND1],
        )
    else:
        # A seat can work out what its opponent knows of its own Hand (the gift it received, public events,
        # the decree it saw), so it sees every entry.
        knowledge = state.knowledge
    return View(
        seat=seat,
        phase=state.phase,
        first=state.first,
        turn=state.turn,
        developed=state.developed,
        court_used=state.court_used,
        final_turn=state.final_turn,
        declared_by=state.declared_by,
        offer=state.offers[seat] if seat is not None and gift_phase else (),
        gifts_chosen=tuple(not gift_phase or g is not None for g in state.gifts),
        gift_given=state.gifts[seat] if seat is not None else None,
        gift_received=state.gifts[1 - seat] if seat is not None and not gift_phase else None,
        hand=state.hands[seat] if seat is not None else (),
        revealed_hands=state.hands if state.phase == "over" else (),
        lines=state.lines,
        river=tuple(pile[0] if pile else None for pile in state.piles),
        pile_sizes=tuple(len(pile) for pile in state.piles),
        discard=state.discard,
        court=state.court,
        knowledge=knowledge,
    )


def _take(counts: list[int], cards) -> None:
    for card in cards:
        if card is not None:
            counts[card] -= 1


def sample(v: View, rng: random.Random) -> State:
    """A full state consistent with `v`: the unseen cards dealt into hidden Hand slots and pile depths."""
    counts = list(COPIES)
    for line in v.lines:
        _take(counts, line)
    _take(counts, v.river)
    _take(counts, v.discard)
    depths = [max(size - 1, 0) for size in v.pile_sizes]
    if v.phase == "gift":
        counts[MOUNTAIN] -= 2 * HAND_MOUNTAINS  # still beside the board, to be added to the Hands
        _take(counts, v.offer)
        pool = _expand(counts)
        shuffle(rng, pool)
        offers = [v.offer if s == v.seat else (pool.pop(), pool.pop()) for s in (0, 1)]
        offered_gifts = [
            (v.gift_given if s == v.seat else rng.choice(offers[s])) if v.gifts_chosen[s] else None for s in (0, 1)
        ]
        piles = _fill_piles(v, depths, pool)
        blank = (HandKnowledge(),) * 4  # nobody knows anything of the Hands before they exist
        return _state(v, rng, tuple(tuple(o) for o in offers), tuple(offered_gifts), ((), ()), piles, blank)

    hands: list[list[int | None]] = [[], []]
    hidden: list[tuple[int, int]] = []  # free (owner, position) slots to deal unknown cards into
    for owner in (0, 1):
        if v.revealed_hands:
            hands[owner] = list(v.revealed_hands[owner])
            _take(counts, hands[owner])
        elif owner == v.seat:
            hands[owner] = list(v.hand)
            _take(counts, v.hand)
        else:
            known = v.knowledge[knowledge_index(v.seat, owner)]
            assert known is not None
            hands[owner] = list(known.slots)
            _take(counts, known.slots)
            _take(counts, known.among)
            unknown = [p for p, card in enumerate(known.slots) if card is None]
            shuffle(rng, unknown)
            for card, p in zip(known.among, unknown, strict=False):
                hands[owner][p] = card
            hidden += [(owner, p) for p in unknown[len(known.among) :]]
    pool = _expand(counts)
    # Mountains never enter the River: the unseen ones are in Hands.
    mountains = [card for card in pool if card == MOUNTAIN]
    others = [card for card in pool if card != MOUNTAIN]
    assert len(mountains) <= len(hidden), "unseen Mountains can only be in Hands"
    shuffle(rng, others)
    shuffle(rng, hidden)
    for (owner, p), card in zip(hidden, mountains + others, strict=False):
        hands[owner][p] = card
    rest = others[len(hidden) - len(mountains) :]
    assert len(rest) == sum(depths), "the unseen cards must fill the hidden slots exactly"
    piles = _fill_piles(v, depths, rest)
    if v.seat is None:
        # A spectator cannot know what the seats know; the public knowledge is true of this state too.
        knowledge: tuple[HandKnowledge | None, ...] = (
            v.knowledge[PUBLIC_OF_HAND1],
            v.knowledge[PUBLIC_OF_HAND0],
            v.knowledge[PUBLIC_OF_HAND0],
            v.knowledge[PUBLIC_OF_HAND1],
        )
        gifts: tuple[int | None, ...] = (None, None)  # unknown to a spectator, and never used again
    else:
        knowledge = v.knowledge
        gifts = (v.gift_given, v.gift_received) if v.seat == 0 else (v.gift_received, v.gift_given)
    final_hands = tuple(tuple(card for card in hand if card is not None) for hand in hands)
    return _state(v, rng, ((), ()), gifts, final_hands, piles, knowledge)


def _expand(counts: list[int]) -> list[int]:
    assert min(counts) >= 0, f"more cards seen than exist: {counts}"
    return [card for card, n in enumerate(counts) for _ in range(n)]


def _fill_piles(v: View, depths: list[int], cards: list[int]) -> tuple[tuple[int, ...], ...]:
    piles: list[tuple[int, ...]] = []
    it = iter(cards)
    for top, depth in zip(v.river, depths, strict=True):
        if top is None:
            piles.append(())
        else:
            piles.append((top, *(next(it) for _ in range(depth))))
    return tuple(piles)


def _state(v: View, rng, offers, gifts, hands, piles, knowledge) -> State:
    assert all(k is not None for k in knowledge)
    return State(
        seed=rng.getrandbits(32),
        first=v.first,
        phase=v.phase,
        acting=seats_to_act(v.phase, v.turn, gifts),
        turn=v.turn,
        developed=v.developed,
        court_used=v.court_used,
        final_turn=v.final_turn,
        declared_by=v.declared_by,
        offers=offers,
        gifts=gifts,
        hands=hands,
        lines=v.lines,
        piles=piles,
        discard=v.discard,
        court=v.court,
        knowledge=knowledge,
    )


def unknown_reshuffled(state: State, rng: random.Random) -> State:
    """`state` with what no seat knows drawn anew (the River piles below their top cards, and the seed of the chance
    still to come): the arena's cheating baseline searches these (its descriptor's `clairvoyance`)."""
    piles = state.piles
    hidden = [card for pile in piles for card in pile[1:]]
    shuffle(rng, hidden)
    dealt = []
    for pile in piles:
        below = len(pile) - 1 if pile else 0
        dealt.append(pile[:1] + tuple(hidden[:below]))
        hidden = hidden[below:]
    return replace(state, piles=tuple(dealt), seed=rng.getrandbits(32))
