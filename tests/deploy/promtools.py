"""Prometheus's own tools for the deploy tests: find `promtool` and `prometheus` (skip, saying why, without them),
the rules files, and the PrometheusRule made from deploy/prometheus/rules.yaml.

`.venv/bin/python -m tests.deploy.promtools` rewrites the PrometheusRule from the rules file (the one source)."""

from __future__ import annotations

import shutil
import sys

import pytest
import yaml

from tests.deploy.rendering import DEPLOY

RULES = DEPLOY / "prometheus" / "rules.yaml"
RULE_TESTS = DEPLOY / "prometheus" / "rules.test.yaml"
PROMETHEUS_RULE = DEPLOY / "k8s" / "components" / "prometheus-operator" / "prometheus-rule.yaml"
INSTALL_HINT = ("Debian/Ubuntu: apt-get install prometheus (the package brings both prometheus and promtool; "
                ".ci/run installs it), or put the binaries from prometheus.io on PATH")


def binary(name: str) -> str:
    """The path of a Prometheus binary, or skip the test with the reason (never a silent pass)."""
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not on PATH, so this test cannot run: {INSTALL_HINT}")
    return found


def rule_groups() -> dict:
    return yaml.safe_load(RULES.read_text())


def rules() -> list[dict]:
    return [rule for group in rule_groups()["groups"] for rule in group["rules"]]


def alerts() -> list[dict]:
    return [rule for rule in rules() if "alert" in rule]


class _BlockDumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str):
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_BlockDumper.add_representer(str, _str)

HEADER = """\
# Generated from deploy/prometheus/rules.yaml (the source: edit that file, then run
# `.venv/bin/python -m tests.deploy.promtools`); tests/deploy/test_prometheus_rules.py checks they are equal.
# The Prometheus must select it: its ruleSelector / ruleNamespaceSelector (e.g. a `release` label).
"""


def prometheus_rule_text() -> str:
    rule = {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "tabletop", "labels": {"app.kubernetes.io/name": "tabletop"}},
        "spec": rule_groups(),
    }
    return HEADER + yaml.dump(rule, Dumper=_BlockDumper, sort_keys=False, width=1000, allow_unicode=True)


if __name__ == "__main__":
    PROMETHEUS_RULE.write_text(prometheus_rule_text())
    print(f"wrote {PROMETHEUS_RULE}", file=sys.stderr)
