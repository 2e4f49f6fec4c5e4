"""bench.paths: both paths of a benchmark, and the checks that their runs made the same search."""

from __future__ import annotations

import random

from ai import ismcts
from bench import paths
from bench.ai import search_digest
from games import registry


def test_runs_that_agree_pass_and_say_what_they_agreed_on(capsys):
    checks = [(path, {"opening search": "give:advisor 9c1b"}) for path in ("compiled", "pure", "pure", "compiled")]
    assert paths._compare_checks(checks) == 0
    assert "the same on both paths in all 4 runs: opening search give:advisor 9c1b" in capsys.readouterr().out


def test_a_run_that_searched_otherwise_fails_the_bench_and_is_named(capsys):
    checks = [("compiled", {"opening search": "a 1"}), ("pure", {"opening search": "a 2"})]
    assert paths._compare_checks(checks) == 1
    err = capsys.readouterr().err
    assert "NOT the same on both paths" in err and "run 2 (pure)" in err


def test_no_checks_nothing_to_compare():
    assert paths._compare_checks([]) == 0


def test_the_digest_tells_searches_apart_by_their_root_statistics():
    game = registry.get("naishi")
    state = game.new_game(2, {}, 3)
    seat = min(game.to_act(state))
    view = game.view(state, seat)

    def digest(iterations: int, seed: int) -> str:
        return search_digest(ismcts.search(game, view, seat, ismcts.Budget(iterations=iterations),
                                           random.Random(seed)))

    assert digest(60, 1) == digest(60, 1)  # a seeded search of an iteration budget is the same search
    assert len({digest(60, 1), digest(61, 1), digest(60, 2)}) == 3
