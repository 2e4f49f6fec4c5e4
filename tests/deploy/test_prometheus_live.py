"""A real Prometheus scrapes a real game service, AI worker and gRPC-Web gateway (over a real Redis) while games
are played natively and through the gateway, loads deploy/prometheus/rules.yaml, and evaluates every PromQL
expression of deploy/ (the Grafana dashboard, the rules) and docs/ through its HTTP API: each must be valid, and
give a value where the games made traffic.

Skipped, saying why, when `prometheus` or `promtool` is not installed (Debian: apt-get install prometheus)."""

from __future__ import annotations

import asyncio
import json
import math
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import grpc
import pytest
import yaml

from clients.grpcweb import GrpcWebError, GrpcWebStub
from tabletop import grpcweb
from tabletop.client import Seat, TabletopError, connect
from tabletop.stack.embedded_redis import free_port
from tabletop.stack.launcher import wait_http, wait_serving
from tabletop.v1 import game_service_pb2 as pb
from tests.ai.test_worker import _env, _spawn, _stop, _worker
from tests.deploy.promtools import RULES, binary, rules
from tests.deploy.rendering import DEPLOY, REPO
from tests.deploy.test_dashboard import DASHBOARD
from tests.deploy.test_metric_labels import documented_values
from tests.support.waiting import wait_until

pytestmark = pytest.mark.integration

SCRAPE_SECONDS = 1
SCRAPE = f"{SCRAPE_SECONDS}s"
GAME = "naishi"  # two seats, short games: the whole test stays well under a minute

# Expressions that are rightly empty while everything is healthy. Every other one must give a finite value.
EMPTY_WHEN_HEALTHY = {"TabletopGameServiceAbsent": "the four targets are up",
                      "TabletopAIWorkerAbsent": "the four targets are up",
                      "TabletopArchiveWriterAbsent": "the four targets are up"}


def promql_expressions() -> list[tuple[str, str]]:
    """(where, expression) for every PromQL expression in deploy/ and docs/."""
    found = []
    dashboard = json.loads(DASHBOARD.read_text())
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            # The dashboard's namespace variable at "All" (its allValue); these targets carry no namespace label.
            found.append((f"dashboard: {panel['title']} ({target['refId']})",
                          target["expr"].replace("$namespace", ".*")))
    for rule in rules():
        found.append((f"rules.yaml: {rule.get('record') or rule.get('alert')}", rule["expr"].strip()))
    for doc in sorted((REPO / "docs").rglob("*.md")):
        for block in re.findall(r"```promql\n(.*?)```", doc.read_text(), flags=re.DOTALL):
            exprs: list[str] = []
            for line in block.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if line[0].isspace() and exprs:  # an indented line continues the expression above
                    exprs[-1] += " " + line.strip()
                else:
                    exprs.append(line.strip())
            found += [(f"{doc.relative_to(REPO)}: {expr[:60]}", expr) for expr in exprs]
    # Every file under deploy/ that holds PromQL is read above; fail if another one appears unread.
    for path in DEPLOY.rglob("*"):
        if path.is_file() and path.suffix in {".json", ".yaml", ".yml"} and re.search(
                r"\b(rate|histogram_quantile|sum by)\(", path.read_text()):
            assert path in {DASHBOARD, RULES, DEPLOY / "prometheus" / "rules.test.yaml",
                            DEPLOY / "k8s" / "components" / "prometheus-operator" / "prometheus-rule.yaml"}, path
    return found


@contextmanager
def _service(redis_url: str, tmp_path: Path, ai_target: str, database_url: str):
    port, metrics_port = free_port(), free_port()
    env = _env(redis_url, TABLETOP_GRPC_PORT=str(port), TABLETOP_METRICS_PORT=str(metrics_port),
               TABLETOP_AI_TARGET=ai_target, TABLETOP_DATABASE_URL=database_url)
    proc = _spawn(["serve"], env, tmp_path / "service.log")
    try:
        wait_serving(f"127.0.0.1:{port}", proc, "game service")
        yield f"127.0.0.1:{port}", metrics_port
    finally:
        _stop(proc)


@contextmanager
def _archive_writer(redis_url: str, tmp_path: Path, database_url: str):
    """`tabletop archive-writer` with its metrics port, archiving the games the service finishes."""
    metrics_port = free_port()
    env = _env(redis_url, TABLETOP_DATABASE_URL=database_url, TABLETOP_ARCHIVE_METRICS_PORT=str(metrics_port),
               TABLETOP_ARCHIVE_HEALTH_PORT=str(free_port()), TABLETOP_ARCHIVE_POLL_SECONDS="0.2",
               TABLETOP_ARCHIVE_LAG_SECONDS="0.5")
    proc = _spawn(["archive-writer"], env, tmp_path / "archive-writer.log")
    try:
        wait_http(f"http://127.0.0.1:{metrics_port}/metrics", proc, "the archive writer")
        yield metrics_port
    finally:
        _stop(proc)


