"""The greedy baseline sees only its view and beats a random player clearly."""

from __future__ import annotations

import random

from games.zipang import GAME
from games.zipang.greedy import ZipangGreedy
from games.zipang.state import View


class _Strict(ZipangGreedy):
    def choose(self, game, view, moves, rng):
        assert isinstance(view, View)
        move = super().choose(game, view, moves, rng)
        assert move in moves
        return move


def test_greedy_beats_random_at_two_seats():
    greedy = _Strict()
    wins = 0.0
    games = 60
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.new_game(2, {}, seed)
        mine = seed % 2
        while GAME.to_act(state):
            (seat,) = state.acting
            moves = GAME.legal_moves(state, seat)
            move = greedy.choose(GAME, GAME.view(state, seat), moves, rng) if seat == mine else rng.choice(moves)
            state = GAME.apply(state, seat, move)
        winners = GAME.score(state).winners()
        wins += (mine in winners) / len(winners)
    assert wins / games > 0.75


def test_greedy_blocks_with_a_coin_when_its_hand_would_lose():
    from tests.zipang.positions import act, position

    state = position(hands={0: ("warlord", "peasant", "peasant"), 1: ("captain", "peasant"), 2: ("monk", "kabuki")},
                     coins=(3, 3, 3, 3), pot=3)
    state = act(state, (0, "play:warlord>s1"))
    move = ZipangGreedy().choose(GAME, GAME.view(state, 1), GAME.legal_moves(state, 1), random.Random(1))
    assert move.id == "coin"
