"""Golden playthroughs: recorded games replayed move by move must end with the recorded scores.

A change that alters a rule, a move id or the deal from a seed shows up here. After an intended change,
regenerate with `.venv/bin/python -m tests.hinode.test_golden` and review the diff of tests/hinode/golden/.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.hinode import GAME

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "four_basic": (4, {"start_player": "seat1"}, 101),
    "two_advanced": (2, {"advanced": True}, 202),
    "one_advanced_override": (1, {"advanced": True, "nawabari_vp": {"white": [12, -3]}}, 303),
}


def _record(players: int, options: dict, seed: int) -> dict:
    rng = random.Random(seed)
    state = GAME.new_game(players, options, seed)
    moves = []
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        move = rng.choice(GAME.legal_moves(state, seat))
        moves.append([seat, move.id])
        state = GAME.apply(state, seat, move)
    return {"players": players, "options": options, "seed": seed, "moves": moves, "score": _score(state)}


def _score(state) -> dict:
    score = GAME.score(state)
    return {
        "seats": [dict(s.breakdown) for s in score.seats],
        "ranking": [list(group) for group in score.ranking],
    }


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough_replays(name):
    recorded = json.loads((GOLDEN / f"{name}.json").read_text())
    state = GAME.new_game(recorded["players"], recorded["options"], recorded["seed"])
    for seat, move_id in recorded["moves"]:
        state = GAME.apply_id(state, seat, move_id)
    assert GAME.is_over(state)
    assert _score(state) == recorded["score"]


if __name__ == "__main__":
    for game_name, args in GAMES.items():
        (GOLDEN / f"{game_name}.json").write_text(json.dumps(_record(*args), indent=1) + "\n")
        print(f"wrote {game_name}")