ALLOWED_ORIGIN = "http://table.example:5173"


@contextmanager
def _gateway(redis_url: str, tmp_path: Path, upstream: str):
    """`tabletop gateway` in front of the service, as deployed: its own HTTP port and metrics port."""
    port, metrics_port = free_port(), free_port()
    env = _env(redis_url, TABLETOP_GATEWAY_HOST="127.0.0.1", TABLETOP_GATEWAY_PORT=str(port),
               TABLETOP_GATEWAY_UPSTREAM=upstream, TABLETOP_GATEWAY_METRICS_PORT=str(metrics_port),
               TABLETOP_GATEWAY_ALLOWED_ORIGINS=ALLOWED_ORIGIN)
    proc = _spawn(["gateway"], env, tmp_path / "gateway.log")
    url = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_http(f"{url}/readyz", proc, "the gateway")
        except RuntimeError as exc:
            raise AssertionError((tmp_path / "gateway.log").read_text()) from exc
        yield url, metrics_port
    finally:
        _stop(proc)


class Prometheus:
    def __init__(self, url: str):
        self.url = url

    def get(self, path: str, **params: str) -> dict:
        query = urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(f"{self.url}{path}?{query}", timeout=10) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as error:  # 400 for a bad expression: the body says why
            return json.loads(error.read())

    def query(self, expr: str) -> dict:
        return self.get("/api/v1/query", query=expr)

    def scraped_twice_since(self, since: float, timeout: float = 30) -> None:
        """Wait until every target has been scraped twice after `since` (Unix seconds: a rate needs two samples),
        and every rule group evaluated after those scrapes."""
        def scraped() -> float | None:
            last = [_unix(t["lastScrape"]) for t in self.get("/api/v1/targets")["data"]["activeTargets"]]
            # Scrapes are SCRAPE apart: one more than 1.5 SCRAPE after `since` had another before it, after `since`.
            return max(last) if min(last) > since + 1.5 * SCRAPE_SECONDS else None

        scrapes = wait_until(scraped, timeout, "two scrapes of every target")
        wait_until(lambda: all(_unix(group["lastEvaluation"]) > scrapes
                               for group in self.get("/api/v1/rules")["data"]["groups"]),
                   timeout, "the rules evaluated after them")


def _unix(stamp: str) -> float:
    """A time as Prometheus's API writes it (RFC 3339 in UTC, up to nanoseconds) in Unix seconds."""
    whole, _, fraction = stamp.removesuffix("Z").partition(".")
    return datetime.fromisoformat(whole).replace(tzinfo=UTC).timestamp() + float(f"0.{fraction or 0}")


