"""The `tabletop ...` command lines shown in README.md and docs/*.md run as written.

Every command line in a fenced code block is collected (after `$ `, `VAR=value` prefixes and `.venv/bin/`).
Each one must parse: its own argparse parser accepts the arguments (the parser is run for real, then the command
is stopped before it does anything). The cheap ones are then executed for real against a local stack that this
module starts (embedded Redis, game service, AI worker): `demo` (with a `--seed`, and small iteration budgets for
the AI: cheap, and the same game on any machine at any load), `watch` (a game the demo finished), `bench
engine`/`bench ai` (`--seconds` cut to 0.2, `--rounds` to 1) and `arena` (with `--games 1`, its searching players on 20
iterations). No command has a time limit, only a bound against a hang that no slow machine reaches. Interactive or
long ones (`play`, `run`, `serve`, `ai-worker`, `bench load`) are only parsed. Placeholders (GAME_ID, HOST:PORT,
the documented 127.0.0.1:50051) become the real game id and the test stack's address.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
PYTHON = sys.executable
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
ASSIGNMENT = re.compile(r"^[A-Z_][A-Z0-9_]*=")

# Commands that are executed for real (the rest are parsed only).
EXECUTED = {("demo",), ("watch",), ("bench", "engine"), ("bench", "ai"), ("arena",)}
SEARCHING_PLAYERS, ARENA_ITERATIONS = ("ismcts", "ismcts-ucb", "ismcts-policyopp", "cheat"), 20
# A bound against a hang, not a speed check: an arena game at normal's budget took 87 s at load 15.
HANG_BOUND = 900.0
# The AI of the test's stack: iteration budgets (no clock), small, so a demo is cheap and reproducible.
DEMO_BUDGETS = "easy=20,normal=30,hard=40"


def doc_commands() -> list[tuple[str, list[str]]]:
    """(file:line, the argv after `tabletop`) for every `tabletop` command line in a code block, in order."""
    found = []
    for path in DOC_FILES:
        text = path.read_text()
        for block in FENCE.finditer(text):
            first_line = text.count("\n", 0, block.start(1)) + 1
            for offset, line in enumerate(block.group(1).splitlines()):
                line = line.strip()
                if line.startswith("$ "):
                    line = line[2:]
                try:
                    words = shlex.split(line, comments=True)
                except ValueError:
                    continue
                while words and ASSIGNMENT.match(words[0]):
                    words.pop(0)
                if words and (words[0] == "tabletop" or words[0].endswith("/bin/tabletop")):
                    found.append((f"{path.relative_to(REPO)}:{first_line + offset}", words[1:]))
    return found


COMMANDS = doc_commands()
IDS = [f"{where} tabletop {' '.join(argv)}" for where, argv in COMMANDS]


def kind(argv: list[str]) -> tuple[str, ...]:
    return tuple(argv[:2]) if argv and argv[0] == "bench" else tuple(argv[:1])


def test_the_docs_show_the_commands_we_check():
    kinds = {kind(argv) for _, argv in COMMANDS}
    assert {("play",), ("watch",), ("demo",), ("arena",), ("bench", "ai"), ("bench", "load")} <= kinds, kinds


class _Parsed(Exception):
    def __init__(self, namespace: argparse.Namespace):
        self.namespace = namespace


def substitute(argv: list[str], target: str = "127.0.0.1:50051", game_id: str = "0" * 8) -> list[str]:
    return [target if word in ("HOST:PORT", "127.0.0.1:50051") else game_id if word == "GAME_ID" else word
            for word in argv]


@pytest.mark.parametrize(("where", "argv"), COMMANDS, ids=IDS)
def test_every_documented_command_parses(where, argv, monkeypatch):
    """The command's own parser accepts the arguments; the command stops right after parsing."""
    from commands import cli

    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        raise _Parsed(original(self, args, namespace))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    with pytest.raises(_Parsed) as parsed:
        cli.main(substitute(argv))
    options = getattr(parsed.value.namespace, "options", None)
    if isinstance(options, str):
        assert isinstance(json.loads(options), dict), f"{where}: --options is a JSON object"


