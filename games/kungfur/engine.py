"""The Kung Fur Fight engine: options and setup, and the glue between the rules, views and scoring modules (the base
Game runs `rules` for `to_act`, `legal_moves` and `transition`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Game, GameInfo, InvalidOptions, Move, OptionSpec, Score, chosen_seat, seat_option
from games.kungfur import policy, rules, scoring, views
from games.kungfur.data import compile_table
from games.kungfur.moves import MOVE_TYPES, PLANNING_TYPES
from games.kungfur.state import State, View
from games.kungfur.work import Work


class KungFur(Game[State, View]):
    info = GameInfo(
        name="kung-fur-fight",
        title="Kung Fur Fight",
        min_seats=2,
        max_seats=2,
        options=(
            seat_option("cats", "which seat plays the cats (the other plays the dogs)", 2),
            OptionSpec(
                "data",
                "json",
                None,
                'override the assumed data table: {"jonin": {"ap": 5}, "might": {"copies": 2}, "start_sp": 11} '
                "(card keys with ap and/or copies; numbers start_sp, battle_loss, destruction_max)",
            ),
        ),
        description="Cats against dogs: plan your animals on three arenas behind a screen, reveal, fight; "
        "lead by 4 VP or bring the opponent's SP to 0.",
    )
    rules = rules  # the rules module (games.base.Rules): the base Game runs to_act, legal_moves and transition on it
    native_rules = policy.Search  # the compiled engine calls the rules through it (games/checked.py)
    state_type = State
    view_type = View
    move_types = MOVE_TYPES
    live_score_public = True  # VP, and the SP and deck size that rank, are public

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        opts = self.resolve_setup(num_seats, options)
        try:
            table = compile_table(opts["data"])
        except ValueError as exc:
            raise InvalidOptions(str(exc)) from exc
        return rules.new_game(table, chosen_seat(opts, "cats", num_seats, seed, "sides"), seed)

    def num_seats(self, state: State) -> int:
        return 2

    def why_illegal(self, state: State, seat: int, move: Move) -> str:
        return rules.why_illegal(state, seat, move) or super().why_illegal(state, seat, move)

    def view(self, state: State, seat: int | None) -> View:
        return views.view(state, seat)

    def move_is_public(self, state: State, seat: int, move: Move) -> bool:
        # Planning happens behind the screens; the battle's and the regroup's decisions are made in the open.
        return not isinstance(move, PLANNING_TYPES)

    def sample(self, view: View, rng: random.Random) -> State:
        return views.sample(view, rng)

    def sample_work(self, view: View, rng: random.Random) -> Work:
        return views.sample_work(view, rng)

    def score(self, state: State) -> Score:
        return scoring.score(state)


GAME = KungFur()