@contextmanager
def _prometheus(tmp_path: Path, service_metrics: int, worker_metrics: int, gateway_metrics: int, writer_metrics: int):
    """A Prometheus on 127.0.0.1 (a free port, a temporary data dir), from deploy/prometheus/prometheus.yaml with
    the test's targets and a 1 s scrape and rule interval."""
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yaml").read_text())
    config["global"] = {"scrape_interval": SCRAPE, "evaluation_interval": SCRAPE, "scrape_timeout": SCRAPE}
    config["rule_files"] = [str(RULES)]
    ports = {"tabletop-game-service": service_metrics, "tabletop-ai-worker": worker_metrics,
             "tabletop-gateway": gateway_metrics, "tabletop-archive-writer": writer_metrics}
    for job in config["scrape_configs"]:
        job["static_configs"] = [{"targets": [f"127.0.0.1:{ports.pop(job['job_name'])}"]}]
    assert not ports, f"the example configuration has no job {ports}"
    path = tmp_path / "prometheus.yaml"
    path.write_text(yaml.safe_dump(config))
    port = free_port()
    with open(tmp_path / "prometheus.log", "ab") as log:
        proc = subprocess.Popen(
            [binary("prometheus"), f"--config.file={path}", f"--storage.tsdb.path={tmp_path / 'prometheus-data'}",
             f"--web.listen-address=127.0.0.1:{port}", "--log.level=warn"],
            stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_http(f"{url}/-/ready", proc, "Prometheus")
        except RuntimeError as exc:
            raise AssertionError((tmp_path / "prometheus.log").read_text()) from exc
        prometheus = Prometheus(url)
        # Discovered targets reach the scrape loop in up to 5 s (Prometheus batches discovery updates): wait for
        # the first scrape of all four, so that the games below are seen from before they start.
        wait_until(lambda: prometheus.query('count(up{job=~"tabletop-.*"} == 1) == 4')["data"]["result"], 30,
                   "Prometheus scraping the four targets")
        yield prometheus
    finally:
        _stop(proc)


def _play(target: str) -> dict:
    """Traffic for every panel: an all-AI demo game (`tabletop demo`, watched to its end), a human's suggestion
    and resignation, a seat forfeited by its turn timer, a lobby page and a NOT_FOUND."""
    demo = subprocess.Popen([sys.executable, "-m", "commands.cli", "demo", GAME, "--target", target, "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with connect(target, wait=10) as client:
        client.list_games(GAME)
        try:
            client.state("no-such-game")
        except TabletopError:
            pass
        timed = client.create_game(GAME, [Seat.human("Late"), Seat.ai("easy")], start=True,
                                   timer=pb.TurnTimer(turn_seconds=1, on_timeout=pb.TIMEOUT_POLICY_FORFEIT))
        game = client.create_game(GAME, [Seat.human("Ann"), Seat.ai("easy")], start=True)
        ann = game.player(0)
        if 0 not in (state := ann.state()).to_act:
            assert any(0 in update.state.to_act for update in ann.watch(state.version)), "seat 0 never came to act"
        assert ann.suggest(strength="easy").best_move_id
        ann.resign()
        ends = list(client.watch(timed.game_id))  # to the game's end: its turn timer forfeits the late seat
        assert ends[-1].state.status == pb.GAME_STATUS_FINISHED, "the turn timer did not end the game"
    out, err = demo.communicate(timeout=60)
    assert demo.returncode == 0, err
    return json.loads(out)


def _play_in_a_browser(gateway_url: str) -> None:
    """The browser path's traffic: a web page creates a game, reads it, moves and watches it through the gateway;
    a page from an origin that is not allowed is refused."""
    service = pb.DESCRIPTOR.services_by_name["GameService"]

    async def main() -> None:
        async with aiohttp.ClientSession(headers={"Origin": ALLOWED_ORIGIN}) as session:
            stub = GrpcWebStub(session, gateway_url, service)
            created = await stub.CreateGame(pb.CreateGameRequest(
                game_type=GAME, seats=[pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Bea"),
                                       pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")], start=True))
            seat = [("authorization", f"Bearer {created.seat_tokens[0].token}")]
            state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=seat)).state
            if 0 not in state.to_act:  # Bea's turn comes with an update of the game's stream
                async for update in stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id,
                                                                       from_version=state.version), metadata=seat):
                    if 0 in update.state.to_act:
                        state = update.state
                        break
            for _ in range(20):  # Naishi's seats may act at once: a move that raced the AI's is ABORTED, read again
                try:
                    await stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=state.legal_moves[0].id,
                                                           expected_version=state.version), metadata=seat)
                    break
                except GrpcWebError as error:
                    if error.code() is not grpc.StatusCode.ABORTED:
                        raise
                    state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=seat)).state
            async for _update in stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id)):
                break
            try:
                await stub.GetState(pb.GetStateRequest(game_id="no-such-game"))
            except GrpcWebError:
                pass
        async with aiohttp.ClientSession() as session:
            body = grpcweb.frame(0, pb.ListGameTypesRequest().SerializeToString())
            async with session.post(f"{gateway_url}/tabletop.v1.GameService/ListGameTypes", data=body,
                                    headers={"Content-Type": "application/grpc-web+proto",
                                             "Origin": "https://elsewhere.example"}) as refused:
                assert refused.status == 403

    asyncio.run(main())


def _values(reply: dict) -> list[float]:
    data = reply["data"]
    if data["resultType"] == "scalar":
        return [float(data["result"][1])]
    return [float(sample["value"][1]) for sample in data["result"]]


def _check_metrics_text(port: int) -> None:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
    done = subprocess.run([binary("promtool"), "check", "metrics"], input=text, capture_output=True, timeout=30)
    assert done.returncode == 0, (done.stdout + done.stderr).decode()


def test_a_real_prometheus_evaluates_every_promql_expression(redis_db_url, database_url, tmp_path):
    binary("prometheus"), binary("promtool")  # skip before starting anything
    expressions = promql_expressions()
    ai_port = free_port()
    with _service(redis_db_url, tmp_path, f"127.0.0.1:{ai_port}", database_url) as (target, service_metrics), \
            _archive_writer(redis_db_url, tmp_path, database_url) as writer_metrics:
        worker, worker_metrics = _worker(redis_db_url, target, tmp_path, "prometheus", ai_port=ai_port)
        try:
            with _gateway(redis_db_url, tmp_path, target) as (gateway_url, gateway_metrics), \
                    _prometheus(tmp_path, service_metrics, worker_metrics, gateway_metrics,
                                writer_metrics) as prometheus:
                # Before and after the native games: a histogram's rate needs increments after its series first
                # appears in a scrape, or its quantile is NaN.
                _play_in_a_browser(gateway_url)
                summary = _play(target)
                _play_in_a_browser(gateway_url)
                played = time.time()
                assert summary["status"] == "finished"
                prometheus.scraped_twice_since(played)
                _check_metrics_text(service_metrics)
                _check_metrics_text(worker_metrics)
                _check_metrics_text(gateway_metrics)
                _check_metrics_text(writer_metrics)
                _assert_healthy(prometheus)
                counts = _evaluate(prometheus, expressions)
                _assert_the_fixes(prometheus)
        finally:
            _stop(worker)
    print(f"\nPromQL expressions in deploy/ and docs/: {counts['total']}; valid: {counts['valid']}; "
          f"non-empty: {counts['non_empty']}; empty as expected: {counts['empty_expected']}; "
          f"alerts firing: {counts['firing'] or 'none'}")


