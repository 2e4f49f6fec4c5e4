"""The Grafana dashboard and the PromQL in docs/deploy.md use only the metrics that docs/deploy.md lists, and
every dashboard query is filtered by the namespace variable."""

from __future__ import annotations

import ast
import json
import re

from tests.deploy.rendering import DEPLOY, REPO

DOCS = REPO / "docs" / "deploy.md"
DASHBOARD = DEPLOY / "grafana" / "tabletop.json"
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


METRIC_CLASSES = {"Counter": "counter", "Gauge": "gauge", "Histogram": "histogram", "Summary": "summary"}


def documented_metric_rows() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Return metric name -> (type, label names) from the metrics table of docs/deploy.md."""
    rows = re.findall(r"^\| `(tabletop_[a-z0-9_]+)` \| (\w+) \|([^|]*)\|", DOCS.read_text(), flags=re.MULTILINE)
    return {name: (kind, tuple(re.findall(r"`(\w+)`", labels))) for name, kind, labels in rows}


def documented_metrics() -> dict[str, str]:
    """Return metric name -> type from the metrics table of docs/deploy.md."""
    return {name: kind for name, (kind, _) in documented_metric_rows().items()}


def metrics_defined_in_code() -> dict[str, tuple[str, tuple[str, ...], str]]:
    """Find every prometheus_client metric the code declares: name -> (type, label names, file)."""
    found = {}
    for package in ("service", "gateway", "ai", "clients", "tabletop"):
        for path in (REPO / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                    continue
                called = getattr(node.func, "id", getattr(node.func, "attr", None)) or ""
                # A subclass counts as its metric class (service/metrics.py's _RedisHistogram is a Histogram).
                kind = next((k for c, k in METRIC_CLASSES.items() if called.lstrip("_").endswith(c)), None)
                name = node.args[0].value
                if kind is None or not isinstance(name, str) or not name.startswith("tabletop_"):
                    continue
                if kind == "counter" and not name.endswith("_total"):
                    name += "_total"  # prometheus_client exposes counters with the suffix
                labels_node = node.args[2] if len(node.args) > 2 else next(
                    (k.value for k in node.keywords if k.arg == "labelnames"), None)
                labels = tuple(ast.literal_eval(labels_node)) if labels_node is not None else ()
                found[name] = (kind, labels, str(path.relative_to(REPO)))
    return found


def series_names(expr: str) -> set[str]:
    return set(re.findall(r"\b(tabletop_[a-z0-9_]+)", expr))


def base_metric(series: str, metrics: dict[str, str]) -> str | None:
    """Map a series name (a histogram's _bucket, say) to the documented metric it belongs to."""
    if series in metrics:
        return series
    for suffix in HISTOGRAM_SUFFIXES:
        if series.endswith(suffix) and metrics.get(series.removesuffix(suffix)) == "histogram":
            return series.removesuffix(suffix)
    return None


def panel_queries() -> list[tuple[str, str]]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [(panel["title"], target["expr"]) for panel in dashboard["panels"] for target in panel.get("targets", [])]


def test_the_metrics_table_lists_the_agreed_metrics():
    assert set(documented_metrics()) == {
        "tabletop_rpc_requests_total", "tabletop_rpc_duration_seconds", "tabletop_games_created_total",
        "tabletop_games_active", "tabletop_games_finished_total", "tabletop_games_abandoned_total",
        "tabletop_moves_total",
        "tabletop_version_conflicts_total", "tabletop_redis_duration_seconds", "tabletop_ai_jobs_total",
        "tabletop_ai_think_seconds", "tabletop_ai_iterations_per_second", "tabletop_ai_queue_lag_seconds",
        "tabletop_ai_reclaimed_jobs_total", "tabletop_ai_suggestions_total", "tabletop_stream_duration_seconds",
        "tabletop_streams_open", "tabletop_turn_timeouts_total", "tabletop_timekeeper_shards",
        "tabletop_gateway_calls_total",
        "tabletop_gateway_call_duration_seconds", "tabletop_gateway_calls_in_flight",
        "tabletop_gateway_refused_origins_total",
        "tabletop_archive_games_total", "tabletop_archive_batch_seconds", "tabletop_archive_retries_total",
        "tabletop_archive_claimed_total", "tabletop_archive_backlog_games", "tabletop_archive_oldest_waiting_seconds",
    }
    for name, kind in documented_metrics().items():
        assert kind in {"counter", "gauge", "histogram"}, name
        assert name.endswith("_total") == (kind == "counter"), f"{name}: counters, and only they, end in _total"


def test_the_dashboard_is_well_formed():
    dashboard = json.loads(DASHBOARD.read_text())
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    variables = {variable["name"] for variable in dashboard["templating"]["list"]}
    assert {"datasource", "namespace"} <= variables
    for panel in dashboard["panels"]:
        assert {"x", "y", "w", "h"} <= set(panel["gridPos"]) and panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        if panel["type"] != "row":
            assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
            assert panel["targets"], panel["title"]


def test_dashboard_queries_use_documented_metrics_in_the_chosen_namespace():
    metrics = documented_metrics()
    shown = set()
    for title, expr in panel_queries():
        assert expr.count("(") == expr.count(")") and expr.count("{") == expr.count("}"), title
        for series in series_names(expr):
            metric = base_metric(series, metrics)
            assert metric is not None, f"{title}: {series} is not a documented metric (or histogram series)"
            if metrics[metric] == "histogram":
                assert series.endswith("_bucket"), f"{title}: quantiles come from {metric}_bucket"
            shown.add(metric)
        for selector in re.findall(r"tabletop_[a-z0-9_]+(\{[^}]*\})?", expr):
            assert 'namespace=~"$namespace"' in selector, f"{title}: filter every series by $namespace"
    assert shown == set(metrics), f"no panel for {sorted(set(metrics) - shown)}"


def test_counters_are_only_read_through_rate_or_increase():
    metrics = documented_metrics()
    for title, expr in panel_queries():
        for match in re.finditer(r"\b(tabletop_[a-z0-9_]+)", expr):
            metric = base_metric(match.group(1), metrics)
            if metrics[metric] == "counter" or match.group(1).endswith("_bucket"):
                before = expr[: match.start()].rstrip()
                assert before.endswith(("rate(", "increase(")), f"{title}: raw counter {match.group(1)}"


def test_the_promql_in_the_docs_uses_documented_metrics():
    metrics = documented_metrics()
    blocks = re.findall(r"```promql\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    assert blocks, "docs/deploy.md shows the key queries"
    used = set()
    for series in series_names("\n".join(blocks)):
        metric = base_metric(series, metrics)
        assert metric is not None, f"{series} is not a documented metric"
        used.add(metric)
    assert used == set(metrics)


def test_the_metrics_the_code_declares_are_the_documented_ones():
    """The dashboard and the docs are only right if the code exports the same names, types and labels."""
    documented = documented_metric_rows()
    for name, (kind, labels, where) in metrics_defined_in_code().items():
        assert name in documented, f"{where} declares {name}, which docs/deploy.md does not list"
        assert documented[name] == (kind, labels), f"{where}: {name} is a {kind} by {labels}, not {documented[name]}"
