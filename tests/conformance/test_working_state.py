"""The rules written once hold on both paths: a game's working state (games.base.Rules) played on in place through
a whole game agrees, step by step, with the checked engine on frozen states (`apply`: a thaw, a play and a freeze
per move), over thousands of random games, every seat count and boolean option set.

At every step: the same seats to act and the same legal moves in the same order; freezing the working state gives
the engine's state exactly; a working state thawed afresh mid-game agrees too; every few steps and at the end, the
same outcome (every seat's total, the winners after the tie-breaks) as the full score. `KERNEL_GAMES` raises the
count; the `slow` test plays three times as many.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import random
import sys

import pytest

from ai.ismcts import rules_and_policy
from games import checked, compiled, registry
from games.base import Game

# The fast tier (make test-fast) plays a tenth of them; make test plays them all.
FAST_TIER = os.environ.get("TABLETOP_FAST_TIER") == "1"
GAMES_PER_TYPE = int(os.environ.get("KERNEL_GAMES", "100" if FAST_TIER else "1000"))
GAMES = registry.all_games()
IDS = [g.info.name for g in GAMES]


def _score_outcome(game: Game, state) -> tuple[list[int], list[int]]:
    score = game.score(state)
    totals = [0] * len(score.seats)
    for seat_score in score.seats:
        totals[seat_score.seat] = seat_score.total
    return totals, sorted(score.ranking[0] if score.ranking else ())


def _agree(game: Game, games: int, first_seed: int) -> int:
    kernel, policy = rules_and_policy(game)
    policy_rng = random.Random(first_seed)
    variants = game.variants()
    moves_played = 0
    for i in range(games):
        seats, options = variants[i % len(variants)]
        seed = first_seed + i
        rng = random.Random(seed)
        state = game.new_game(seats, options, seed)
        fast = kernel.thaw(state)
        reload_at = rng.randrange(60)
        reloaded = None
        step = 0
        while True:
            acting = sorted(game.to_act(state))
            assert list(kernel.to_act(fast)) == acting, (seed, step)
            if reloaded is not None:
                assert list(kernel.to_act(reloaded)) == acting, (seed, step)
            assert kernel.freeze(fast) == state, (seed, step)
            if step % 7 == 0 or not acting:
                expected = _score_outcome(game, state)
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
            if policy is not None:  # the game's playout policy picks one of the moves it was given
                assert policy.choose(fast, seat, fast_legal, policy_rng.random) in legal, (seed, step)
            for other in range(seats):
                if other not in acting:
                    assert not kernel.legal_moves(fast, other), (seed, step, other)
            if reloaded is not None:
                assert list(kernel.legal_moves(reloaded, seat)) == legal, (seed, step)
            move = rng.choice(legal)
            state = game.apply(state, seat, move)
            kernel.play(fast, seat, move)
            if reloaded is not None:
                kernel.play(reloaded, seat, move)
            step += 1
            moves_played += 1
            if step == reload_at:
                reloaded = kernel.thaw(state)
                assert kernel.thaw(state) is not reloaded
    return moves_played


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_working_state_and_the_engine_agree_move_for_move(game: Game):
    assert _agree(game, GAMES_PER_TYPE, 50_000) > GAMES_PER_TYPE


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_working_state_and_the_engine_agree_over_many_more_games(game: Game):
    _agree(game, 3 * GAMES_PER_TYPE, 900_000)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_thawing_and_playing_leave_the_state_alone(game: Game):
    kernel, _ = rules_and_policy(game)
    rng = random.Random(3)
    state = game.new_game(game.info.max_seats, {}, 3)
    for _ in range(25):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        state = game.apply(state, acting[0], rng.choice(game.legal_moves(state, acting[0])))
    copy = game.load_state(game.dump_state(state))
    fast = kernel.thaw(state)
    while acting := list(kernel.to_act(fast)):
        kernel.play(fast, acting[0], rng.choice(list(kernel.legal_moves(fast, acting[0]))))
    assert state == copy



@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_engine_playing_on_from_its_last_move_agrees_with_a_fresh_thaw(game: Game):
    """`Game.transition` keeps the working state it froze (games.checked: `spare`), and a move from the state it made
    plays on it rather than thawing again: the legal moves and the state after each move are those that a working
    state thawed afresh from the same frozen state gives, every seat count and option set, and no state it made
    changes as it plays on (a freeze that kept a list of the working state would)."""
    kernel, _ = rules_and_policy(game)
    variants = game.variants()
    kept = 0
    checked.spare[:] = [None] * checked._FLOOR  # as the module makes it (another test's threads may have raced)
    for i in range(max(20, GAMES_PER_TYPE // 5)):
        seats, options = variants[i % len(variants)]
        rng = random.Random(70_000 + i)
        state = game.new_game(seats, options, 70_000 + i)
        made = [(state, game.dump_state(state))] if i < 10 else []  # each state as it was made
        while acting := sorted(game.to_act(state)):
            seat = rng.choice(acting)
            spare = checked.spare[-1] if checked.spare else None
            kept += spare is not None and spare[0] is state  # the working state the last move froze
            fresh = kernel.thaw(state)  # by the rules directly: the engine's spare is left alone
            legal = list(game.legal_moves(state, seat))
            assert legal == list(kernel.legal_moves(fresh, seat)), (i, state)
            move = rng.choice(legal)
            after = game.apply(state, seat, move)
            kernel.play(fresh, seat, move)
            assert after == kernel.freeze(fresh), (i, state, move)
            hash(after)  # immutable all through: no list of the working state it was frozen from
            state = after
            if made:
                made.append((state, game.dump_state(state)))
        for step, (earlier, dumped) in enumerate(made):  # playing on from a state never changed it
            assert game.dump_state(earlier) == dumped, (i, step)
    assert kept > 0  # the engine did play on from its own states
    # one thread: the spare pair sits on the placeholders every taker put back, so the list never resizes
    # (games.checked: `_FLOOR`)
    assert checked.spare[: checked._FLOOR] == [None] * checked._FLOOR
    assert len(checked.spare) <= checked._FLOOR + 1


# The tuples of a state that the compiled engine's `freeze_after` shares when a move left them as they were:
# each field's tuple, and for a field of tuples, each tuple in it too.
SHARED_FIELDS = {
    "naishi": {"gifts": False, "hands": True, "lines": True, "piles": True, "discard": False, "court": False},
}


@pytest.mark.parametrize("name", sorted(SHARED_FIELDS))
def test_a_compiled_move_shares_the_tuples_it_left_unchanged(name: str):
    """The compiled engine's transition freezes through the game's `freeze_after` (games/checked.py): every tuple a
    move left equal to the state before's is that very tuple, not a copy (and the conformance tests above hold what
    it makes to a whole `freeze`). The pure path freezes every tuple anew, so there this says so and stops."""
    if not compiled.COMPILED:
        pytest.skip(f"the pure path freezes whole, sharing nothing (games/checked.py); {compiled.PATH}")
    game = registry.get(name)
    variants = game.variants()
    shared = fresh = 0
    for i in range(20):
        seats, options = variants[i % len(variants)]
        rng = random.Random(95_000 + i)
        state = game.new_game(seats, options, 95_000 + i)
        while acting := sorted(game.to_act(state)):
            seat = rng.choice(acting)
            after = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
            for field, nested in SHARED_FIELDS[name].items():
                pairs = [(getattr(state, field), getattr(after, field))]
                if nested:
                    pairs += list(zip(pairs[0][0], pairs[0][1], strict=True))
                for was, now in pairs:
                    if was == now:
                        assert now is was, (i, field, was)
                        shared += 1
                    else:
                        fresh += 1
            state = after
    assert shared > fresh > 0  # most of a move's tuples are shared, and the changed ones are new


def _records(value, found: list) -> None:
    """Every dataclass instance in `value` (a state, and the records in its fields: Hinode's plays, Naishi's hand
    knowledge, Zipang's decisions, Kung Fur Fight's boards and plans), depth first."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found.append(value)
        for f in dataclasses.fields(value):
            _records(getattr(value, f.name), found)
    elif isinstance(value, tuple):
        for item in value:
            _records(item, found)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_frozen_state_is_its_fields_in_order_and_a_value(game: Game):
    """A state and every record in it are made by an `__init__` written out (docs/architecture.md, *Frozen
    states*): made again from its fields in their order (as the codec makes it from a stored one, positionally), it
    is equal and hashes alike; `dataclasses.replace` changes the one field it names; and playing on from a state
    changes none of its records (they are immutable by contract, not frozen at run time)."""
    variants = game.variants()
    checked_records = 0
    for i in range(6):
        seats, options = variants[i % len(variants)]
        rng = random.Random(80_000 + i)
        state = game.new_game(seats, options, 80_000 + i)
        trail = []
        while acting := sorted(game.to_act(state)):
            if rng.random() < 0.2:
                records: list = []
                _records(state, records)
                trail.append((state, [(r, tuple(getattr(r, f.name) for f in dataclasses.fields(r))) for r in records]))
                for record in records:
                    fields = [getattr(record, f.name) for f in dataclasses.fields(record)]
                    again = type(record)(*fields)
                    assert again == record and hash(again) == hash(record), (i, type(record).__name__)
                    assert [getattr(again, f.name) for f in dataclasses.fields(again)] == fields
                    checked_records += 1
                name = next(f.name for f in dataclasses.fields(state) if type(getattr(state, f.name)) is int)
                changed = dataclasses.replace(state, **{name: getattr(state, name) + 1})
                assert getattr(changed, name) == getattr(state, name) + 1
                assert all(getattr(changed, f.name) is getattr(state, f.name) for f in dataclasses.fields(state)
                           if f.name != name)
            seat = rng.choice(acting)
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
        for _earlier, records in trail:  # nothing that played on changed a record it held
            for record, values in records:
                assert tuple(getattr(record, f.name) for f in dataclasses.fields(record)) == values
    assert checked_records > 50


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_threads_playing_through_one_engine_each_get_their_own_working_state(game: Game):
    """The service plays many games at once from a thread pool through one `Game`: the working state the engine
    keeps (games.checked: `spare`) is taken and put back atomically, so threads that play on from the very same
    state objects at once, switching as often as the interpreter can, play exactly the games each plays alone."""
    variants = game.variants()
    starts = {}
    for seed in range(90_000, 90_004):
        seats, options = variants[seed % len(variants)]
        starts[seed] = game.new_game(seats, options, seed)

    def play(seed: int) -> list[bytes]:
        rng = random.Random(seed)
        state = starts[seed]  # the same object in every thread that plays this seed
        dumps = []
        while acting := sorted(game.to_act(state)):
            seat = rng.choice(acting)
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
            dumps.append(game.dump_state(state))
        return dumps

    alone = {seed: play(seed) for seed in starts}
    jobs = [seed for seed in starts for _ in range(3)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=6) as pool:
            for _ in range(5):  # a race is a matter of chance: five rounds of it
                assert list(pool.map(play, jobs)) == [alone[seed] for seed in jobs]
    finally:
        sys.setswitchinterval(interval)
