"""Prometheus metrics of the archive writer (`tabletop archive-writer`), served on TABLETOP_ARCHIVE_METRICS_PORT
(docs/deploy.md, *Metrics*; docs/archive.md, *Watching the writer*).

The lag is read from Redis, not counted by the writer: the games waiting on the archive streams (their entries
are deleted once archived, so a stream's length is what waits: pending with a writer plus not yet delivered) and
the age of the oldest, from its entry id (the end commit's Redis time, in ms). Every writer reads the same
streams, so every writer reports the same values: aggregate with `max`, not `sum`."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

GAMES = Counter(
    "tabletop_archive_games_total",
    "Archive entries handled, by outcome: archived (inserted now), duplicate (archived before: acknowledged), "
    "missing (the game's keys were gone: acknowledged), unreadable (left pending, taken up again later)",
    ["outcome"],
)
OUTCOMES = ("archived", "duplicate", "missing", "unreadable")
for _outcome in OUTCOMES:  # at 0 from the start: increase() sees the first one
    GAMES.labels(_outcome)
BATCH_SECONDS = Histogram(
    "tabletop_archive_batch_seconds",
    "One batch of the writer: reading its games from Redis, the PostgreSQL transaction (ratings included) and the "
    "acknowledgements",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
RETRIES = Counter(
    "tabletop_archive_retries_total",
    "Batches that failed and are retried after a pause, by cause: database (PostgreSQL unreachable, or its "
    "transaction failed) or redis",
    ["cause"],
)
CAUSES = ("database", "redis")
for _cause in CAUSES:
    RETRIES.labels(_cause)
CLAIMED = Counter("tabletop_archive_claimed_total", "Entries taken over from a writer that died (XAUTOCLAIM)")
BACKLOG = Gauge(
    "tabletop_archive_backlog_games",
    "Finished games waiting on the archive streams (pending with a writer, or not yet delivered), summed over the "
    "shards; every writer reports the same total (aggregate with max)",
)
OLDEST_SECONDS = Gauge(
    "tabletop_archive_oldest_waiting_seconds",
    "Age of the oldest finished game waiting on the archive streams (0 when none waits); every writer reports the "
    "same value (aggregate with max)",
)