# --- executed for real -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    from tabletop.stack.launcher import LocalStack

    class CheapAI(LocalStack):
        def env(self) -> dict[str, str]:
            return {**super().env(), "TABLETOP_AI_BUDGETS": DEMO_BUDGETS}

    with CheapAI(data_dir=tmp_path_factory.mktemp("docs-stack")) as running:
        yield running.target


def run_tabletop(argv: list[str], timeout: float = HANG_BOUND) -> subprocess.CompletedProcess:
    env = {**os.environ, "TABLETOP_METRICS_PORT": "0"}
    env.pop("TABLETOP_SERVICE_TARGET", None)
    done = subprocess.run([PYTHON, "-m", "commands.cli", *argv], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, f"tabletop {shlex.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}"
    return done


def cheap(argv: list[str]) -> list[str]:
    """The same command, made short: --seconds 0.2, --iterations 200, --rounds 1 (given to every `bench engine` /
    `bench ai`), --games 1, --throughput 2, an arena's searching players on 20 iterations and no --record; a demo
    gets a --seed (with the stack's iteration budgets, the same game every time, whatever the load)."""
    out = list(argv)
    for flag, value in (("--seconds", "0.2"), ("--iterations", "200"), ("--rounds", "1"), ("--games", "1"),
                        ("--throughput", "2")):
        if flag in out:
            out[out.index(flag) + 1] = value
    if kind(out) in {("bench", "engine"), ("bench", "ai")} and "--rounds" not in out:
        out += ["--rounds", "1"]  # each path once (both paths still run, alternated, each in a process of its own)
    if "--record" in out:  # a documented run's record file is the docs' data: never written, nor read as a resume
        at = out.index("--record")
        del out[at : at + 2]
    if kind(out) == ("demo",) and "--seed" not in out:
        out += ["--seed", "1"]
    if "--players" in out:  # an arena's searching players on 20 iterations: the command, not its strength
        at = out.index("--players") + 1
        out[at] = ",".join(f"{spec.partition(':')[0]}:{ARENA_ITERATIONS}"
                           if spec.partition(":")[0] in SEARCHING_PLAYERS else spec for spec in out[at].split(","))
    return out


def test_the_demos_run_here_are_cheap_and_reproducible():
    """Each documented demo runs with a seed, on a stack whose AI budgets are iterations alone: the same small game
    on any machine at any load, never a search that a slow machine stretches (issue 26, item 6)."""
    from ai.worker_config import parse_budgets

    demos = [cheap(substitute(argv)) for _, argv in COMMANDS if kind(argv) == ("demo",)]
    assert demos
    for argv in demos:
        assert "--seed" in argv, argv
    for budget in parse_budgets(DEMO_BUDGETS).values():
        assert budget.seconds is None and budget.iterations <= 50, budget


def test_documented_commands_run(stack):
    executed, game_ids, took = [], [], []
    runnable = [(where, argv) for where, argv in COMMANDS if kind(argv) in EXECUTED]
    # demos first: watch needs a game id.
    runnable.sort(key=lambda item: kind(item[1]) != ("demo",))
    seen: set[tuple[str, ...]] = set()
    for where, argv in runnable:
        argv = cheap(substitute(argv, stack, game_ids[0] if game_ids else "GAME_ID"))
        if tuple(argv) in seen:
            continue
        seen.add(tuple(argv))
        if kind(argv) in {("demo",), ("watch",)} and "--target" not in argv:
            argv += ["--target", stack]
        started = time.monotonic()
        if kind(argv) == ("demo",) and "--json" in argv:
            result = json.loads(run_tabletop(argv).stdout)
            assert result["status"] and result["game_id"]
            game_ids.append(result["game_id"])
        elif kind(argv) == ("watch",):
            assert game_ids, "a demo ran before the watch"
            assert run_tabletop(argv + ["--no-board"]).stdout.strip()
        else:
            assert run_tabletop(argv).stdout.strip()
        executed.append(f"{where}: tabletop {shlex.join(argv)}")
        took.append(f"{time.monotonic() - started:.1f} s")  # printed, never asserted
    print("\nexecuted:\n  " + "\n  ".join(f"{line} ({seconds})" for line, seconds in zip(executed, took, strict=True)))
    assert {kind(shlex.split(line.split(": tabletop ", 1)[1])) for line in executed} == EXECUTED & {
        kind(argv) for _, argv in COMMANDS}
