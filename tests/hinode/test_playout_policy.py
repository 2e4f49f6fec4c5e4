"""Hinode's playout policy (games.hinode.policy): the search's cheap model of a player, on the working state.

Where the greedy player (games.hinode.greedy) decides by a fixed rule, the policy must decide as it does: the
search draws the other seats' moves by the policy (`tree_opponents`), so a rule modelled loosely is an opponent
misread (docs/ai.md, "Hinode: the greedy player's fixed choices").
"""

from __future__ import annotations

import random

import pytest

from games.hinode import GAME
from games.hinode.data import HERO, TRICKS
from games.hinode.greedy import HinodeGreedy
from games.hinode.policy import choose
from games.hinode.state import AREA, PICK, PLAY, TRIBE
from games.hinode.work import thaw

GREEDY = HinodeGreedy()


def _states(players: int, advanced: bool, seed: int):
    """Every state of a game of random legal moves."""
    rng = random.Random(seed)
    state = GAME.new_game(players, {"advanced": advanced}, seed)
    while GAME.to_act(state):
        yield state
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def always_random() -> float:
    return 0.0  # below EXPLORE: a uniformly random pick wherever the policy makes one


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tribe_and_resource_picks_are_the_greedy_players(players):
    """The tribe ("the start player chooses a tribe first") and the 4th place's resource are chosen as the greedy
    player chooses them, also when choosing for a proxy, and never at random."""
    seen = {TRIBE: 0, PICK: 0}
    for seed in range(12):
        for state in _states(players, True, seed):
            if state.phase not in seen:
                continue
            (seat,) = GAME.to_act(state)
            moves = GAME.legal_moves(state, seat)
            if len(moves) < 2:
                continue
            expected = GREEDY.choose(GAME, GAME.view(state, seat), moves, random.Random(0))
            assert choose(thaw(state), seat, moves, always_random) == expected
            seen[state.phase] += 1
    assert seen[TRIBE] >= 12 and seen[PICK] >= 40  # both kinds of choice were met, many times


def test_the_hero_is_played_in_the_last_trick():
    """"The player who played their Hero card last gains 3 VP": in the 9th trick a seat whose Hero may be played
    plays it, as the greedy player does, whatever the random draw."""
    checked = 0
    for seed in range(20):
        for state in _states(4, False, seed):
            if state.phase != PLAY or state.trick != TRICKS - 1:
                continue
            (seat,) = GAME.to_act(state)
            work = thaw(state)
            if not (work.heroes[seat] and not work.hero_in_trick):
                continue
            moves = GAME.legal_moves(state, seat)
            picked = choose(work, seat, moves, always_random)
            assert picked.card == HERO and picked.resource is None and picked.skill is None
            assert picked in moves
            checked += 1
    assert checked >= 5


@pytest.mark.parametrize("advanced", [False, True])
def test_the_policy_lists_the_moves_itself_only_where_it_needs_them_and_picks_alike(advanced):
    """The search passes no moves (`PlayoutPolicy.lists_moves`): most plays are read off the hand and need no list.
    Given none, the policy picks what it picks given the list, with the same draws, in every phase and at every
    draw; and the plays it reads off the hand are legal ones."""
    phases: dict[str, int] = {}
    for seed in range(8):
        for state in _states(4 if seed % 2 else 3, advanced, seed):
            (seat,) = GAME.to_act(state)
            moves = GAME.legal_moves(state, seat)
            for draw in range(5):
                given, alone = random.Random(draw), random.Random(draw)
                picked = choose(thaw(state), seat, moves, given.random)
                assert choose(thaw(state), seat, None, alone.random) == picked
                assert given.random() == alone.random()  # as many draws taken
                assert picked in moves
            phases[state.phase] = phases.get(state.phase, 0) + 1
    assert set(phases) >= {PLAY, PICK, TRIBE, AREA} and phases[PLAY] >= 200, phases
