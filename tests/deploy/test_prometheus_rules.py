"""The recording rules and alerts: deploy/prometheus/rules.yaml is the source, the PrometheusRule of the
prometheus-operator component carries the same groups, `promtool check rules` accepts both, and
`promtool test rules` (deploy/prometheus/rules.test.yaml) shows every alert firing, and not firing, when it should."""

from __future__ import annotations

import subprocess

import yaml

from tests.deploy.promtools import (
    PROMETHEUS_RULE,
    RULE_TESTS,
    RULES,
    alerts,
    binary,
    prometheus_rule_text,
    rule_groups,
    rules,
)
from tests.deploy.rendering import DEPLOY, of_kind, render
from tests.deploy.test_dashboard import base_metric, documented_metrics, series_names


def _promtool(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([binary("promtool"), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_the_prometheus_rule_is_made_from_the_rules_file():
    assert PROMETHEUS_RULE.read_text() == prometheus_rule_text(), (
        f"{PROMETHEUS_RULE.relative_to(DEPLOY.parent)} is stale: run `.venv/bin/python -m tests.deploy.promtools`")
    assert yaml.safe_load(PROMETHEUS_RULE.read_text())["spec"] == rule_groups()


def test_the_prod_overlay_ships_the_prometheus_rule():
    (rule,) = of_kind(render("prod"), "PrometheusRule")
    assert rule["apiVersion"] == "monitoring.coreos.com/v1"
    assert rule["metadata"]["namespace"] == "tabletop"
    assert set(rule) <= {"apiVersion", "kind", "metadata", "spec"} and set(rule["spec"]) == {"groups"}
    assert rule["spec"] == rule_groups(), "kustomize must not change the rules"


def test_rules_are_named_and_use_documented_metrics():
    metrics = documented_metrics()
    recorded = {rule["record"] for rule in rules() if "record" in rule}
    names = [rule.get("record") or rule.get("alert") for rule in rules()]
    assert len(names) == len(set(names))
    for rule in rules():
        assert set(rule) <= {"record", "alert", "expr", "for", "labels", "annotations"}, rule
        expr = rule["expr"]
        for name in sorted(recorded, key=len, reverse=True):
            expr = expr.replace(name, "")  # a recording rule's name holds a metric's name between colons
        for series in series_names(expr):
            assert base_metric(series, metrics), f"{rule.get('record') or rule['alert']}: {series} is not documented"
        if "record" in rule:
            assert rule["record"].count(":") == 2, f"{rule['record']}: level:metric:operations"
        else:
            assert rule["alert"].startswith("Tabletop")
            assert rule["labels"]["severity"] in {"warning", "critical"}
            assert {"summary", "description"} <= set(rule["annotations"])


def test_promtool_checks_the_rules_file_and_the_prometheus_rule(tmp_path):
    done = _promtool("check", "rules", str(RULES))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"SUCCESS: {len(rules())} rules found" in done.stdout
    (rule,) = of_kind(render("prod"), "PrometheusRule")  # what the operator would load, checked on its own
    spec = tmp_path / "prometheus-rule-spec.yaml"
    spec.write_text(yaml.safe_dump(rule["spec"]))
    done = _promtool("check", "rules", str(spec))
    assert done.returncode == 0, done.stdout + done.stderr


def test_promtool_checks_the_example_config():
    done = _promtool("check", "config", str(DEPLOY / "prometheus" / "prometheus.yaml"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_promtool_unit_tests_pass():
    done = _promtool("test", "rules", RULE_TESTS.name, cwd=RULE_TESTS.parent)
    assert done.returncode == 0 and "SUCCESS" in done.stdout, done.stdout + done.stderr


def test_every_alert_is_unit_tested_firing_and_quiet():
    tests = yaml.safe_load(RULE_TESTS.read_text())["tests"]
    cases = [case for test in tests for case in test.get("alert_rule_test", [])]
    names = {alert["alert"] for alert in alerts()}
    fires = {case["alertname"] for case in cases if case.get("exp_alerts")}
    quiet = {case["alertname"] for case in cases if not case.get("exp_alerts")}
    assert names - fires == set(), f"no test shows these alerts firing: {sorted(names - fires)}"
    assert names - quiet == set(), f"no test shows these alerts quiet: {sorted(names - quiet)}"
    assert {case["alertname"] for case in cases} <= names, "a test names an alert that does not exist"
