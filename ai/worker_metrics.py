"""Prometheus metrics of the AI worker (served on TABLETOP_AI_METRICS_PORT)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

JOBS = Counter(
    "tabletop_ai_jobs_total",
    "AI jobs handled, by outcome: moved, stale (the game moved on), failed (will be retried), dead_lettered",
    ["outcome"],
)
THINK_SECONDS = Histogram(
    "tabletop_ai_think_seconds",
    "Wall-clock time of one search (jobs and suggestions)",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
)
ITERATIONS_PER_SECOND = Gauge("tabletop_ai_iterations_per_second", "ISMCTS iterations per second of the last search")
QUEUE_LAG_SECONDS = Gauge(
    "tabletop_ai_queue_lag_seconds",
    "Age of the last job taken from the stream when the worker took it, by lane: interactive (games a person plays "
    "in) or bulk (games only the AI plays)",
    ["lane"],
)
RECLAIMED = Counter("tabletop_ai_reclaimed_jobs_total", "Jobs reclaimed from workers that went idle (XAUTOCLAIM)")
SUGGESTIONS = Counter("tabletop_ai_suggestions_total", "SuggestMove calls answered, by gRPC code", ["code"])

# Every outcome is exported from the start, at 0, so that rate() and increase() see the first one happen (a series
# that appears at 1 has no earlier sample to rise from) and an alert on it can fire.
for _outcome in ("moved", "stale", "failed", "dead_lettered"):
    JOBS.labels(_outcome)
for _lane in ("interactive", "bulk"):
    QUEUE_LAG_SECONDS.labels(_lane)


def record_search(seconds: float, iterations: int) -> None:
    THINK_SECONDS.observe(seconds)
    if seconds > 0 and iterations:
        ITERATIONS_PER_SECOND.set(iterations / seconds)
