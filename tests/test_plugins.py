"""A game is a plugin: a fifth game touches its own folder, its own .proto and one registration, nothing else.

tests/support/toy_plugin is such a game (Secret Duel, the toy engine of tests/support/toygame.py, with messages of
its own in toy.proto, compiled here as its build would, its wire and one `register` call). Real service, worker and
gateway processes host it, told only TABLETOP_GAME_MODULES (and where its compiled messages are); a person plays it
through the gRPC-Web gateway against the AI, and every client reads its typed messages with no code generated from
toy.proto: this test through the descriptors ListGameTypes sends, the Node.js example, and the web table in a real
browser (drawing it on the generic board).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from contextlib import aclosing
from pathlib import Path

import aiohttp
import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from grpc_tools import protoc

from clients.grpcweb import GrpcWebError, GrpcWebStub
from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import WEB_DIST, LocalStack
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.clients.conftest import FAST_BUDGETS
from tests.frontends.test_frontends import CHROMIUM, NODE_EXAMPLE, WEB, browser_or_skip, node_example_or_skip

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = ROOT / "tests" / "support" / "toy_plugin"
SERVICE = pb.DESCRIPTOR.services_by_name["GameService"]
# What would name the toy game in a file of ours; the docs may point at it as the example of a plugin.
NAMES = ("toygame", "toy_plugin", "toy_pb2", "toy.v1", "toy.proto", "Secret Duel")


def test_no_file_outside_the_tests_names_the_toy_game():
    found = ["-e" + name for name in NAMES]
    named = subprocess.run(["git", "grep", "-l", "-F", *found, "--", ".", ":!tests/", ":!*.md"], cwd=ROOT,
                           capture_output=True, text=True).stdout.split()
    assert not named, named
    inside = subprocess.run(["git", "grep", "-l", "-F", *found, "--", "tests/"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    assert "tests/support/toy_plugin/__init__.py" in inside  # the search itself finds what it looks for


class PluginStack(LocalStack):
    """Redis, the game service, the AI worker and the gateway (serving the web table when it is built), hosting the
    toy plugin besides the built-in games."""

    def __init__(self, compiled: Path, **kwargs):
        super().__init__(**kwargs)
        self.compiled = compiled

    def env(self) -> dict[str, str]:
        env = super().env()
        path = [str(self.compiled), str(ROOT), *filter(None, [env.get("PYTHONPATH")])]
        env.update(TABLETOP_GAME_MODULES="tests.support.toy_plugin", TABLETOP_AI_BUDGETS=FAST_BUDGETS,
                   PYTHONPATH=os.pathsep.join(path))
        return env


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    compiled = tmp_path_factory.mktemp("toy-plugin-build")
    assert protoc.main(["protoc", f"-I{PLUGIN}", f"--python_out={compiled}", "toy.proto"]) == 0
    with PluginStack(compiled, data_dir=tmp_path_factory.mktemp("plugin-redis"), gateway_port=free_port(),
                     static_dir=WEB_DIST if (WEB_DIST / "index.html").is_file() else None) as running:
        yield running


def message_classes(game_type: pb.GameType) -> dict[str, type]:
    """The game's view, move and score messages, made from the descriptors that ListGameTypes sent with it, as a
    client with no code generated from the game's .proto makes them."""
    pool = descriptor_pool.DescriptorPool()
    for file in descriptor_pb2.FileDescriptorSet.FromString(game_type.file_descriptor_set).file:
        pool.Add(file)
    names = (game_type.view_type, game_type.move_type, game_type.score_type)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(name)) for name in names}


def unpack(packed, message_type: type):
    message = message_type()
    assert packed.Unpack(message), f"{packed.type_url} is not a {message.DESCRIPTOR.full_name}"
    return message


