"""A game is a plugin: a game from outside the built-in packages, registered through the public API
(games.registry.register, here tests/support/toy_plugin.py), is hosted by a real game service and played by a real
AI worker, both told only TABLETOP_GAME_MODULES; nothing else in the tree names it."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from google.protobuf import struct_pb2

from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.ai.test_worker import _service, _stop, _worker

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = "tests.support.toy_plugin"


def test_no_module_outside_the_plugin_and_its_tests_names_the_toy_game():
    named = subprocess.run(["git", "grep", "-l", "-e", "toygame", "-e", "toy_plugin", "--", "*.py"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split()
    assert named and all(path.startswith("tests/") for path in named), named


def test_an_outside_game_is_played_to_the_end_by_a_human_and_the_ai(redis_db_url, tmp_path):
    plugin = {"TABLETOP_GAME_MODULES": PLUGIN, "TABLETOP_AI_BUDGETS": "easy=30,normal=30,hard=30"}
    with _service(redis_db_url, tmp_path, **plugin) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "plugin-worker", **plugin)
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                types = {t.name: t for t in stub.ListGameTypes(pb.ListGameTypesRequest(), timeout=10).game_types}
                assert types["toy"].title == "Secret Duel" and types["toy"].view_type == "google.protobuf.Struct"
                seats = [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann"),
                         pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")]
                created = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=seats, start=True), timeout=10)
                auth = (("authorization", f"Bearer {created.seat_tokens[0].token}"),)
                rng = random.Random(5)
                moves = 0
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth,
                                          timeout=10).state
                    if state.status == pb.GAME_STATUS_FINISHED:
                        break
                    if 0 not in state.to_act:
                        time.sleep(0.05)
                        continue
                    view = struct_pb2.Struct()
                    assert state.view.Unpack(view) and len(view["hand"]) == len(state.legal_moves)
                    move = rng.choice(list(state.legal_moves))
                    assert move.label.startswith("You commit ")
                    try:
                        stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id,
                                                         expected_version=state.version), metadata=auth, timeout=10)
                    except grpc.RpcError as error:  # the AI committed its card meanwhile: look again, decide again
                        assert error.code() == grpc.StatusCode.ABORTED, error
                        continue
                    moves += 1
                assert state.status == pb.GAME_STATUS_FINISHED, "the AI seat played its part"
                assert moves == 3, "three rounds, one commitment each"
                score = stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10)
                assert score.final and sorted(s for g in score.ranking for s in g.seats) == [0, 1]
        finally:
            _stop(worker)


@pytest.mark.integration  # it starts processes
def test_a_module_that_cannot_be_imported_is_named_at_start():
    done = subprocess.run([sys.executable, "-m", "commands.cli", "arena", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "TABLETOP_GAME_MODULES": "no.such.mod"})
    assert done.returncode == 2 and "TABLETOP_GAME_MODULES" in done.stderr and "no.such.mod" in done.stderr
