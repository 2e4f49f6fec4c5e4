"""Every registered game's rules doc (its descriptor's `rules_doc`) quotes the rules with the tests that check
them: every citation must name a real test, and a rules doc cites many. A citation is `test_file.py::test_name`
(in the game's own tests folder, tests/<package>/) or a path from the repository root."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import registry

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"((?:tests/[\w/]+/)?test_\w+\.py)::(test_\w+)")
DESCRIPTORS = [registry.descriptor(name) for name in registry.names()]


def cited_tests_missing(doc: Path, tests: Path) -> tuple[int, list[str]]:
    cited = set(CITATION.findall(doc.read_text()))
    missing = []
    for module, name in sorted(cited):
        path = ROOT / module if module.startswith("tests/") else tests / module
        if not path.exists() or not re.search(rf"^def {name}\(", path.read_text(), re.M):
            missing.append(f"{module}::{name}")
    return len(cited), missing


@pytest.mark.parametrize("descriptor", DESCRIPTORS, ids=[d.name for d in DESCRIPTORS])
def test_every_test_a_rules_doc_cites_exists(descriptor):
    assert descriptor.rules_doc, f"{descriptor.name} names no rules doc"
    package = type(descriptor.engine).__module__.split(".")[1]
    cited, missing = cited_tests_missing(ROOT / descriptor.rules_doc, ROOT / "tests" / package)
    assert cited > 20, f"{descriptor.rules_doc} cites only {cited} tests"
    assert not missing, f"{descriptor.rules_doc} cites tests that do not exist: {missing}"


def test_the_check_finds_a_missing_test(tmp_path):
    doc = tmp_path / "rules.md"
    doc.write_text("| a rule | `test_docs_probe.py::test_that_exists`, `test_docs_probe.py::test_that_does_not` |")
    (tmp_path / "test_docs_probe.py").write_text("def test_that_exists():\n    pass\n")
    assert cited_tests_missing(doc, tmp_path) == (2, ["test_docs_probe.py::test_that_does_not"])
