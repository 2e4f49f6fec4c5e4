"""docs/rules/kung-fur-fight.md lists every row of the data table with its Korean name (tests/test_rules_docs.py
checks its citations)."""

from __future__ import annotations

from pathlib import Path

from games.kungfur.data import TABLE

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/rules/kung-fur-fight.md"


def test_every_row_of_the_data_table_is_listed_with_its_korean_name():
    text = DOC.read_text()
    missing = [row.key for row in TABLE if f"`{row.key}`" not in text or row.korean not in text]
    assert not missing, f"the rules doc does not list these rows of the data table: {missing}"
