"""Prometheus metrics of the gateway, served on their own HTTP port (TABLETOP_GATEWAY_METRICS_PORT)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

CALLS = Counter("tabletop_gateway_calls_total", "gRPC-Web calls forwarded, by method and status code",
                ["method", "code"])
LATENCY = Histogram(
    "tabletop_gateway_call_duration_seconds", "Time from a gRPC-Web request to its trailers (streams included)",
    ["method"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600, 3600),
)
IN_FLIGHT = Gauge("tabletop_gateway_calls_in_flight", "Calls (and WatchGame streams) open now")
REFUSED_ORIGINS = Counter("tabletop_gateway_refused_origins_total", "Cross-origin requests from origins not allowed")
