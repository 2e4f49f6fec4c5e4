"""The cheating baseline: it searches the true state (the unknown cards reshuffled), it plays in the arena, and the
AI worker can neither import nor build it."""

from __future__ import annotations

import ast
import pathlib
import random
import subprocess
import sys

import pytest

from ai import ismcts
from ai.worker_config import parse_budgets
from bench import arena, cheating
from games import registry

REPO = pathlib.Path(__file__).resolve().parents[2]


def _position(name: str, steps: int, seats: int = 2):
    game = registry.get(name)
    rng = random.Random(4)
    state = game.new_game(seats, {}, 4)
    for _ in range(steps):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    return game, state


@pytest.mark.parametrize("name,steps", [("naishi", 8), ("hinode", 20), ("zipang", 6)])
def test_the_truth_keeps_every_hand_and_reshuffles_only_what_nobody_saw(name, steps):
    game, state = _position(name, steps)
    truth = cheating.clairvoyance(name)
    drawn = [truth(state, random.Random(i)) for i in range(20)]
    for other in drawn:
        assert other.hands[: game.num_seats(state)] == state.hands[: game.num_seats(state)]
        for seat in range(game.num_seats(state)):  # nobody can tell the difference, whatever seat
            assert game.view(other, seat) == game.view(state, seat)
    if name == "naishi":
        assert len({d.piles for d in drawn}) > 1  # the River below its top cards is reshuffled
    elif name == "zipang":
        assert len({d.deck for d in drawn}) > 1  # the draw pile is dealt anew, with the face-down discard
        assert all(sorted(d.deck + d.facedown) == sorted(state.deck + state.facedown) for d in drawn)
    else:
        assert len({d.hands[3] for d in drawn}) > 1  # a proxy's pile is reshuffled (seats 2 and 3 are proxies)


@pytest.mark.parametrize("name,steps", [("naishi", 8), ("hinode", 20), ("zipang", 6)])
def test_every_iteration_of_the_cheaters_search_plays_on_the_truth(name, steps):
    """The search draws each iteration's working state with `sample_work`, not `sample`: the clairvoyant game's
    must be the truth too (the game's own, reached through the wrapper, drew honestly from the view)."""
    game, state = _position(name, steps, 4 if name == "hinode" else 2)
    seat = min(game.to_act(state))
    clairvoyant = cheating._Clairvoyant(game, state)
    view = game.view(state, seat)
    for i in range(20):
        drawn = game.rules.freeze(clairvoyant.sample_work(view, random.Random(i)))
        assert drawn.hands[: game.num_seats(state)] == state.hands[: game.num_seats(state)], i


def test_the_cheater_needs_the_state_and_plays_in_the_arena():
    game, state = _position("naishi", 8)
    player = arena.make_player("cheat:30", "naishi")
    seat = min(game.to_act(state))
    moves = game.legal_moves(state, seat)
    with pytest.raises(TypeError, match="needs the State"):
        player.choose_with_state(game, game.view(state, seat), seat, moves, random.Random(1))
    assert player.choose_with_state(game, state, seat, moves, random.Random(1)) in moves
    record = arena.play_game(game, ["cheat:20", "ismcts:20"], 0, 1, {})
    assert record.moves > 10 and record.winners
    with pytest.raises(ValueError, match="no cheating baseline for kung-fur-fight"):
        arena.make_player("cheat:normal", "kung-fur-fight")


@pytest.mark.integration  # it starts processes
def test_the_worker_cannot_reach_the_cheating_baseline():
    # 1. Importing every worker module loads neither the cheating baseline nor the arena.
    workers = sorted(f"ai.{path.stem}" for path in (REPO / "ai").glob("worker*.py"))
    assert "ai.worker" in workers
    code = (f"import sys, {', '.join(workers)}; "
            "print(sorted(m for m in sys.modules if m in ('bench.cheating', 'bench.arena')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
    # 2. No module but the arena imports it (the product packages import nothing of bench/ at all).
    packages = [top for top in REPO.iterdir() if (top / "__init__.py").exists() and top.name != "tests"]
    importers = []
    for path in (path for top in packages for path in top.rglob("*.py")):
        where = path.relative_to(REPO).parent.parts
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                # a relative import (`from . import cheating` in bench/) counts from the module's own package
                base = ".".join([*where[: len(where) - node.level + 1], *([node.module] if node.module else [])]) \
                    if node.level else node.module or ""
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            if "bench.cheating" in names:
                importers.append(str(path.relative_to(REPO)))
    assert importers == ["bench/arena.py"], importers
    # 3. No strength the worker reads names it.
    with pytest.raises(ValueError):
        parse_budgets("normal=cheat:normal")
    with pytest.raises(ValueError):
        ismcts.parse_budget("cheat:normal")