def _assert_healthy(prometheus: Prometheus) -> None:
    targets = prometheus.get("/api/v1/targets")["data"]["activeTargets"]
    assert sorted((t["labels"]["job"], t["health"]) for t in targets) == [
        ("tabletop-ai-worker", "up"), ("tabletop-archive-writer", "up"), ("tabletop-game-service", "up"),
        ("tabletop-gateway", "up")], targets
    groups = prometheus.get("/api/v1/rules")["data"]["groups"]
    loaded = [rule for group in groups for rule in group["rules"]]
    assert len(loaded) == len(rules()), "Prometheus loaded every rule of rules.yaml"
    bad = [(rule["name"], rule.get("lastError")) for rule in loaded if rule["health"] != "ok"]
    assert not bad, bad


def _evaluate(prometheus: Prometheus, expressions: list[tuple[str, str]]) -> dict:
    alerts = {rule["alert"]: rule["expr"].strip() for rule in rules() if "alert" in rule}
    counts = {"total": len(expressions), "valid": 0, "non_empty": 0, "empty_expected": 0, "firing": []}
    problems = []
    for where, expr in expressions:
        reply = prometheus.query(expr)
        if reply.get("status") != "success":
            problems.append(f"{where}: invalid: {reply.get('error')}\n    {expr}")
            continue
        counts["valid"] += 1
        values = _values(reply)
        name = where.removeprefix("rules.yaml: ")
        if name in EMPTY_WHEN_HEALTHY:
            if values:
                problems.append(f"{where}: should be empty ({EMPTY_WHEN_HEALTHY[name]}), got {values}")
            else:
                counts["empty_expected"] += 1
            continue
        if name in alerts:
            # An alert is a condition over a value: the value must be there; whether it crosses the threshold
            # depends on the machine (the `for:` keeps a slow moment from firing anyway).
            if values:
                counts["firing"].append(name)
            lhs = re.fullmatch(r"(.+?)\s*(?:>|==)\s*[0-9.]+", expr, flags=re.DOTALL)
            assert lhs, f"{name}: expected `value > threshold` or `value == n`"
            values = _values(prometheus.query(lhs.group(1)))
        if any(math.isfinite(v) for v in values):
            counts["non_empty"] += 1
        else:
            problems.append(f"{where}: no finite value ({values}) although the games made traffic\n    {expr}")
    assert not problems, "\n".join(problems)
    return counts


def _assert_the_fixes(prometheus: Prometheus) -> None:
    """The issue's findings, seen through Prometheus: streams and blocking reads are out of the latency
    histograms, and every label value scraped is a documented one."""
    def series(expr: str) -> list[dict]:
        return [sample["metric"] for sample in prometheus.query(expr)["data"]["result"]]

    assert not series('tabletop_rpc_duration_seconds_count{method="WatchGame"}')
    assert _values(prometheus.query('sum(tabletop_stream_duration_seconds_count{method="WatchGame"})'))[0] >= 1
    assert not series('tabletop_redis_duration_seconds_count{op="wait_events"}')
    for label, metric in (("op", "tabletop_redis_duration_seconds_count"), ("method", "tabletop_rpc_requests_total"),
                          ("code", "tabletop_rpc_requests_total"), ("game_type", "tabletop_games_active")):
        seen = {s[label] for s in series(f"count by ({label}) ({metric})")}
        assert seen and seen <= set(documented_values(label)), (label, seen)
    # The three games that finished (the demo, the resigned one, the forfeited one) reached the archive, and the
    # writer saw its backlog drain.
    wait_until(lambda: _values(prometheus.query(
        'sum(tabletop_archive_games_total{outcome="archived"}) >= 3 and max(tabletop_archive_backlog_games) == 0')),
        30, "the archive writer's metrics to show the finished games archived")
    outcomes = {s["outcome"] for s in series('tabletop_turn_timeouts_total{outcome="forfeited"} > 0')}
    assert outcomes == {"forfeited"}, "the turn timer's forfeit was counted"
