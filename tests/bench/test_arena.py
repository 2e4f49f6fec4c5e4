"""`tabletop arena`: a few games only (the strength runs are long and live in docs/ai.md, not here)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from bench import arena
from games import registry
from tests.support.toygame import DESCRIPTOR
from tests.support.toygame import GAME as TOY


@pytest.fixture(autouse=True)
def toy_hosted():
    """The arena plays registered games: host the toy game (as TABLETOP_GAME_MODULES would) while these run."""
    hosted = DESCRIPTOR.name in registry.names()  # another fixture of this process may host it already
    registry.register(DESCRIPTOR)
    yield
    if not hosted:
        registry.unregister(DESCRIPTOR.name)


def test_a_tiny_arena_prints_win_rates_as_json(capsys):
    code = arena.main(["--game", "toy", "--players", "ismcts:30,random", "--games", "4", "--rotate", "--json",
                       "--quiet"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r["player"]: r for r in report["results"]}
    assert set(rows) == {"ismcts:30", "random"}
    assert sum(r["wins"] for r in rows.values()) == pytest.approx(4)  # ties are split, so wins add up to games
    for row in rows.values():
        assert row["seat_games"] == 4 and row["started"] + rows[_other(rows, row)]["started"] == 4
        low, high = row["ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1


def _other(rows, row):
    return next(name for name in rows if name != row["player"])


def test_results_do_not_depend_on_the_number_of_jobs():
    players = ["ismcts:20", "random", "random"]
    one = arena.run(TOY, players, 6, seed=3, rotate=True, options={"double": False}, jobs=1)
    two = arena.run(TOY, players, 6, seed=3, rotate=True, options={"double": False}, jobs=2)
    assert one == two


def test_rotation_moves_every_player_through_every_seat():
    seatings = [arena.seating(["a", "b", "c"], i, rotate=True) for i in range(3)]
    assert {tuple(s) for s in seatings} == {("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")}
    assert arena.seating(["a", "b"], 1, rotate=False) == ["a", "b"]


def test_wilson_interval():
    low, high = arena.wilson(60, 100)
    assert low == pytest.approx(0.502, abs=0.001) and high == pytest.approx(0.691, abs=0.001)
    assert arena.wilson(0, 0) == (0.0, 1.0)


def test_bad_input_is_refused(capsys):
    assert arena.main(["--game", "chess", "--players", "random,random"]) == 2
    assert arena.main(["--game", "toy", "--players", "random,wizard"]) == 2
    assert arena.main(["--game", "toy", "--players", "random"]) == 2  # too few seats
    assert "unknown" in capsys.readouterr().err


def test_plot_draws_a_chart_or_says_how_to_get_matplotlib(capsys, tmp_path):
    target = tmp_path / "arena.png"
    code = arena.main(["--game", "toy", "--players", "random,random", "--games", "2", "--quiet",
                       "--plot", str(target)])
    if importlib.util.find_spec("matplotlib") is None:
        assert code == 2 and "pip install" in capsys.readouterr().err
    else:
        assert code == 0 and target.stat().st_size > 0


def test_by_seat_gives_equal_players_a_row_per_seat(capsys):
    code = arena.main(["--game", "toy", "--players", "random,random", "--games", "6", "--by-seat", "--json",
                       "--quiet"])
    assert code == 0
    rows = {r["player"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert set(rows) == {"random@0", "random@1"}
    assert all(r["seat_games"] == 6 for r in rows.values())
    assert sum(r["wins"] for r in rows.values()) == pytest.approx(6)


def test_a_recorded_run_goes_on_where_it_stopped_and_refuses_another_runs_file(capsys, tmp_path):
    path = tmp_path / "run.jsonl"
    base = ["--game", "toy", "--players", "ismcts:20,random", "--seed", "5", "--rotate", "--json", "--quiet",
            "--record", str(path)]
    assert arena.main([*base, "--games", "3"]) == 0  # a run stopped after 3 of its games
    capsys.readouterr()
    first = path.read_text().splitlines()
    assert sorted(json.loads(line)["index"] for line in first) == [0, 1, 2]
    assert arena.main([*base, "--games", "5", "--jobs", "2"]) == 0  # goes on: plays games 3 and 4 only
    resumed = json.loads(capsys.readouterr().out)
    lines = path.read_text().splitlines()
    assert lines[:3] == first and sorted(json.loads(line)["index"] for line in lines) == [0, 1, 2, 3, 4]
    assert arena.main([*base[:-2], "--games", "5"]) == 0  # the same games played in one go give the same figures
    assert json.loads(capsys.readouterr().out)["results"] == resumed["results"]

    other = ["--game", "toy", "--players", "ismcts:20,random", "--seed", "6", "--rotate", "--quiet",
             "--record", str(path), "--games", "5"]
    assert arena.main(other) == 2  # another seed's games would mix into these figures
    assert "another run" in capsys.readouterr().err
    assert len(path.read_text().splitlines()) == 5


def test_when_both_seats_may_act_neither_always_moves_first():
    """Kung Fur Fight's plans are made by both seats at once; a fixed order (lowest seat first) made seat 0 finish
    every plan before seat 1 began, which the search's results showed. The arena draws who moves next, move by
    move, reproducibly from the game's seed."""
    game = registry.get("kung-fur-fight")
    records = [arena.play_game(game, ["random", "random"], index, 5, {}) for index in range(12)]
    assert {record.first for record in records} == {0, 1}
    assert arena.play_game(game, ["random", "random"], 3, 5, {}) == records[3]
    # `--simultaneous lowest` keeps the old order, to measure what it does to a player.
    lowest = [arena.play_game(game, ["random", "random"], index, 5, {}, "lowest") for index in range(12)]
    assert {record.first for record in lowest} == {0}

    # Within one plan, the two seats' moves interleave.
    seen: list[int] = []
    original = game.apply

    def spy(state, seat, move):
        if len(game.to_act(state)) > 1:
            seen.append(seat)
        return original(state, seat, move)

    game.apply = spy  # an instance attribute, removed below
    try:
        arena.play_game(game, ["random", "random"], 0, 5, {})
    finally:
        del game.apply
    switches = sum(a != b for a, b in zip(seen, seen[1:], strict=False))
    assert switches >= 4, seen


def test_the_ucb_variant_spec_turns_the_policy_picked_opponents_off():
    """"ismcts-ucb:<strength>" is the same search with UCB1 picks for the other seats (docs/ai.md compares it with
    the policy-picked opponents Naishi's playout policy asks for); "ismcts:<strength>" leaves the policy to decide."""
    from ai import ismcts

    ucb = arena.make_player("ismcts-ucb:300", "naishi")
    plain = arena.make_player("ismcts:300", "naishi")
    assert isinstance(ucb, ismcts.IsmctsPlayer) and ucb.config.opponent_policy is False
    assert ucb.budget == ismcts.Budget(iterations=300) and ucb.name == "ismcts-ucb:300"
    assert plain.config.opponent_policy is None
    policy = arena.make_player("ismcts-policyopp:300", "hinode")  # and the other way round, for a game without
    assert isinstance(policy, ismcts.IsmctsPlayer) and policy.config.opponent_policy is True
    assert policy.budget == ismcts.Budget(iterations=300) and policy.name == "ismcts-policyopp:300"
