"""The search's fast path agrees with the engine: every game's playout kernel (games.kernel) is played side by side
with its pure engine over thousands of random games, every seat count and boolean option set.

At every step: the same seats to act and the same legal moves in the same order; the kernel loaded afresh from the
engine's state mid-game agrees too; every few steps and at the end, the same outcome (every seat's total,
the winners after the tie-breaks). `KERNEL_GAMES` raises the count; the `slow` test plays ten times as many.
"""

from __future__ import annotations

import os
import random

import pytest

from ai.ismcts import kernel_for
from games import registry
from games.base import Game
from games.kernel import EngineKernel, engine_outcome

GAMES_PER_TYPE = int(os.environ.get("KERNEL_GAMES", "1000"))
KERNEL_GAMES = [g for g in registry.all_games() if not isinstance(kernel_for(g), EngineKernel)]
IDS = [g.info.name for g in KERNEL_GAMES]


def _agree(game: Game, games: int, first_seed: int) -> int:
    kernel = kernel_for(game)
    policy = getattr(kernel, "playout_policy", None)
    policy_rng = random.Random(first_seed)
    variants = game.variants()
    moves_played = 0
    for i in range(games):
        seats, options = variants[i % len(variants)]
        seed = first_seed + i
        rng = random.Random(seed)
        state = game.new_game(seats, options, seed)
        fast = kernel.load(state)
        reload_at = rng.randrange(60)
        reloaded = None
        step = 0
        while True:
            acting = sorted(game.to_act(state))
            assert list(kernel.to_act(fast)) == acting, (seed, step)
            if reloaded is not None:
                assert list(kernel.to_act(reloaded)) == acting, (seed, step)
            if step % 7 == 0 or not acting:
                totals, winners = engine_outcome(game, state)
                expected = (list(totals), sorted(winners))
                found = kernel.outcome(fast)
                assert (list(found[0]), sorted(found[1])) == expected, (seed, step)
                if reloaded is not None:
                    found = kernel.outcome(reloaded)
                    assert (list(found[0]), sorted(found[1])) == expected, (seed, step)
            if not acting:
                break
            seat = rng.choice(acting)
            legal = list(game.legal_moves(state, seat))
            fast_legal = kernel.legal_moves(fast, seat)
            assert list(fast_legal) == legal, (seed, step)
            if policy is not None:  # the kernel's playout policy picks one of the moves it was given
                assert policy(fast, seat, fast_legal, policy_rng) in legal, (seed, step)
            for other in range(seats):
                if other not in acting:
                    assert not kernel.legal_moves(fast, other), (seed, step, other)
            if reloaded is not None:
                assert list(kernel.legal_moves(reloaded, seat)) == legal, (seed, step)
            move = rng.choice(legal)
            state = game.apply(state, seat, move)
            fast = kernel.play(fast, seat, move)
            if reloaded is not None:
                reloaded = kernel.play(reloaded, seat, move)
            step += 1
            moves_played += 1
            if step == reload_at:
                reloaded = kernel.load(state)
                assert kernel.load(state) is not reloaded
    return moves_played


def test_the_games_the_issue_names_have_kernels():
    assert {"hinode", "naishi", "kung-fur-fight"} <= set(IDS)


@pytest.mark.parametrize("game", KERNEL_GAMES, ids=IDS)
def test_kernel_and_engine_agree_move_for_move(game: Game):
    assert _agree(game, GAMES_PER_TYPE, 50_000) > GAMES_PER_TYPE


@pytest.mark.slow
@pytest.mark.parametrize("game", KERNEL_GAMES, ids=IDS)
def test_kernel_and_engine_agree_over_many_more_games(game: Game):
    _agree(game, 10 * GAMES_PER_TYPE, 900_000)


@pytest.mark.parametrize("game", KERNEL_GAMES, ids=IDS)
def test_loading_leaves_the_state_alone(game: Game):
    kernel = kernel_for(game)
    rng = random.Random(3)
    state = game.new_game(game.info.max_seats, {}, 3)
    for _ in range(25):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        state = game.apply(state, acting[0], rng.choice(game.legal_moves(state, acting[0])))
    copy = game.load_state(game.dump_state(state))
    fast = kernel.load(state)
    while acting := list(kernel.to_act(fast)):
        fast = kernel.play(fast, acting[0], rng.choice(list(kernel.legal_moves(fast, acting[0]))))
    assert state == copy


def test_naishi_cheap_territory_key_matches_the_full_score():
    from games.naishi.data import DEVELOPMENT_DECK, MOUNTAIN, NINJA
    from games.naishi.fast import territory_key
    from games.naishi.scoring import score_territory

    rng = random.Random(5)
    cards = list(DEVELOPMENT_DECK) + [MOUNTAIN] * 16 + [NINJA] * 6  # more Ninjas than the deck, to try their copies
    for _ in range(4000):
        rng.shuffle(cards)
        line, hand = cards[:5], cards[5:10]
        best = score_territory(tuple(line), tuple(hand))
        assert territory_key(line, hand) == (best.total, best.colours), (line, hand)
