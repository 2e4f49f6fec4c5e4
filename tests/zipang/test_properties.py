"""Random-game bookkeeping: every card in one place, coins only ever leave the game one per battle, knowledge
is always true of the real hand, and hands stay at 2 as far as possible."""

from __future__ import annotations

import random

from games.zipang import GAME
from games.zipang.state import OVER, PLAY


def _cards_everywhere(state) -> list[int]:
    cards = [c for h in state.hands for c in h] + list(state.deck) + list(state.facedown) + list(state.discard)
    if state.limbo is not None:
        cards.append(state.limbo)
    return sorted(cards)


def test_random_games_keep_the_books():
    for seed in range(150):
        n = 2 + seed % 5
        rng = random.Random(seed)
        state = GAME.new_game(n, {}, seed)
        full = sorted(c for c in range(len(state.copies)) for _ in range(state.copies[c]))
        start = (4 if n == 2 else 5) * n
        while GAME.to_act(state):
            assert _cards_everywhere(state) == full
            # each battle started removed one coin from the game
            assert sum(state.coins) + state.pot == start - state.battle
            for obs in range(n):
                for owner in range(n):
                    seen = state.known[obs * n + owner]
                    hand = list(state.hands[owner])
                    for c in seen:
                        hand.remove(c)  # raises if a seat "knows" a card that is not there
            if state.phase == PLAY:
                assert len(state.hands[state.active]) >= 1 and state.in_battle[state.active]
            for p in range(n):
                assert state.in_battle[p] == bool(state.hands[p]) or state.phase != PLAY
            (seat,) = state.acting
            state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        assert state.phase == OVER and 0 in state.coins
