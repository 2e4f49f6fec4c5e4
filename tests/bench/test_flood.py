"""`tabletop bench flood` (a short run; docs/benchmarks.md has the full one): the flooder is refused with
RESOURCE_EXHAUSTED under the Kubernetes base's quotas while the honest player's AI seat keeps replying."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def test_the_flooder_is_refused_and_the_honest_player_is_answered():
    run = subprocess.run([sys.executable, "-m", "commands.cli", "bench", "flood", "--replies", "3", "--strength",
                          "easy", "--suggesters", "4"], cwd=Path(__file__).resolve().parents[2],
                         capture_output=True, text=True, timeout=400)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"during flood: AI \(easy\) replies median [\d.]+ s, .* over 3 replies", run.stdout), run.stdout
    assert re.search(r"CreateGame RESOURCE_EXHAUSTED QUOTA_(OPEN_GAMES|CREATE_RATE) \d+", run.stdout), run.stdout
    assert re.search(r"SuggestMove RESOURCE_EXHAUSTED QUOTA_SUGGESTIONS \d+", run.stdout), run.stdout