async def play_through_the_gateway(gateway_url: str) -> dict:
    async with aiohttp.ClientSession() as session:
        stub = GrpcWebStub(session, gateway_url, SERVICE)
        types = {t.name: t for t in (await stub.ListGameTypes(pb.ListGameTypesRequest(), timeout=10)).game_types}
        toy = types["toy"]
        assert (toy.title, toy.view_type, toy.move_type, toy.score_type) == (
            "Secret Duel", "toy.v1.ToyView", "toy.v1.ToyMove", "toy.v1.ToyScoreBreakdown")
        messages = message_classes(toy)
        view_type, move_type, score_type = (messages[n] for n in (toy.view_type, toy.move_type, toy.score_type))
        seats = [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann"), pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")]
        created = await stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=seats, start=True), timeout=10)
        game_id = created.game_id
        auth = (("authorization", f"Bearer {created.seat_tokens[0].token}"),)
        rng = random.Random(5)
        moves = 0
        for _ in range(50):
            state = (await stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=auth, timeout=10)).state
            if state.status == pb.GAME_STATUS_FINISHED:
                break
            if 0 not in state.to_act:  # the AI decides: follow the game until it is our turn again
                watch = pb.WatchGameRequest(game_id=game_id, from_version=state.version)
                async with aclosing(stub.WatchGame(watch, metadata=auth, timeout=60)) as updates:
                    async for update in updates:
                        if update.state.status == pb.GAME_STATUS_FINISHED or 0 in update.state.to_act:
                            break
                continue
            view = unpack(state.view, view_type)
            assert view.HasField("seat") and view.seat == 0 and len(view.hand) == 3 - moves
            typed = {m.id: unpack(m.move, move_type).card for m in state.legal_moves}
            assert typed == {f"card:{card}": card for card in view.hand}, "each legal move is a card of the hand"
            move = rng.choice(list(state.legal_moves))
            assert move.label.startswith("You commit ")
            try:
                await stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=move.id,
                                                       expected_version=state.version), metadata=auth, timeout=10)
            except GrpcWebError as error:  # the AI committed its card meanwhile: look again, decide again
                assert error.code() == grpc.StatusCode.ABORTED, error
                continue
            moves += 1
        spectator = unpack((await stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10)).state.view,
                           view_type)
        score = await stub.GetScore(pb.GetScoreRequest(game_id=game_id), timeout=10)
        return {"status": state.status, "moves": moves, "spectator": spectator, "score": score,
                "breakdowns": [unpack(s.typed_breakdown, score_type).cards for s in score.seats]}


def test_a_person_plays_the_toy_game_through_the_gateway_against_the_ai(stack):
    played = asyncio.run(play_through_the_gateway(stack.gateway_url))
    assert played["status"] == pb.GAME_STATUS_FINISHED, "the AI seat played its part"
    assert played["moves"] == 3, "three rounds, one commitment each"
    spectator = played["spectator"]
    assert not spectator.HasField("seat") and not spectator.hand and len(spectator.revealed) == 3
    score = played["score"]
    assert score.final and sorted(s for g in score.ranking for s in g.seats) == [0, 1]
    assert played["breakdowns"] == [s.total for s in score.seats] == list(spectator.points)


def native_totals(target: str, game_id: str) -> list[int]:
    with grpc.insecure_channel(target) as channel:
        score = game_service_pb2_grpc.GameServiceStub(channel).GetScore(pb.GetScoreRequest(game_id=game_id),
                                                                        timeout=10)
    assert score.final
    return [s.total for s in score.seats]


def test_the_node_example_plays_the_toy_game(stack):
    node = node_example_or_skip()
    played = subprocess.run([node, "play.js", "--target", stack.target, "--game", "toy", "--json"], cwd=NODE_EXAMPLE,
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr[-3000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["final"] and result["moves"] == 3 and result["views"] >= 3
    assert result["viewType"] == "toy.v1.ToyView"
    assert result["totals"] == native_totals(stack.target, result["gameId"])


def test_the_web_table_plays_the_toy_game_on_the_generic_board(stack, tmp_path):
    browser_or_skip()
    played = subprocess.run(["node", "tests/play_game.mjs", stack.gateway_url + "/", str(tmp_path), "--game", "toy",
                             "--hint-at", "1"], cwd=WEB, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "CHROMIUM": CHROMIUM})
    assert played.returncode == 0, played.stderr[-3000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["viewType"] == "toy.v1.ToyView" and result["genericBoard"]
    assert result["status"] == "FINISHED" and result["moves"] == 3 and not result["pageErrors"]
    assert result["hint"] and result["hint"]["moveId"].startswith("card:")
    assert result["totals"] == native_totals(stack.target, result["gameId"])


@pytest.mark.integration  # it starts processes
def test_a_module_that_cannot_be_imported_is_named_at_start():
    done = subprocess.run([sys.executable, "-m", "commands.cli", "arena", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "TABLETOP_GAME_MODULES": "no.such.mod"})
    assert done.returncode == 2 and "TABLETOP_GAME_MODULES" in done.stderr and "no.such.mod" in done.stderr
