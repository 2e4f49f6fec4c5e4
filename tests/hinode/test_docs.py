"""docs/rules/hinode.md cites the tests that check each rule: every citation must name a real test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_cited_test_exists():
    text = (ROOT / "docs/rules/hinode.md").read_text()
    cited = set(re.findall(r"(test_\w+\.py)::(test_\w+)", text))
    assert len(cited) > 40
    missing = [
        f"{module}::{name}"
        for module, name in sorted(cited)
        if f"def {name}(" not in (ROOT / "tests/hinode" / module).read_text()
    ]
    assert not missing, f"docs/rules/hinode.md cites tests that do not exist: {missing}"
