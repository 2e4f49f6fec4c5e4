"""A tiny hidden-information game used to test the engine contract, the service and the AI generically.

Secret Duel: 2-3 seats, a deck of cards 1..9; each seat is dealt 3 hidden cards. Each of 3 rounds, every seat
secretly commits one card at the same time; when all are in they are revealed and the highest unique card
scores its value. Most points wins; ties are broken by the lower seat number never: a tie stays a tie.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.base import Game, GameInfo, Move, OptionSpec, Score, SeatScore, chance
from games.registry import GameDescriptor

ROUNDS = 3


@dataclass(frozen=True)
class Commit(Move):
    card: int

    @property
    def id(self) -> str:
        return f"card:{self.card}"

    @property
    def label(self) -> str:
        return f"Commit {self.card}"


@dataclass(frozen=True)
class State:
    seed: int
    hands: tuple[tuple[int, ...], ...]
    committed: tuple[int | None, ...]
    revealed: tuple[tuple[int, ...], ...]  # one tuple of cards per finished round
    points: tuple[int, ...]
    double: bool


@dataclass(frozen=True)
class View:
    seat: int | None
    hand: tuple[int, ...]  # own hand, empty for spectators
    hand_sizes: tuple[int, ...]
    committed: tuple[bool, ...]  # who has committed this round
    own_commit: int | None
    revealed: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    double: bool


class SecretDuel(Game[State, View]):
    info = GameInfo(
        name="toy",
        title="Secret Duel",
        min_seats=2,
        max_seats=3,
        options=(OptionSpec("double", "bool", False, "the last round scores double"),),
    )
    state_type = State
    view_type = View
    move_types = (Commit,)

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        opts = self.resolve_setup(num_seats, options)
        deck = list(range(1, 10))
        chance(seed, "deal").shuffle(deck)
        hands = tuple(tuple(sorted(deck[i * 3 : i * 3 + 3])) for i in range(num_seats))
        return State(seed, hands, (None,) * num_seats, (), (0,) * num_seats, opts["double"])

    def num_seats(self, state: State) -> int:
        return len(state.hands)

    def to_act(self, state: State) -> frozenset[int]:
        if len(state.revealed) == ROUNDS:
            return frozenset()
        return frozenset(i for i, c in enumerate(state.committed) if c is None)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        return [Commit(c) for c in state.hands[seat]]

    def transition(self, state: State, seat: int, move: Move) -> State:
        assert isinstance(move, Commit)
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != move.card)
        committed = list(state.committed)
        committed[seat] = move.card
        if any(c is None for c in committed):
            return replace(state, hands=tuple(hands), committed=tuple(committed))
        cards = tuple(c for c in committed if c is not None)
        points = list(state.points)
        unique = [c for c in cards if cards.count(c) == 1]
        if unique:
            best = max(unique)
            factor = 2 if state.double and len(state.revealed) == ROUNDS - 1 else 1
            points[cards.index(best)] += best * factor
        return replace(
            state,
            hands=tuple(hands),
            committed=(None,) * len(cards),
            revealed=state.revealed + (cards,),
            points=tuple(points),
        )

    def view(self, state: State, seat: int | None) -> View:
        return View(
            seat=seat,
            hand=state.hands[seat] if seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            committed=tuple(c is not None for c in state.committed),
            own_commit=state.committed[seat] if seat is not None else None,
            revealed=state.revealed,
            points=state.points,
            double=state.double,
        )

    def sample(self, view: View, rng: random.Random) -> State:
        n = len(view.hand_sizes)
        seen = set(view.hand) | {c for r in view.revealed for c in r}
        if view.own_commit is not None:
            seen.add(view.own_commit)
        unknown = [c for c in range(1, 10) if c not in seen]
        rng.shuffle(unknown)
        hands: list[tuple[int, ...]] = []
        committed: list[int | None] = []
        for s in range(n):
            if s == view.seat:
                hands.append(view.hand)
                committed.append(view.own_commit)
                continue
            size = view.hand_sizes[s]
            hands.append(tuple(sorted(unknown.pop() for _ in range(size))))
            committed.append(unknown.pop() if view.committed[s] else None)
        return State(rng.getrandbits(32), tuple(hands), tuple(committed), view.revealed, view.points, view.double)

    def score(self, state: State) -> Score:
        seats = tuple(SeatScore(i, p, (("cards", p),)) for i, p in enumerate(state.points))
        order = sorted(set(state.points), reverse=True)
        ranking = tuple(tuple(i for i, p in enumerate(state.points) if p == v) for v in order)
        return Score(seats, ranking, final=self.is_over(state))


GAME = SecretDuel()


# Its descriptor, not registered on import: a test hosts it with `registry.register(DESCRIPTOR)`, and a service or
# worker process with TABLETOP_GAME_MODULES=tests.support.toy_plugin. No wire and no renderer: it travels as JSON
# (google.protobuf.Struct) and the terminal draws it generically.
DESCRIPTOR = GameDescriptor(engine=GAME)
