"""Zipang's plain data: the full state and a seat's view.

Seats 0..n-1 sit clockwise. Cards are type indexes (games.zipang.data); a hand is a sorted tuple. What a seat
knows of another seat's hand is kept in `known[observer * n + owner]`: cards it has seen there (a blocked
attack, a Shrine Maiden's look) and that are still there for certain. Every entry is true of the real hand.
A State is made by `games.zipang.work.freeze` from the working state that the rules play on (a sample from a
view: with the `acting` of the view's `actor`, by the same `seats_acting`).

Compiled (setup.py), the classes here are native; the state and the records in it are made by their own `__init__`:
docs/architecture.md, *Frozen states*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.zipang.data import MAX_PLAYERS
from games.zipang.moves import Play, React

# Phases of `State.phase`: whose decision it is (`acting`), and what it decides.
PLAY: Final = "play"  # the active seat plays a card from its hand
REACT: Final = "react"  # a seat an effect is aimed at answers it (Monk, coin block, or let it happen)
TAKE: Final = "take"  # the active seat, having looked at `victim`'s hand, takes a card from it (or none)
USE: Final = "use"  # the active seat uses a card from the discard pile (Kabuki) or the card it took (`limbo`)
OVER: Final = "over"


# One seat decides at a time; the tuples are made once, for every freeze to share (and games.zipang.work.to_act).
ALONE: Final = tuple((seat,) for seat in range(MAX_PLAYERS))


def seats_acting(actor: int | None) -> tuple[int, ...]:
    """`State.acting` when `actor` is the seat to decide (None: the game is over)."""
    return () if actor is None else ALONE[actor]


def deciding(acting: tuple[int, ...]) -> int | None:
    """The seat to decide in a state whose seats to act are `acting` (None: the game is over)."""
    return acting[0] if acting else None


@dataclass(init=False, unsafe_hash=True)
class Decision:
    """A seat's last play (or last answer) in the current battle, as the table saw it: every move is made in plain
    sight. What the move tells of the hand the seat held is the search's to read (games.zipang.evidence); these
    are the facts it reads it from."""

    move: Play | React
    strength: int  # the attack's strength the seat answered (0: not an attack, or a play)
    kept: int  # cards in the seat's hand right after the move
    held: int  # of those, how many are still there for certain: one fewer each time a card leaves the hand
    coins: tuple[int, ...]  # the table when the seat decided: every seat's coins, the coin area, ...
    pot: int
    hand_sizes: tuple[int, ...]
    discard: tuple[int, ...]
    in_battle: tuple[bool, ...]
    had_turn: tuple[bool, ...]
    known: tuple[tuple[int, ...], ...]  # per owner: what the seat knew then of that hand (a view keeps only the
    # viewer's own hand's entry: what a seat knew of a third hand is not the viewer's to know)

    def __init__(
        self, move: Play | React, strength: int, kept: int, held: int, coins: tuple[int, ...], pot: int,
        hand_sizes: tuple[int, ...], discard: tuple[int, ...], in_battle: tuple[bool, ...], had_turn: tuple[bool, ...],
        known: tuple[tuple[int, ...], ...],
    ) -> None:
        self.move = move
        self.strength = strength
        self.kept = kept
        self.held = held
        self.coins = coins
        self.pot = pot
        self.hand_sizes = hand_sizes
        self.discard = discard
        self.in_battle = in_battle
        self.had_turn = had_turn
        self.known = known


@dataclass(init=False, unsafe_hash=True)
class State:
    seed: int
    num_players: int
    btl: tuple[int, ...]  # per card type (games.zipang.data.card_table)
    hnr: tuple[int, ...]
    copies: tuple[int, ...]  # copies in play, after the removal for the player count
    coins: tuple[int, ...]  # per seat, always public
    pot: int  # the coin area in the center
    battle: int  # battles started so far (1 during the first)
    starter: int  # the seat that started the current battle
    winners: tuple[int | None, ...]  # per finished battle: who took the coin area (None: a tie for honour)
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # the draw pile, top first (hidden from everyone)
    facedown: tuple[int, ...]  # the face-down start of the discard pile (hidden from everyone)
    discard: tuple[int, ...]  # face-up discard pile, oldest first
    in_battle: tuple[bool, ...]
    had_turn: tuple[bool, ...]  # has had a turn in this battle (the coin block is only before one's first turn)
    active: int  # whose turn it is
    phase: str
    effect: int | None  # the card whose effect is being resolved
    ikki: bool  # ... as an Ikki
    strength: int  # the attack's BTL (0: not an attack)
    targets: tuple[int, ...]  # seats the effect still has to reach, in clockwise order from the active seat
    victim: int | None  # the seat whose hand the Shrine Maiden looked at (TAKE phase)
    offer: tuple[int, ...]  # card types the active seat may use now (USE phase)
    limbo: int | None  # the card taken by the Shrine Maiden, about to be used
    known: tuple[tuple[int, ...], ...]  # n * n: cards observer knows in owner's hand (sorted), see above
    plays: tuple[Decision | None, ...]  # per seat: its last play this battle (None: none yet)
    answers: tuple[Decision | None, ...]  # per seat: its last answer to an effect this battle
    acting: tuple[int, ...]  # the one seat that decides now (`seats_acting`); empty when the game is over

    def __init__(
        self, seed: int, num_players: int, btl: tuple[int, ...], hnr: tuple[int, ...], copies: tuple[int, ...],
        coins: tuple[int, ...], pot: int, battle: int, starter: int, winners: tuple[int | None, ...],
        hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...], facedown: tuple[int, ...], discard: tuple[int, ...],
        in_battle: tuple[bool, ...], had_turn: tuple[bool, ...], active: int, phase: str, effect: int | None,
        ikki: bool, strength: int, targets: tuple[int, ...], victim: int | None, offer: tuple[int, ...],
        limbo: int | None, known: tuple[tuple[int, ...], ...], plays: tuple[Decision | None, ...],
        answers: tuple[Decision | None, ...], acting: tuple[int, ...],
    ) -> None:
        self.seed = seed
        self.num_players = num_players
        self.btl = btl
        self.hnr = hnr
        self.copies = copies
        self.coins = coins
        self.pot = pot
        self.battle = battle
        self.starter = starter
        self.winners = winners
        self.hands = hands
        self.deck = deck
        self.facedown = facedown
        self.discard = discard
        self.in_battle = in_battle
        self.had_turn = had_turn
        self.active = active
        self.phase = phase
        self.effect = effect
        self.ikki = ikki
        self.strength = strength
        self.targets = targets
        self.victim = victim
        self.offer = offer
        self.limbo = limbo
        self.known = known
        self.plays = plays
        self.answers = answers
        self.acting = acting


@dataclass(frozen=True)
class View:
    """What one seat may know (seat None: a spectator)."""

    seat: int | None
    num_players: int
    btl: tuple[int, ...]
    hnr: tuple[int, ...]
    copies: tuple[int, ...]
    coins: tuple[int, ...]
    pot: int
    battle: int
    starter: int
    winners: tuple[int | None, ...]
    hand: tuple[int, ...]  # own hand; empty for a spectator
    hand_sizes: tuple[int, ...]
    deck_size: int
    facedown_size: int
    discard: tuple[int, ...]
    in_battle: tuple[bool, ...]
    had_turn: tuple[bool, ...]
    active: int
    phase: str
    actor: int | None
    effect: int | None
    ikki: bool
    strength: int
    targets: tuple[int, ...]
    victim: int | None
    offer: tuple[int, ...]
    limbo: int | None
    known: tuple[tuple[int, ...], ...]  # per owner: the cards this seat knows in that hand (own: empty)
    seen_by: tuple[tuple[int, ...], ...]  # per observer: what that seat knows of this seat's hand
    plays: tuple[Decision | None, ...]  # per seat, as State's (`known` kept only for this seat's hand)
    answers: tuple[Decision | None, ...]


__all__ = ["OVER", "PLAY", "REACT", "TAKE", "USE", "Decision", "State", "View", "deciding", "seats_acting"]
