"""The AI job streams, a contract between the game service (writes) and the AI worker (reads).

There are N shards (TABLETOP_AI_JOB_SHARDS). Shard B's streams are `ai:jobs:{jB}` (games with a person in them,
served first) and `ai:bulk:{jB}` (games only the AI plays): their hash tag `jB` puts them in one Redis Cluster
slot, and the service mints the ids of the games it puts on shard B so that their keys (`game:{<id>}...`) hash to
that same slot. So the script that commits a move and enqueues its AI job touches one slot only, and the N shards
spread the games over the cluster's masters.
"""

from __future__ import annotations

from redis.crc import key_slot

DEFAULT_SHARDS = 16


def shard_tag(shard: int) -> str:
    return f"j{shard}"


def job_stream(shard: int) -> str:
    """Shard B's jobs for games in which a person plays: the workers take these first."""
    return f"ai:jobs:{{{shard_tag(shard)}}}"


def bulk_stream(shard: int) -> str:
    """Shard B's jobs for games that only the AI plays: taken when no person is waiting."""
    return f"ai:bulk:{{{shard_tag(shard)}}}"


def shard_slot(shard: int) -> int:
    """The Redis Cluster slot of shard B's keys."""
    return key_slot(shard_tag(shard).encode())

