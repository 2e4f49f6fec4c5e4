"""The web table's own code has its own tests and lint (issue 28, item 7): Vitest runs clients/web/tests/unit (the
game log's lines, the seat counts, errors in plain words, cards in the game's own words) and ESLint checks the
page's code and its tests, with no browser and no server. `make test` runs them here; without npm, or before
`npm ci` has installed them (`make web` does), each test skips and says why."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.frontends.test_frontends import WEB

# npm and node run: not in the fast tier (make test-fast starts no process).
pytestmark = pytest.mark.integration


def npm_or_skip(tool: str) -> str:
    npm = shutil.which("npm")
    if not npm:
        pytest.skip("npm is not installed (Node.js >= 20.19 runs the web table's unit tests and lint)")
    if not (WEB / "node_modules" / tool).is_dir():
        pytest.skip(f"{tool} is not installed in clients/web: run `make web` (npm ci) first")
    return npm


def test_the_pages_unit_tests_pass():
    npm = npm_or_skip("vitest")
    # The generated code the tests import (src/gen) is made by `npm run generate` (also part of `make web`).
    subprocess.run([npm, "run", "--silent", "generate"], cwd=WEB, check=True, timeout=300)
    ran = subprocess.run([npm, "test", "--silent"], cwd=WEB, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, (ran.stdout + ran.stderr)[-4000:]
    assert " passed" in ran.stdout, ran.stdout[-2000:]


def test_the_pages_code_passes_lint():
    npm = npm_or_skip("eslint")
    ran = subprocess.run([npm, "run", "--silent", "lint"], cwd=WEB, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0, (ran.stdout + ran.stderr)[-4000:]
