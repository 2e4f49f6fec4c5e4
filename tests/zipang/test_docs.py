"""docs/rules/zipang.md cites the tests that check each rule: every citation must name a real test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_cited_test_exists():
    text = (ROOT / "docs/rules/zipang.md").read_text()
    cited = set(re.findall(r"(test_\w+\.py)::(test_\w+)", text))
    assert len(cited) > 40
    missing = [
        f"{module}::{name}"
        for module, name in sorted(cited)
        if f"def {name}(" not in (ROOT / "tests/zipang" / module).read_text()
    ]
    assert not missing, f"docs/rules/zipang.md cites tests that do not exist: {missing}"


def test_every_assumed_card_row_is_listed():
    from games.zipang.data import CARDS

    text = (ROOT / "docs/rules/zipang.md").read_text()
    section = text[text.index("## Assumed data") :]
    for row in CARDS:
        assert f"| {row.title} | {row.btl} | {row.hnr} | {row.copies} |" in section, row.title
