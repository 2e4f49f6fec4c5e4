"""The greedy baseline sees only its view and beats a random player clearly."""

from __future__ import annotations

import random

from games.zipang import GAME
from games.zipang.greedy import ZipangGreedy
from games.zipang.state import View


class _Strict:
    """The greedy player, checked: it is given a View and chooses one of the moves. (It wraps the player: compiled,
    ZipangGreedy is a native class, which an interpreted class cannot derive.)"""

    def __init__(self) -> None:
        self.player = ZipangGreedy()

    def choose(self, game, view, moves, rng):
        assert isinstance(view, View)
        move = self.player.choose(game, view, moves, rng)
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


def test_the_chance_a_hand_of_two_unknown_cards_falls_short_is_the_share_of_pairs_that_do():
    """The greedy player counts the pairs of unseen cards by BTL value, not pair by pair: the same count, so the
    same float, as listing every unordered pair of the pool (what it did before), for any pool and strength."""
    import dataclasses

    table = GAME.view(GAME.new_game(2, {}, 1), 0)  # a real View (compiled, the player takes no other), varied below
    btl = table.btl
    greedy = ZipangGreedy()
    rng = random.Random(5)
    for _ in range(3000):
        pool = [rng.randrange(len(btl)) for _ in range(rng.randrange(0, 14))]
        known = tuple(rng.randrange(len(btl)) for _ in range(rng.randrange(0, 2)))
        view = dataclasses.replace(table, known=((), known), hand_sizes=(3, len(known) + 2))
        strength = rng.randrange(0, 14)
        base = sum(btl[c] for c in known)
        values = [btl[c] for c in pool]
        pairs = [(a, b) for i, a in enumerate(values) for b in values[i + 1:]]
        expected = sum(base + a + b < strength for a, b in pairs) / len(pairs) if pairs else float(base < strength)
        assert greedy._lose_chance(view, 1, strength, pool) == expected, (pool, known, strength)
