"""The public protos speak each game's own words: no comment documents an engine integer code ("0 red, 1 blue",
"39 the Hero", "index area * 3 + colour") and no field that names a colour, suit, tribe, card, phase or kind is a
bare integer or string. A frontend needs no constant from games/ (the issue that reshaped the API found a Node.js
client copying them from games/hinode/data.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PROTOS = Path(__file__).resolve().parents[2] / "protos" / "tabletop" / "v1"
PUBLIC = sorted(p for p in PROTOS.glob("*.proto") if p.name != "ai_service.proto")

# A list of codes ("0 red, 1 blue", "0 Mountain, 1 Naishi"), a code named by its number ("39 the Hero", "card 39"),
# index arithmetic ("area * 3 + colour"), or the word "code" itself.
CODE_PATTERNS = (
    re.compile(r"\b\d+\s+[A-Za-z][\w-]*,\s*\d+\s+[A-Za-z]"),
    re.compile(r"\b\d+\s+the\s+[A-Z]"),
    re.compile(r"\b(?:card|colou?r|tribe|suit)\s+\d+\b", re.IGNORECASE),
    re.compile(r"[a-z_]+\s*\*\s*\d+\s*\+\s*[a-z_]+"),
    re.compile(r"\b(?:card|colou?r|tribe|engine|integer)\s+codes?\b|\bcodes?,?\s+as\s+in\b", re.IGNORECASE),
)
SCALAR_FIELD = re.compile(r"^\s*(?:repeated\s+|optional\s+)?(?:int32|int64|uint32|string)\s+(\w+)\s*=", re.MULTILINE)
GAME_WORDS = {"colour", "colours", "color", "colors", "suit", "suits", "tribe", "tribes", "card", "cards", "phase",
              "kind"}


def engine_codes(text: str) -> list[str]:
    """The lines of a proto that document an engine code or give a game word a bare number or string."""
    found = []
    for line in text.splitlines():
        comment = line.split("//", 1)[1] if "//" in line else ""
        if any(p.search(comment) for p in CODE_PATTERNS):
            found.append(line.strip())
    found += [m.group(0).strip() for m in SCALAR_FIELD.finditer(text) if GAME_WORDS & set(m.group(1).split("_"))]
    return found


@pytest.mark.parametrize("path", PUBLIC, ids=[p.name for p in PUBLIC])
def test_no_public_proto_documents_an_engine_code(path: Path):
    assert engine_codes(path.read_text()) == []


def test_the_check_catches_what_the_old_protos_said():
    """Lines of the protos before this rule, each of which the check must catch."""
    old = [
        "  int32 card = 1; // 39 the Hero",
        "// Codes, as in games/hinode/data.py: colour 0 red, 1 blue, 2 yellow, 3 white (only the Hinode Tower)",
        "  // Resources left on each Area: index area * 3 + colour (36 values).",
        "  // The card: 0..38 a battle card, 39 the Hero.",
        "// codes as in docs/rules/naishi.md: 0 Mountain, 1 Naishi, 2 Advisor",
        "  optional int32 colour = 20;",
        '  string phase = 16;',
    ]
    for line in old:
        assert engine_codes(line), line
    assert len(PUBLIC) >= 4 and any(p.name == "game_service.proto" for p in PUBLIC)
