"""docs/deploy.md lists every label value the code gives its metrics: the Redis ops the store times, the AI jobs'
and the turn timeouts' outcomes, the gRPC methods and codes, the game types."""

from __future__ import annotations

import ast
import re

import grpc

from ai import worker_metrics
from games import registry
from service import metrics
from service.archive import metrics as archive_metrics
from tabletop.v1 import game_service_pb2
from tests.deploy.rendering import REPO
from tests.deploy.test_dashboard import DOCS, metrics_defined_in_code


def documented_values(label: str) -> list[str]:
    """The backquoted values in the row of `label` of the label-values table, before any "Not timed here"."""
    row = re.search(rf"^\| `{label}` \| (.*) \|$", DOCS.read_text(), flags=re.MULTILINE)
    assert row, f"docs/deploy.md has no row for the label {label}"
    return re.findall(r"`([A-Za-z_-]+)`", row.group(1).split("Not timed here")[0])


def timed_ops() -> set[str]:
    """Every op name passed to the store's `_timed`, anywhere in service/ or bench/ (the Echo floor, a game service
    with the benchmarks' service beside it, times its own two)."""
    ops = set()
    for path in [*(REPO / "service").rglob("*.py"), *(REPO / "bench").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "_timed" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                ops.add(node.args[0].value)
    return ops


def test_every_redis_op_is_documented_and_blocking_reads_are_left_out():
    ops = timed_ops()
    assert "commit" in ops and "load" in ops
    assert set(documented_values("op")) == ops - metrics.BLOCKING_REDIS_OPS
    not_timed = re.search(r"Not timed here: `(\w+)`", DOCS.read_text())
    assert not_timed and {not_timed.group(1)} == metrics.BLOCKING_REDIS_OPS


def test_the_redis_histogram_leaves_out_blocking_reads():
    before = metrics.REDIS_DURATION.collect()[0].samples
    for op in metrics.BLOCKING_REDIS_OPS:
        metrics.REDIS_DURATION.labels(op).observe(4.8)
    after = metrics.REDIS_DURATION.collect()[0].samples
    assert before == after
    assert not any(s.labels.get("op") in metrics.BLOCKING_REDIS_OPS for s in after)


def test_outcomes_are_documented_and_exported_from_the_start():
    rows = {name: labels for name, labels in
            re.findall(r"^\| `(tabletop_\w+_total)` \| counter \| `outcome` \| (.*) \|$", DOCS.read_text(),
                       flags=re.MULTILINE)}
    for metric in (worker_metrics.JOBS, metrics.TURN_TIMEOUTS, archive_metrics.GAMES):
        name = metric._name + "_total"
        exported = {s.labels["outcome"] for s in metric.collect()[0].samples if s.name == name}
        assert exported == set(re.findall(r"`([a-z_]+)`", rows[name])), name
    causes = {s.labels["cause"] for s in archive_metrics.RETRIES.collect()[0].samples
              if s.name == "tabletop_archive_retries_total"}
    assert causes == set(documented_values("cause")) == set(archive_metrics.CAUSES)


def test_methods_codes_and_game_types_are_documented():
    service = game_service_pb2.DESCRIPTOR.services_by_name["GameService"]
    methods = documented_values("method")
    assert set(methods) == {m.name for m in service.methods} | {"Echo"}
    streaming = {m.name for m in service.methods if m.server_streaming}
    assert streaming == {"WatchGame"}, "stream durations go to tabletop_stream_duration_seconds: document new streams"
    assert set(documented_values("code")) == {code.name for code in grpc.StatusCode}
    # The built-in games (a test may host the toy game in this process too; it is no game_type of a deployment).
    built_in = {registry.descriptor(name).name for name in registry.names()
                if type(registry.get(name)).__module__.split(".")[0] == "games"}
    assert built_in and built_in <= set(documented_values("game_type"))


def test_the_new_metrics_are_declared():
    declared = metrics_defined_in_code()
    assert declared["tabletop_redis_duration_seconds"][:2] == ("histogram", ("op",))
    assert declared["tabletop_stream_duration_seconds"][:2] == ("histogram", ("method",))
    assert declared["tabletop_turn_timeouts_total"][:2] == ("counter", ("outcome",))
