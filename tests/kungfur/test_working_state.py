"""The working state's shortcuts give what the full copy gives (tests/conformance/test_working_state.py checks the
rules themselves move for move against the engine).

A planning state is thawed in part and frozen by copying it with its new plans (games.kungfur.work): here every
move of random games is played on a fresh thaw, and the state that freeze makes so is compared with the one a
work filled in completely (`materialize`) freezes, field by field."""

from __future__ import annotations

import random

from games.kungfur import GAME, rules


def test_a_partly_thawed_planning_state_freezes_as_a_whole_one():
    planning_moves = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new_game(2, {}, seed)
        while acting := sorted(GAME.to_act(state)):
            seat = rng.choice(acting)
            move = rng.choice(GAME.legal_moves(state, seat))
            work = rules.thaw(state)
            planning = work.origin is not None
            rules.play(work, seat, move)
            quick = rules.freeze(work)
            rules.materialize(work)  # copies in the rest and derives both sides: the full freeze from here
            assert rules.freeze(work) == quick, (seed, move.id)
            planning_moves += planning
            state = quick
        assert rules.freeze(rules.thaw(state)) == state
    assert planning_moves > 1000  # the shortcut was taken, not only the full copy


def test_thawing_a_planning_state_twice_gives_two_works():
    state = GAME.new_game(2, {"cats": "seat0"}, 2)
    first, second = rules.thaw(state), rules.thaw(state)
    assert first is not second
    rules.play(first, 0, GAME.legal_moves(state, 0)[0])
    assert rules.freeze(second) == state and rules.freeze(first) != state


def test_moves_tried_one_after_another_from_one_state_do_not_mix():
    """games.base: `transition` takes the work `legal_moves` thawed for that very state, once; the next move tried
    from the same state is played on a fresh thaw."""
    state = GAME.new_game(2, {"cats": "seat0"}, 4)
    moves = GAME.legal_moves(state, 0)[:4]
    tried = [GAME.transition(state, 0, move) for move in moves]
    for move, after in zip(moves, tried, strict=True):
        work = rules.thaw(state)
        rules.play(work, 0, move)
        assert after == rules.freeze(work), move.id
    assert len(set(tried)) == len(moves)
