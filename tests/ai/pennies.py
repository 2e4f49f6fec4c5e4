"""Matching Pennies as an engine: both seats pick heads or tails at the same time; seat 0 wins on a match.

The value of the game is 1/2 for each seat. A searcher that lets the second seat see the first seat's hidden
pick would believe every pick of seat 0 loses.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.base import Game, GameInfo, Move, Score, SeatScore


@dataclass(frozen=True)
class Pick(Move):
    side: str

    @property
    def id(self) -> str:
        return self.side

    @property
    def label(self) -> str:
        return self.side.title()


@dataclass(frozen=True)
class State:
    picks: tuple[str | None, ...]
    acting: tuple[int, ...] = field(init=False)  # derived from the picks

    def __post_init__(self) -> None:
        object.__setattr__(self, "acting", tuple(i for i, p in enumerate(self.picks) if p is None))


class Work:
    __slots__ = ("picks",)

    def __init__(self, state: State):
        self.picks = list(state.picks)


class Rules:
    """Matching Pennies' rules on its working state (games.base.Rules)."""

    thaw = Work

    @staticmethod
    def freeze(work: Work) -> State:
        return State(tuple(work.picks))

    @staticmethod
    def to_act(work: Work) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(work.picks) if p is None)

    @staticmethod
    def legal_moves(work: Work, seat: int) -> list[Move]:
        return [Pick("heads"), Pick("tails")] if work.picks[seat] is None else []

    @staticmethod
    def play(work: Work, seat: int, move: Move) -> None:
        work.picks[seat] = move.side

    @staticmethod
    def outcome(work: Work) -> tuple[list[int], tuple[int, ...]]:
        done = all(p is not None for p in work.picks)
        if not done:
            return [0, 0], (0, 1)
        return ([1, 0], (0,)) if work.picks[0] == work.picks[1] else ([0, 1], (1,))


@dataclass(frozen=True)
class View:
    seat: int | None
    own: str | None
    picked: tuple[bool, ...]
    revealed: tuple[str, ...]  # both picks once both are in


class MatchingPennies(Game[State, View]):
    info = GameInfo(name="pennies", title="Matching Pennies", min_seats=2, max_seats=2)
    rules = Rules
    state_type = State
    view_type = View
    move_types = (Pick,)

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        self.resolve_setup(num_seats, options)
        return State((None, None))

    def num_seats(self, state: State) -> int:
        return 2

    def view(self, state: State, seat: int | None) -> View:
        done = all(p is not None for p in state.picks)
        return View(
            seat,
            state.picks[seat] if seat is not None else None,
            tuple(p is not None for p in state.picks),
            tuple(state.picks) if done else (),
        )

    def sample(self, view: View, rng: random.Random) -> State:
        if view.revealed:
            return State(view.revealed)
        picks = [None, None]
        for s in range(2):
            if s == view.seat:
                picks[s] = view.own
            elif view.picked[s]:
                picks[s] = rng.choice(["heads", "tails"])
        return State(tuple(picks))

    def score(self, state: State) -> Score:
        done = all(p is not None for p in state.picks)
        match = done and state.picks[0] == state.picks[1]
        points = (1, 0) if match else (0, 1) if done else (0, 0)
        seats = tuple(SeatScore(i, p, (("pennies", p),)) for i, p in enumerate(points))
        ranking = ((0,), (1,)) if points[0] > points[1] else ((1,), (0,)) if points[1] > points[0] else ((0, 1),)
        return Score(seats, ranking, final=done)


GAME = MatchingPennies()
