"""Naishi's plain data: the full state, a seat's view, and what an observer knows about a hidden Hand."""

from __future__ import annotations

from dataclasses import dataclass

from games.naishi.data import HAND_MOUNTAINS, MOUNTAIN


@dataclass(frozen=True)
class HandKnowledge:
    """What an observer knows about a Hand it cannot see.

    `slots[i]` is the card known to be at position i (it came from the River, a switch or a decree in view),
    or None; `among` (sorted) are cards known to be somewhere in the None slots, position unknown: the
    Mountains dealt at setup and the card the observer gave. Every statement kept here is true of the real
    Hand, so dealing the unknown cards into the None slots around `among` gives a consistent state.
    """

    slots: tuple[int | None, ...] = ()
    among: tuple[int, ...] = ()


# Index into `knowledge`: who knows (seat or the public) about whose Hand. Entries 0 and 1 are seat 0's knowledge
# of Hand 1 and seat 1's of Hand 0 (`knowledge_index`).
PUBLIC_OF_HAND0, PUBLIC_OF_HAND1 = 2, 3


def knowledge_index(observer: int | None, owner: int) -> int:
    """Where `observer`'s knowledge of `owner`'s Hand is kept (observer != owner)."""
    return 2 + owner if observer is None else observer


@dataclass(frozen=True)
class State:
    seed: int
    first: int  # the seat holding the First Player card
    phase: str  # "gift" (the secret setup choice), "turn" or "over"
    acting: tuple[int, ...]  # the seats to act, ascending (games.naishi.rules.to_act; filled by `freeze` only)
    turn: int
    developed: bool  # the seat on turn has developed this turn
    court_used: bool  # the seat on turn has done its additional action this turn
    final_turn: int | None  # the seat that plays the last turn, once the end is triggered
    declared_by: int | None
    offers: tuple[tuple[int, ...], ...]  # the 2 development cards each seat got, until the gifts are revealed
    gifts: tuple[int | None, ...]  # the card each seat gives (None: not chosen yet)
    hands: tuple[tuple[int, ...], ...]  # empty during the gift phase
    lines: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[int, ...], ...]  # River piles, top card (face up) first
    discard: tuple[int, ...]
    court: tuple[int | None, ...]  # the seat whose Emissary is on each space (see moves.SPACES)
    knowledge: tuple[HandKnowledge, ...]  # 4 entries, see SEAT0_OF_HAND1...


@dataclass(frozen=True)
class View:
    seat: int | None
    phase: str
    first: int
    turn: int
    developed: bool
    court_used: bool
    final_turn: int | None
    declared_by: int | None
    offer: tuple[int, ...]  # own 2 development cards during the gift phase
    gifts_chosen: tuple[bool, ...]
    gift_given: int | None
    gift_received: int | None
    hand: tuple[int, ...]  # own Hand, in order
    revealed_hands: tuple[tuple[int, ...], ...]  # both Hands, once the game is over
    lines: tuple[tuple[int, ...], ...]
    river: tuple[int | None, ...]  # the face-up top card of each pile
    pile_sizes: tuple[int, ...]
    discard: tuple[int, ...]
    court: tuple[int | None, ...]
    knowledge: tuple[HandKnowledge | None, ...]  # the entries of State.knowledge this observer may know


def _remove_one(among: tuple[int, ...], card: int) -> tuple[int, ...]:
    if card not in among:
        return among
    i = among.index(card)
    return among[:i] + among[i + 1 :]


def initial_knowledge(gifts: tuple[int | None, ...]) -> tuple[HandKnowledge, ...]:
    """After the gifts: each Hand holds 3 Mountains, and its owner's opponent knows the card it gave."""
    unknown = (None,) * 5
    mountains = (MOUNTAIN,) * HAND_MOUNTAINS
    assert gifts[0] is not None and gifts[1] is not None
    return (
        HandKnowledge(unknown, tuple(sorted((*mountains, gifts[0])))),  # seat 0 gave gifts[0] to Hand 1
        HandKnowledge(unknown, tuple(sorted((*mountains, gifts[1])))),
        HandKnowledge(unknown, mountains),
        HandKnowledge(unknown, mountains),
    )


def revealed_replacement(k: HandKnowledge, pos: int, old: int, new: int) -> HandKnowledge:
    """The card at `pos` left the Hand face up (`old`) and `new` took its place in view of everyone."""
    among = k.among if k.slots[pos] is not None else _remove_one(k.among, old)
    return HandKnowledge(k.slots[:pos] + (new,) + k.slots[pos + 1 :], among)


def switched(k: HandKnowledge, a: int, b: int) -> HandKnowledge:
    """Two Hand cards switched places: what was known of each moves with it."""
    slots = list(k.slots)
    slots[a], slots[b] = slots[b], slots[a]
    return HandKnowledge(tuple(slots), k.among)


def _weakened(among: tuple[int, ...]) -> tuple[int, ...]:
    """An unseen card left the unknown slots: it may have been any one of `among`, so drop one of each type."""
    result: list[int] = []
    for card in sorted(set(among)):
        result.extend([card] * (among.count(card) - 1))
    return tuple(result)


def decreed_hands(knowledge: tuple[HandKnowledge, ...], pos: int, card0: int, card1: int) -> tuple[HandKnowledge, ...]:
    """Both Hands exchanged their cards at `pos`: each seat sees what it gets and knows what it gave."""
    k01, k10, p0, p1 = knowledge
    k01 = revealed_replacement(k01, pos, card1, card0)  # seat 0 got card1 from Hand 1 and put card0 there
    k10 = revealed_replacement(k10, pos, card0, card1)
    new_p0 = HandKnowledge(
        p0.slots[:pos] + (p1.slots[pos],) + p0.slots[pos + 1 :],
        p0.among if p0.slots[pos] is not None else _weakened(p0.among),
    )
    new_p1 = HandKnowledge(
        p1.slots[:pos] + (p0.slots[pos],) + p1.slots[pos + 1 :],
        p1.among if p1.slots[pos] is not None else _weakened(p1.among),
    )
    return (k01, k10, new_p0, new_p1)
