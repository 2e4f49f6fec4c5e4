"""A tiny hidden-information game used to test the engine contract, the service and the AI generically.

Secret Duel: 2-3 seats, a deck of cards 1..9; each seat is dealt 3 hidden cards. Each of 3 rounds, every seat
secretly commits one card at the same time; when all are in they are revealed and the highest unique card
scores its value. Most points wins; ties are broken by the lower seat number never: a tie stays a tie.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Game, GameInfo, Move, OptionSpec, Score, SeatScore
from games.deal import shuffle
from games.registry import GameDescriptor
from games.values import chance

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


def _acting(committed: tuple[int | None, ...] | list[int | None], rounds_done: int) -> tuple[int, ...]:
    """Every seat that has not committed this round, until the last round is revealed."""
    return () if rounds_done == ROUNDS else tuple(i for i, c in enumerate(committed) if c is None)


@dataclass(frozen=True)
class State:
    seed: int
    hands: tuple[tuple[int, ...], ...]
    committed: tuple[int | None, ...]
    revealed: tuple[tuple[int, ...], ...]  # one tuple of cards per finished round
    points: tuple[int, ...]
    double: bool
    acting: tuple[int, ...] = field(init=False)  # derived, so the toy's tests build states by their facts alone

    def __post_init__(self) -> None:
        object.__setattr__(self, "acting", _acting(self.committed, len(self.revealed)))


class Work:
    """The toy's working state (games.base.Rules): its rules are written once, on this."""

    __slots__ = ("seed", "hands", "committed", "revealed", "points", "double")

    def __init__(self, state: State):
        self.seed = state.seed
        self.hands = [list(hand) for hand in state.hands]
        self.committed = list(state.committed)
        self.revealed = list(state.revealed)
        self.points = list(state.points)
        self.double = state.double


class Rules:
    """Secret Duel's rules, on its working state."""

    thaw = Work

    @staticmethod
    def freeze(work: Work) -> State:
        return State(work.seed, tuple(map(tuple, work.hands)), tuple(work.committed), tuple(work.revealed),
                     tuple(work.points), work.double)

    @staticmethod
    def to_act(work: Work) -> tuple[int, ...]:
        return _acting(work.committed, len(work.revealed))

    @staticmethod
    def legal_moves(work: Work, seat: int) -> list[Move]:
        if seat not in Rules.to_act(work):
            return []
        return [Commit(c) for c in work.hands[seat]]

    @staticmethod
    def play(work: Work, seat: int, move: Move) -> None:
        assert isinstance(move, Commit)
        work.hands[seat].remove(move.card)
        committed = work.committed
        committed[seat] = move.card
        if any(c is None for c in committed):
            return
        cards = tuple(c for c in committed if c is not None)
        unique = [c for c in cards if cards.count(c) == 1]
        if unique:
            best = max(unique)
            factor = 2 if work.double and len(work.revealed) == ROUNDS - 1 else 1
            work.points[cards.index(best)] += best * factor
        work.committed = [None] * len(cards)
        work.revealed.append(cards)

    @staticmethod
    def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
        best = max(work.points)
        return list(work.points), tuple(i for i, p in enumerate(work.points) if p == best)


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
    rules = Rules
    state_type = State
    view_type = View
    move_types = (Commit,)

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        opts = self.resolve_setup(num_seats, options)
        deck = list(range(1, 10))
        shuffle(chance(seed, "deal"), deck)
        hands = tuple(tuple(sorted(deck[i * 3 : i * 3 + 3])) for i in range(num_seats))
        return State(seed, hands, (None,) * num_seats, (), (0,) * num_seats, opts["double"])

    def num_seats(self, state: State) -> int:
        return len(state.hands)

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
