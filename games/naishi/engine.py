"""The Naishi engine: setup, and the glue between the rules, views and scoring modules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Game, GameInfo, Move, Score, SeatScore, chance
from games.naishi.data import DEVELOPMENT_DECK, LINE_MOUNTAINS, MOUNTAIN, PILE_SIZE, PILES
from games.naishi.moves import MOVE_TYPES, SPACES, Give
from games.naishi.rules import legal_moves, transition
from games.naishi.scoring import score_territory
from games.naishi.state import HandKnowledge, State, View
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

    def new_game(self, num_seats: int, options: Mapping[str, Any], seed: int) -> State:
        self.resolve_setup(num_seats, options)
        deck = list(DEVELOPMENT_DECK)
        chance(seed, "deal").shuffle(deck)
        piles = tuple(tuple(deck[p * PILE_SIZE : (p + 1) * PILE_SIZE]) for p in range(PILES))
        rest = deck[PILES * PILE_SIZE :]
        return State(
            seed=seed,
            first=chance(seed, "first").randrange(2),
            phase="gift",
            turn=0,
            developed=False,
            court_used=False,
            final_turn=None,
            declared_by=None,
            offers=(tuple(rest[:2]), tuple(rest[2:4])),
            gifts=(None, None),
            hands=((), ()),
            lines=((MOUNTAIN,) * LINE_MOUNTAINS,) * 2,
            piles=piles,
            discard=(),
            court=(None,) * len(SPACES),
            knowledge=(HandKnowledge(),) * 4,
        )

    def num_seats(self, state: State) -> int:
        return 2

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "gift":
            return frozenset(s for s in (0, 1) if state.gifts[s] is None)
        if state.phase == "turn":
            return frozenset((state.turn,))
        return frozenset()

    legal_moves = staticmethod(legal_moves)
    transition = staticmethod(transition)

    def view(self, state: State, seat: int | None) -> View:
        return view(state, seat)

    def move_is_public(self, state: State, seat: int, move: Move) -> bool:
        # The gift is the setup's secret choice; every turn action is done in plain sight .
        return not isinstance(move, Give)

    def sample(self, view: View, rng: random.Random) -> State:
        return sample(view, rng)

    def score(self, state: State) -> Score:
        territories = [score_territory(state.lines[s], state.hands[s]) for s in (0, 1)]
        seats = tuple(SeatScore(s, t.total, t.breakdown()) for s, t in enumerate(territories))
        keys = [(t.total, t.colours) for t in territories]
        tie_breaks: tuple[str, ...] = (TIE_BREAK,) if keys[0][0] == keys[1][0] else ()
        if keys[0] == keys[1]:
            ranking: tuple[tuple[int, ...], ...] = ((0, 1),)  # "If there is still a tie... play again!"
        else:
            best = 0 if keys[0] > keys[1] else 1
            ranking = ((best,), (1 - best,))
        return Score(seats, ranking, final=state.phase == "over", tie_breaks=tie_breaks)


GAME = Naishi()
