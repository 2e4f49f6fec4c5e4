"""The Hinode engine: options and setup, and the glue between the rules, views and scoring modules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Game, GameInfo, InvalidOptions, Move, OptionSpec, Score, chosen_seat, seat_option
from games.hinode import policy, rules, scoring, views
from games.hinode.data import vp_table
from games.hinode.moves import MOVE_TYPES
from games.hinode.state import State, View
from games.hinode.work import Work


class Hinode(Game[State, View]):
    info = GameInfo(
        name="hinode",
        title="Top of the Hinode Town",
        min_seats=1,
        max_seats=4,
        options=(
            seat_option("start_player", "who starts", 4),
            OptionSpec("advanced", "bool", False, "advanced rules: the four tribe skills"),
            OptionSpec(
                "nawabari_vp",
                "json",
                None,
                'override the assumed Nawabari VP: {"red-4": [-3, 1], "white": [10, 5], ...} '
                "(cards red-1..4, blue-1..4, yellow-1..4, white; values [1st, 2nd])",
            ),
        ),
        description="Win the Areas of Hinode town in 9 tricks; proxies fill the table to four players.",
    )
    rules = rules  # the module: the rules written once (games.base.Rules)
    native_rules = policy.Search  # the compiled engine calls the rules through it (games/checked.py)
    state_type = State
    view_type = View
    move_types = MOVE_TYPES
    live_score_public = True  # markers, resources and the Heroes played: all face up

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        opts = self.resolve_setup(num_seats, options)
        try:
            vp = vp_table(opts["nawabari_vp"])
        except ValueError as exc:
            raise InvalidOptions(str(exc)) from exc
        start = chosen_seat(opts, "start_player", num_seats, seed, "start")
        return rules.new_game(num_seats, opts["advanced"], vp, start, seed)

    def num_seats(self, state: State) -> int:
        return state.num_players

    def why_illegal(self, state: State, seat: int, move: Move) -> str:
        return rules.why_illegal(state, move)

    def view(self, state: State, seat: int | None) -> View:
        return views.view(state, seat)

    def move_is_public(self, state: State, seat: int, move: Move) -> bool:
        # Tribe and Area choices, the card played (with its resource or skill) and the resource taken are all
        # done face up at the table.
        return True

    def sample(self, view: View, rng: random.Random) -> State:
        return views.sample(view, rng)

    def sample_work(self, view: View, rng: random.Random) -> Work:
        return views.sample_work(view, rng)

    def score(self, state: State) -> Score:
        return scoring.score(state)


GAME = Hinode()
