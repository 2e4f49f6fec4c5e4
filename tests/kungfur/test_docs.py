"""docs/rules/kung-fur-fight.md cites the tests that check each rule: every citation must name a real test."""

from __future__ import annotations

import re
from pathlib import Path

from games.kungfur.data import TABLE

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/rules/kung-fur-fight.md"


def test_every_cited_test_exists():
    text = DOC.read_text()
    cited = set(re.findall(r"(test_\w+\.py)::(test_\w+)", text))
    assert len(cited) > 40
    missing = [
        f"{module}::{name}"
        for module, name in sorted(cited)
        if f"def {name}(" not in (ROOT / "tests/kungfur" / module).read_text()
    ]
    assert not missing, f"the rules doc cites tests that do not exist: {missing}"


def test_every_row_of_the_data_table_is_listed_with_its_korean_name():
    text = DOC.read_text()
    missing = [row.key for row in TABLE if f"`{row.key}`" not in text or row.korean not in text]
    assert not missing, f"the rules doc does not list these rows of the data table: {missing}"
