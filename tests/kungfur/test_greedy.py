"""The greedy baseline knows only its view, always answers a legal move, and beats random play."""

from __future__ import annotations

import random

from ai.players import RandomPlayer
from games.kungfur import GAME
from games.kungfur.greedy import KungFurGreedy


def _play(greedy_seat: int, seed: int):
    players = [RandomPlayer(), RandomPlayer()]
    players[greedy_seat] = KungFurGreedy()
    rng = random.Random(seed)
    state = GAME.new_game(2, {}, seed)
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        moves = GAME.legal_moves(state, seat)
        move = players[seat].choose(GAME, GAME.view(state, seat), moves, rng)
        assert move in moves
        state = GAME.apply(state, seat, move)
    return state


def test_greedy_beats_random():
    wins = sum(greedy in _play(greedy, seed).winners for seed in range(20) for greedy in (seed % 2,))
    assert wins >= 16, wins
