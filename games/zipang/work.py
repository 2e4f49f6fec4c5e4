"""Zipang's working state: the one mutable copy of a state that the rules (games.zipang.rules) play on in place.

The checked engine thaws a frozen State, plays one move and freezes it back; the search thaws a determinization
once and plays a whole playout on it. Per-seat values that moves change one at a time (coins, hands, turns had,
knowledge) are lists; the rest are ints and tuples, replaced whole. `in_battle` stays a tuple because the
legal-move tables are looked up by it (games.zipang.legal). Plain typed attributes only, so that a compiler for
typed Python can build the class.
"""

from __future__ import annotations

import random
from typing import Final

from games.zipang.state import ALONE, Decision, State, deciding

_ALONE: Final = ALONE  # a C static of the compiled module, where the state module's global is a dict lookup


class Work:
    """Every part of a Zipang state (State's fields, same meanings), `n` for `num_players` and `actor` for the
    one seat in `acting` (None when the game is over)."""

    __slots__ = (
        "seed", "n", "btl", "hnr", "copies", "coins", "pot", "battle", "starter", "winners", "hands", "deck",
        "facedown", "discard", "in_battle", "had_turn", "active", "phase", "actor", "effect", "ikki", "strength",
        "targets", "victim", "offer", "limbo", "known", "plays", "answers", "draws",
    )

    seed: int
    n: int
    btl: tuple[int, ...]
    hnr: tuple[int, ...]
    copies: tuple[int, ...]
    coins: list[int]
    pot: int
    battle: int
    starter: int
    winners: tuple[int | None, ...]
    hands: list[tuple[int, ...]]
    deck: tuple[int, ...]
    facedown: tuple[int, ...]
    discard: tuple[int, ...]
    in_battle: tuple[bool, ...]
    had_turn: list[bool]
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
    known: list[tuple[int, ...]]
    plays: list[Decision | None]
    answers: list[Decision | None]
    draws: random.Random | None  # where the chance to come is drawn from: None, the seed (rules.draw_chance); a
    # search's determinization (set) keeps no record of the seats' decisions (`plays`, `answers`): no view is made of it

    def __init__(
        self,
        seed: int,
        n: int,
        btl: tuple[int, ...],
        hnr: tuple[int, ...],
        copies: tuple[int, ...],
        coins: list[int],
        pot: int,
        battle: int,
        starter: int,
        winners: tuple[int | None, ...],
        hands: list[tuple[int, ...]],
        deck: tuple[int, ...],
        facedown: tuple[int, ...],
        discard: tuple[int, ...],
        in_battle: tuple[bool, ...],
        had_turn: list[bool],
        active: int,
        phase: str,
        actor: int | None,
        effect: int | None,
        ikki: bool,
        strength: int,
        targets: tuple[int, ...],
        victim: int | None,
        offer: tuple[int, ...],
        limbo: int | None,
        known: list[tuple[int, ...]],
        plays: list[Decision | None],
        answers: list[Decision | None],
    ) -> None:
        self.seed = seed
        self.n = n
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
        self.actor = actor
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
        self.draws = None


def thaw(state: State) -> Work:
    """A working copy of `state` (its lists are new; the tuples it shares are immutable)."""
    return Work(
        state.seed,
        state.num_players,
        state.btl,
        state.hnr,
        state.copies,
        list(state.coins),
        state.pot,
        state.battle,
        state.starter,
        state.winners,
        list(state.hands),
        state.deck,
        state.facedown,
        state.discard,
        state.in_battle,
        list(state.had_turn),
        state.active,
        state.phase,
        deciding(state.acting),
        state.effect,
        state.ikki,
        state.strength,
        state.targets,
        state.victim,
        state.offer,
        state.limbo,
        list(state.known),
        list(state.plays),
        list(state.answers),
    )


def freeze(work: Work) -> State:
    """The frozen state of `work`, which may be played on after."""
    return State(
        seed=work.seed,
        num_players=work.n,
        btl=work.btl,
        hnr=work.hnr,
        copies=work.copies,
        coins=tuple(work.coins),
        pot=work.pot,
        battle=work.battle,
        starter=work.starter,
        winners=work.winners,
        hands=tuple(work.hands),
        deck=work.deck,
        facedown=work.facedown,
        discard=work.discard,
        in_battle=work.in_battle,
        had_turn=tuple(work.had_turn),
        active=work.active,
        phase=work.phase,
        effect=work.effect,
        ikki=work.ikki,
        strength=work.strength,
        targets=work.targets,
        victim=work.victim,
        offer=work.offer,
        limbo=work.limbo,
        known=tuple(work.known),
        plays=tuple(work.plays),
        answers=tuple(work.answers),
        acting=to_act(work),
    )


def to_act(work: Work) -> tuple[int, ...]:
    """The one seat that decides now, or none once the game is over (games.zipang.state.seats_acting, spelt out:
    the search asks at every step)."""
    actor = work.actor
    return () if actor is None else _ALONE[actor]
