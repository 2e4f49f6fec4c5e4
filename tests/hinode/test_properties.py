"""Random-game properties of Hinode that scenario tests cannot cover: conservation and bookkeeping."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.hinode import GAME
from games.hinode.data import HERO


def _states(players: int, advanced: bool, seed: int):
    rng = random.Random(seed)
    state = GAME.new_game(players, {"advanced": advanced}, seed)
    yield state
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        yield state


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("advanced", [False, True], ids=["basic", "advanced"])
def test_random_games_keep_the_books(players, advanced):
    for seed in range(25):
        for state in _states(players, advanced, seed):
            # Every battle card is in exactly one place.
            played = [p.move.card for p in state.history if p.move.card != HERO]
            held = [c for h in state.hands for c in h]
            assert sorted(played + held + list(state.removed)) == list(range(39))
            # Resources are never negative and never more than the 36 cubes; proxies hold none.
            assert min(state.resources) >= 0
            assert sum(state.resources) + sum(state.cubes) <= 36
            assert sum(state.resources[players * 3 :]) == 0
            # Each judged trick (the one awaiting its 4th-place pick included) put two markers on one Area.
            judged = state.trick + (state.phase == "pick")
            assert sum(f is not None for f in state.first) == judged
            assert sum(s is not None for s in state.second) == judged
            # Only real seats decide; proxies never play a Hero; one Hero per trick at most.
            assert all(seat < players for seat in GAME.to_act(state))
            heroes = [(p.trick, p.seat) for p in state.history if p.move.card == HERO]
            assert all(seat < players for _, seat in heroes)
            assert max(Counter(t for t, _ in heroes).values(), default=0) <= 1
            assert len({seat for _, seat in heroes}) == len(heroes)
        assert state.phase == "over" and state.trick == 9
        assert sum(len(h) for h in state.hands[players:]) == 0
