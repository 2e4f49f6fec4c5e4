"""One way to connect to Redis for the game service and the AI worker: a single server or a Redis Cluster.

TABLETOP_REDIS_CLUSTER=true picks the cluster-aware client, which follows MOVED/ASK redirects and sends each
command (and each Lua script) to the master of its keys' slot; the Redis URL then names any node of the cluster.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import redis
import redis.asyncio as aioredis
import redis.asyncio.cluster
import redis.cluster
from redis.maint_notifications import MaintNotificationsConfig

# Redis cannot answer now (down, unreachable, loading; on Cluster also: no reachable node, a slot without a master,
# a failover under way); worth a retry later, unlike a bad command.
UNAVAILABLE = (
    redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.ClusterError,
    redis.exceptions.TryAgainError, redis.exceptions.RedisClusterException,
)
# Options of every client made here. redis-py's "maintenance notifications" (a Redis Enterprise/Cloud feature, on
# by default with RESP3 as "auto") also turn off the pool's check that a pooled connection is still open before it
# lends it: after a Redis restart, every connection the pool held then failed the next call made on it, 1 in 15-20
# calls on a replica, minutes later (issue 26). Off, the pool opens a closed connection again before lending it.
OPTIONS: dict[str, Any] = {"maint_notifications_config": MaintNotificationsConfig(enabled=False)}
TRUE = ("1", "true", "yes", "on")
FALSE = ("", "0", "false", "no", "off")


def cluster_flag(env: Mapping[str, str]) -> bool:
    """TABLETOP_REDIS_CLUSTER as a boolean; anything but a yes/no word is an error, not a silent no."""
    raw = env.get("TABLETOP_REDIS_CLUSTER", "").strip().lower()
    if raw not in TRUE + FALSE:
        raise ValueError(f"TABLETOP_REDIS_CLUSTER={raw!r} is not true or false")
    return raw in TRUE


def connect_async(url: str, *, cluster: bool, max_connections: int, **options: Any
                  ) -> aioredis.Redis | redis.asyncio.cluster.RedisCluster:
    """An asyncio client; past `max_connections` (per node on Cluster) a plain client waits for a free one."""
    options = {**OPTIONS, **options}
    if cluster:
        return redis.asyncio.cluster.RedisCluster.from_url(url, max_connections=max_connections, **options)
    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=5, **options)
    return aioredis.Redis(connection_pool=pool)


async def close_async(client: aioredis.Redis | redis.asyncio.cluster.RedisCluster) -> None:
    await client.aclose()
    if isinstance(client, aioredis.Redis):
        await client.connection_pool.disconnect()


def connect(url: str, *, cluster: bool, **options: Any) -> redis.Redis | redis.cluster.RedisCluster:
    """A blocking client."""
    options = {**OPTIONS, **options}
    if cluster:
        return redis.cluster.RedisCluster.from_url(url, **options)
    return redis.Redis.from_url(url, **options)
