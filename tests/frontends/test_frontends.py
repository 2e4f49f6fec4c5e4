"""Frontends in other languages, run for real against a local stack (Redis, service, AI worker and the gRPC-Web
gateway serving the built web table, as `make run` starts them):

- the web table, driven in a real headless Chromium (Debian's chromium, playwright-core from npm): a Naishi game
  against an AI created and played to its end by clicking, the final score shown equal to GetScore, screenshots
  of the board saved;
- the Node.js example client (clients/examples/node), from the service's .proto file and the descriptors that
  ListGameTypes sends for each game;
- the runnable snippets of docs/frontends.md (Python, Node.js over native gRPC, and the browser's gRPC-Web code).

Without Node.js, npm packages, the web build or a browser each test skips and says what is missing (`make test`
installs the npm packages and builds the table when npm is present; `.ci/run` installs Chromium).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from tabletop.stack.launcher import WEB_DIST, LocalStack
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.clients.conftest import FAST_BUDGETS

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "clients" / "web"
NODE_EXAMPLE = REPO / "clients" / "examples" / "node"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = REPO / "var" / "screenshots"
DOC = REPO / "docs" / "frontends.md"
RUNNABLE = re.compile(r"<!-- run: ([\w-]+) -->\s*```\w*\n(.*?)```", re.DOTALL)


def node_or_skip() -> str:
    node = shutil.which("node")
    if not node:
        pytest.skip("node is not installed (Node.js >= 20 runs the JavaScript clients)")
    return node


def node_example_or_skip() -> str:
    node = node_or_skip()
    if not (NODE_EXAMPLE / "node_modules" / "@connectrpc" / "connect-node").is_dir():
        pytest.skip(f"npm packages missing in {NODE_EXAMPLE.relative_to(REPO)}: run `make test` (npm ci) first")
    subprocess.run(["npm", "run", "--silent", "generate"], cwd=NODE_EXAMPLE, check=True, timeout=120)
    return node


class WebStack(LocalStack):
    def env(self) -> dict[str, str]:
        env = super().env()
        env["TABLETOP_AI_BUDGETS"] = FAST_BUDGETS
        return env


@pytest.fixture(scope="module")
def web_stack(tmp_path_factory):
    from tabletop.stack.embedded_redis import free_port

    with WebStack(data_dir=tmp_path_factory.mktemp("web-redis"), gateway_port=free_port(),
                  static_dir=WEB_DIST if (WEB_DIST / "index.html").is_file() else None) as running:
        yield running


def native_score(target: str, game_id: str) -> pb.GetScoreResponse:
    with grpc.insecure_channel(target) as channel:
        return game_service_pb2_grpc.GameServiceStub(channel).GetScore(pb.GetScoreRequest(game_id=game_id))


def browser_or_skip() -> None:
    node_or_skip()
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)")
    if not (WEB_DIST / "index.html").is_file():
        pytest.skip("the web table is not built: `make web` (needs Node.js >= 20.19 and npm)")
    if not (WEB / "node_modules" / "playwright-core").is_dir():
        pytest.skip("playwright-core is not installed in clients/web: `make web` (npm ci)")
def run_page_script(tmp_path_factory, script: str, timeout: float) -> dict:
    """Run a browser script of clients/web/tests that checks pages with axe-core (`node tests/SCRIPT URL`) against a
    local stack of its own, and return the JSON line it prints last (its page errors none). With
    TABLETOP_SCREENSHOTS=1 the script saves its screenshots in docs/img. Skips, saying why, without a browser or
    axe-core."""
    from tabletop.stack.embedded_redis import free_port

    browser_or_skip()
    if not (WEB / "node_modules" / "axe-core").is_dir():
        pytest.skip("axe-core is not installed in clients/web: `make web` (npm ci)")
    env = {**os.environ, "CHROMIUM": CHROMIUM}
    if os.environ.get("TABLETOP_SCREENSHOTS") == "1":
        (REPO / "docs" / "img").mkdir(exist_ok=True)
        env["SCREENSHOTS"] = str(REPO / "docs" / "img")
    with WebStack(data_dir=tmp_path_factory.mktemp("page-redis"), gateway_port=free_port(),
                  static_dir=WEB_DIST) as stack:
        ran = subprocess.run(["node", f"tests/{script}", stack.gateway_url + "/"], cwd=WEB,
                             capture_output=True, text=True, timeout=timeout, env=env)
    assert ran.returncode == 0, ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert not result["pageErrors"], result["pageErrors"]
    return result




def test_a_naishi_game_is_played_to_its_end_in_a_real_browser(web_stack, tmp_path):
    browser_or_skip()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    played = subprocess.run(["node", "tests/play_game.mjs", web_stack.gateway_url + "/", str(SCREENSHOTS)],
                            cwd=WEB, capture_output=True, text=True, timeout=420,
                            env={**os.environ, "CHROMIUM": CHROMIUM})
    assert played.returncode == 0, played.stderr[-3000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["status"] == "FINISHED" and result["moves"] > 0 and not result["pageErrors"]
    assert result["viewType"] == "tabletop.v1.NaishiView" and not result["genericBoard"]  # Naishi's own board
    assert result["hint"] and result["hint"]["moveId"]  # SuggestMove answered through the browser path
    score = native_score(web_stack.target, result["gameId"])
    assert score.final
    assert result["totals"] == [s.total for s in score.seats]  # what the page shows is what GetScore says
    for shot in result["screenshots"]:
        assert Path(shot).stat().st_size > 10_000


def test_a_friend_finds_the_game_in_the_lobby_joins_by_code_and_both_tables_follow_it(web_stack):
    browser_or_skip()
    played = subprocess.run(["node", "tests/join_and_lobby.mjs", web_stack.gateway_url + "/"], cwd=WEB,
                            capture_output=True, text=True, timeout=300, env={**os.environ, "CHROMIUM": CHROMIUM})
    assert played.returncode == 0, played.stderr[-3000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["inLobby"] and "Player 2" in result["boSeat"] and result["boSeesGiftChosen"]
    # Neither typed a name: the service's distinct defaults, never "You", which the other player would read
    assert "naishi: Player 1, Seat 2 (1 open)" in result["lobbyText"], result["lobbyText"]
    assert result["statusAnn"] == result["statusBo"] == "IN_PROGRESS"
    with grpc.insecure_channel(web_stack.target) as channel:
        state = game_service_pb2_grpc.GameServiceStub(channel).GetState(
            pb.GetStateRequest(game_id=result["gameId"])).state
    assert [s.kind for s in state.seats] == [pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_HUMAN]
    assert [s.name for s in state.seats] == ["Player 1", "Player 2"]


def test_the_node_example_plays_a_game_to_its_end(web_stack):
    node = node_example_or_skip()
    played = subprocess.run([node, "play.js", "--target", web_stack.target, "--json"], cwd=NODE_EXAMPLE,
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr[-3000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["final"] and result["moves"] > 0 and result["views"] >= result["moves"]
    assert result["refused"]["code"] == "FailedPrecondition" and result["refused"]["reason"] == "UNKNOWN_MOVE"
    assert result["refused"]["domain"] == "tabletop.dev"
    assert result["totals"] == [s.total for s in native_score(web_stack.target, result["gameId"]).seats]


def _snippets() -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in RUNNABLE.finditer(DOC.read_text())]


def test_the_guide_has_a_runnable_snippet_per_language():
    assert {kind for kind, _ in _snippets()} == {"python", "node", "browser"}


@pytest.mark.parametrize("index", range(len(_snippets())), ids=[k for k, _ in _snippets()])
@pytest.mark.integration  # it starts processes
def test_the_guides_snippets_run(web_stack, index, tmp_path):
    kind, code = _snippets()[index]
    code = code.replace("127.0.0.1:50051", web_stack.target).replace("http://127.0.0.1:8080",
                                                                       web_stack.gateway_url)
    if kind == "python":
        ran = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    else:
        node = node_example_or_skip()
        script = NODE_EXAMPLE / f".snippet-{kind}-{os.getpid()}.mjs"  # beside gen/ and node_modules/
        script.write_text(code)
        try:
            ran = subprocess.run([node, script.name], cwd=NODE_EXAMPLE, capture_output=True, text=True,
                                 timeout=300)
        finally:
            script.unlink()
    assert ran.returncode == 0, f"{kind} snippet failed:\n{ran.stdout[-2000:]}\n{ran.stderr[-3000:]}"
    assert "final score" in ran.stdout.lower(), ran.stdout[-2000:]
