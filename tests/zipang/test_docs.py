"""docs/rules/zipang.md lists the assumed card data as the engine has it (tests/test_rules_docs.py checks its
citations)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_assumed_card_row_is_listed():
    from games.zipang.data import CARDS

    text = (ROOT / "docs/rules/zipang.md").read_text()
    section = text[text.index("## Assumed data") :]
    for row in CARDS:
        assert f"| {row.title} | {row.btl} | {row.hnr} | {row.copies} |" in section, row.title
