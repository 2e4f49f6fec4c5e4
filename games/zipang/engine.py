"""The Zipang engine: options and setup, and the glue between the rules, views and scoring modules (the base's
`to_act`, `legal_moves` and `transition` run games.zipang.rules)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Game, GameInfo, InvalidOptions, Move, OptionSpec, Score, chosen_seat, seat_option
from games.zipang import policy, rules, scoring, views
from games.zipang.data import KEYS, MAX_PLAYERS, MIN_PLAYERS, card_table
from games.zipang.moves import MOVE_TYPES
from games.zipang.state import State, View


class Zipang(Game[State, View]):
    info = GameInfo(
        name="zipang",
        title="Zipang Portable",
        min_seats=MIN_PLAYERS,
        max_seats=MAX_PLAYERS,
        options=(
            seat_option("start_player", "who starts the first battle", MAX_PLAYERS),
            OptionSpec(
                "cards",
                "json",
                None,
                'override the assumed card values: {"warlord": {"btl": 7}, "monk": {"copies": 2}, ...} '
                f"(cards {', '.join(KEYS)}; fields btl, hnr, copies in the full deck; integers 0-20)",
            ),
        ),
        description="Battles of the Sengoku era for 2-6: attack, steal and bluff with two cards in hand; "
        "the last one standing or the most honourable hand takes the coins in the center. Most coins wins.",
    )
    state_type = State
    view_type = View
    move_types = MOVE_TYPES
    live_score_public = True  # coins are kept in sight
    rules = rules
    native_rules = policy.Search  # the compiled engine calls the rules through it (games/checked.py)

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        opts = self.resolve_setup(num_seats, options)
        try:
            table = card_table(num_seats, opts["cards"])
        except ValueError as exc:
            raise InvalidOptions(str(exc)) from exc
        return rules.new_game(num_seats, table, chosen_seat(opts, "start_player", num_seats, seed, "start"), seed)

    def num_seats(self, state: State) -> int:
        return state.num_players

    def view(self, state: State, seat: int | None) -> View:
        return views.view(state, seat)

    def move_is_public(self, state: State, seat: int, move: Move) -> bool:
        # Cards are played and used face up with their targets named, a Monk is shown, a coin is put in the
        # center, the taken card is used at once: every decision is made in plain sight. (What a shown hand
        # holds is not part of any move.)
        return True

    def sample(self, view: View, rng: random.Random) -> State:
        return views.sample(view, rng)

    def score(self, state: State) -> Score:
        return scoring.score(state)


GAME = Zipang()
