"""Naishi's plain data: the full state, a seat's view, and what an observer knows about a hidden Hand.

Compiled (setup.py), the classes here are native; the state and the records in it are made by their own `__init__`:
docs/architecture.md, *Frozen states*.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(init=False, unsafe_hash=True)
class HandKnowledge:
    """What an observer knows about a Hand it cannot see.

    `slots[i]` is the card known to be at position i (it came from the River, a switch or a decree in view),
    or None; `among` (sorted) are cards known to be somewhere in the None slots, position unknown: the
    Mountains dealt at setup and the card the observer gave. Every statement kept here is true of the real
    Hand, so dealing the unknown cards into the None slots around `among` gives a consistent state.
    """

    slots: tuple[int | None, ...] = ()
    among: tuple[int, ...] = ()

    def __init__(self, slots: tuple[int | None, ...] = (), among: tuple[int, ...] = ()) -> None:
        self.slots = slots
        self.among = among


# Index into `knowledge`: who knows (seat or the public) about whose Hand. Entries 0 and 1 are seat 0's knowledge
# of Hand 1 and seat 1's of Hand 0 (`knowledge_index`).
PUBLIC_OF_HAND0, PUBLIC_OF_HAND1 = 2, 3


@dataclass(init=False, unsafe_hash=True)
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

    def __init__(
        self, seed: int, first: int, phase: str, acting: tuple[int, ...], turn: int, developed: bool, court_used: bool,
        final_turn: int | None, declared_by: int | None, offers: tuple[tuple[int, ...], ...],
        gifts: tuple[int | None, ...], hands: tuple[tuple[int, ...], ...], lines: tuple[tuple[int, ...], ...],
        piles: tuple[tuple[int, ...], ...], discard: tuple[int, ...], court: tuple[int | None, ...],
        knowledge: tuple[HandKnowledge, ...],
    ) -> None:
        self.seed = seed
        self.first = first
        self.phase = phase
        self.acting = acting
        self.turn = turn
        self.developed = developed
        self.court_used = court_used
        self.final_turn = final_turn
        self.declared_by = declared_by
        self.offers = offers
        self.gifts = gifts
        self.hands = hands
        self.lines = lines
        self.piles = piles
        self.discard = discard
        self.court = court
        self.knowledge = knowledge


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
