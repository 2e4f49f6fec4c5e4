"""`tabletop demo` plays an all-AI game to its end; `--json` prints one JSON object whose breakdowns add up to
the totals. `tabletop watch` replays a game for a spectator."""

from __future__ import annotations

import json

import pytest

from tests.clients.conftest import run_tabletop as run

SEATS = {"hinode": 4, "naishi": 2}


def assert_finished_game(summary: dict, game_type: str) -> None:
    assert summary["game_type"] == game_type
    assert summary["status"] == "finished" and summary["final"] is True
    assert summary["moves"] > 0
    assert [s["seat"] for s in summary["scores"]] == list(range(SEATS[game_type]))
    for seat in summary["scores"]:
        assert seat["breakdown"], "a breakdown by the rulebook's categories"
        assert sum(seat["breakdown"].values()) == seat["total"]
    ranked = [seat for group in summary["ranking"] for seat in group]
    assert sorted(ranked) == list(range(SEATS[game_type]))
    totals = {s["seat"]: s["total"] for s in summary["scores"]}
    best = [totals[s] for s in summary["ranking"][0]]
    assert min(best) == max(totals.values()), "the first place has the highest total"


@pytest.mark.integration  # it starts processes
def test_demo_hinode_json_self_contained():
    # No --target: the demo starts its own stack and stops it.
    done = run("demo", "hinode", "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, "--json prints one JSON object and nothing else"
    assert_finished_game(json.loads(lines[0]), "hinode")


@pytest.mark.parametrize("game_type", ["naishi", "hinode"])
def test_demo_json_against_a_running_service(stack, game_type):
    done = run("demo", game_type, "--seed", "7", "--json", "--target", stack.target)
    assert done.returncode == 0, done.stderr
    assert_finished_game(json.loads(done.stdout), game_type)


def test_the_same_seed_replays_the_same_demo(stack):
    # The deal comes from the seed and every AI move from the position it sees, so the whole game repeats.
    summaries = []
    for seed in ("7", "7", "8"):
        done = run("demo", "naishi", "--seed", seed, "--json", "--target", stack.target)
        assert done.returncode == 0, done.stderr
        summary = json.loads(done.stdout)
        summary.pop("game_id")
        summaries.append(summary)
    assert summaries[0] == summaries[1]
    assert summaries[0] != summaries[2]


def test_demo_prints_each_move_then_watch_replays_the_game(stack):
    done = run("demo", "naishi", "--target", stack.target)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    game_id = out.split("Game ", 1)[1].split(":", 1)[0]
    moves = [line for line in out.splitlines() if line.startswith("  v") and " AI " in line]
    assert len(moves) >= 3, out
    assert "Final score" in out and "ranking:" in out

    watched = run("watch", game_id, "--target", stack.target)
    assert watched.returncode == 0, watched.stderr
    assert "the game was created" in watched.stdout and "the game was started" in watched.stdout
    assert "River:" in watched.stdout, "the board after each event"
    assert "Final score" in watched.stdout
    # The spectator sees the same public story as the demo did.
    for line in moves:
        assert line in watched.stdout


def test_unknown_game_is_an_error_with_the_hosted_list(stack):
    done = run("demo", "chess", "--target", stack.target)
    assert done.returncode != 0
    assert "hinode" in done.stderr and "naishi" in done.stderr
