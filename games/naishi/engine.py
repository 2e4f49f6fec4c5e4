"""The Naishi engine: setup, and the glue between the rules, views and scoring modules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Game, GameInfo, Move, Score, SeatScore
from games.naishi import policy, rules
from games.naishi.moves import MOVE_TYPES, Give
from games.naishi.scoring import score_territory, winners
from games.naishi.state import State, View
from games.naishi.views import sample, view

TIE_BREAK = "most different colours in the territory"


class Naishi(Game[State, View]):
    info = GameInfo(
        name="naishi",
        title="Naishi",
        min_seats=2,
        max_seats=2,
        description="Develop your province from the River without ever reordering your Hand or Line; "
        "send Emissaries to the Imperial Court. Most points wins.",
    )
    state_type = State
    view_type = View
    move_types = MOVE_TYPES
    rules = rules
    native_rules = policy.Search  # the compiled engine calls the rules through it (games/checked.py)

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        self.resolve_setup(num_seats, options)
        return rules.freeze(rules.deal(seed))

    def num_seats(self, state: State) -> int:
        return 2

    def view(self, state: State, seat: int | None) -> View:
        return view(state, seat)

    def move_is_public(self, state: State, seat: int, move: Move) -> bool:
        # The gift is the setup's secret choice; every turn action is done in plain sight.
        return not isinstance(move, Give)

    def sample(self, view: View, rng: random.Random) -> State:
        return sample(view, rng)

    def score(self, state: State) -> Score:
        territories = [score_territory(state.lines[s], state.hands[s]) for s in (0, 1)]
        seats = tuple(SeatScore(s, t.total, t.breakdown()) for s, t in enumerate(territories))
        first = winners([(t.total, t.colours) for t in territories])
        ranking = (first,) if len(first) == 2 else (first, (1 - first[0],))
        tie_breaks = (TIE_BREAK,) if territories[0].total == territories[1].total else ()
        return Score(seats, ranking, final=state.phase == "over", tie_breaks=tie_breaks)


GAME = Naishi()
