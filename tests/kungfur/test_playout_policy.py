"""Kung Fur Fight's playout policy (games.kungfur.policy): the search's cheap model of a player, on the working
state."""

from __future__ import annotations

import random

from games.kungfur import GAME, rules
from games.kungfur.policy import choose
from games.kungfur.state import PLAN


def _states(seed: int):
    """Every state of a game of random legal moves, with the seats to act."""
    rng = random.Random(seed)
    state = GAME.new_game(2, {}, seed)
    while acting := sorted(GAME.to_act(state)):
        yield state, acting
        seat = acting[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def test_the_policy_lists_the_moves_itself_only_where_it_needs_them_and_picks_alike():
    """The search and the sampled plans pass no moves (`PlayoutPolicy.lists_moves`): a plan is made without the
    list. Given none, the policy picks what it picks given the list, with the same draws, in every phase and at
    every draw; and what it picks is legal."""
    phases: dict[str, int] = {}
    for seed in range(6):
        for state, acting in _states(seed):
            for seat in acting:
                moves = GAME.legal_moves(state, seat)
                for draw in range(4):
                    given, alone = random.Random(draw), random.Random(draw)
                    picked = choose(rules.thaw(state), seat, moves, given.random)
                    assert choose(rules.thaw(state), seat, None, alone.random) == picked
                    assert given.random() == alone.random()  # as many draws taken
                    assert picked in moves
                phases[state.phase] = phases.get(state.phase, 0) + 1
    assert len(phases) >= 2 and phases[PLAN] >= 100, phases
