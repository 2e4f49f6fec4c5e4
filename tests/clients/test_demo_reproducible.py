"""The same seed plays the same game on any machine at any load (issue 26, item 7).

`tabletop demo GAME --seed N --json` is played twice for every game, on a stack with two AI workers (one searching
in one process, the other in two: machines differ), while a CPU-burning process runs for the whole module. The
workers' wall-clock cap of games only the AI plays (TABLETOP_AI_BULK_SECONDS) is made tiny, so a search that still
stopped on the clock would stop at a different iteration in each run, and two workers would take a simultaneous
step's seats in whichever order they happen to finish. The two runs' JSON must be the same (but for the game id).
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys

import pytest

from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import LocalStack, wait_serving
from tabletop.stack.watchdog import WATCHDOG
from tests.clients.conftest import REPO, client_env, tabletop

pytestmark = pytest.mark.integration  # it starts processes

BUDGETS = "easy=40,normal=60,hard=80"  # iteration budgets, small enough for a cheap test


class TwoWorkerStack(LocalStack):
    """Redis, the service, an AI worker in one process per search, and a second worker in two."""

    token = secrets.token_urlsafe(32)  # both workers act for the AI seats with the service's credential

    def env(self) -> dict[str, str]:
        env = dict(super().env(), TABLETOP_AI_SERVICE_TOKEN=self.token)
        # The search at the worker's own priority (not 10 steps below, where the burner would starve it).
        env.update(TABLETOP_AI_BUDGETS=BUDGETS, TABLETOP_AI_BULK_SECONDS="0.005", TABLETOP_AI_BULK_NICE="0",
                   TABLETOP_LOG_LEVEL="warning")
        return env

    def start(self) -> TwoWorkerStack:
        super().start()
        try:
            port = free_port()
            env = dict(self.env(), TABLETOP_AI_GRPC_PORT=str(port), TABLETOP_AI_METRICS_PORT="0",
                       TABLETOP_AI_PROCESSES="2")
            second = self._spawn("AI worker 2", ("commands.cli", "ai-worker"), env)
            wait_serving(f"127.0.0.1:{port}", second, "AI worker 2")
        except BaseException:
            self.stop()
            raise
        return self


@pytest.fixture(scope="module")
def loaded_stack(tmp_path_factory):
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # the load, for the whole module
    WATCHDOG.guard(burner.pid)  # stopped with the stack should the test run be killed
    try:
        with TwoWorkerStack(data_dir=tmp_path_factory.mktemp("repro-redis"), metrics_port=0,
                            ai_metrics_port=0) as stack:
            yield stack
    finally:
        burner.kill()
        burner.wait()
        WATCHDOG.release(burner.pid)


def demo(target: str, game: str) -> dict:
    done = subprocess.run(tabletop("demo", game, "--seed", "7", "--json", "--target", target), env=client_env(),
                          cwd=REPO, capture_output=True, text=True, timeout=900)  # a bound against a hang
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["status"] == "finished", summary
    del summary["game_id"]
    return summary


@pytest.mark.parametrize("game", ["hinode", "kung-fur-fight", "naishi", "zipang"])
def test_a_seeded_demo_plays_the_same_game_twice_under_load(loaded_stack, game):
    first = demo(loaded_stack.target, game)
    second = demo(loaded_stack.target, game)
    assert first == second
