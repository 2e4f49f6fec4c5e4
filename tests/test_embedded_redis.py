"""The embedded Redis is a real server whose acknowledged writes survive a restart (AOF)."""

import pytest
import redis


def test_embedded_redis_keeps_acknowledged_writes_across_a_kill(own_redis):
    client = redis.Redis.from_url(own_redis.url)
    client.set("k", "v")
    client.close()
    own_redis.restart(kill=True)
    client = redis.Redis.from_url(own_redis.url)
    assert client.get("k") == b"v"
    client.close()


def test_session_redis_answers(redis_db_url):
    client = redis.Redis.from_url(redis_db_url)
    assert client.ping()
    client.close()


@pytest.mark.integration  # binds sockets
def test_free_ports_are_distinct_and_below_the_ephemeral_range():
    """A cluster's twelve ports, drawn before any node binds its own, must all differ; and none may be one the
    kernel could hand to a client's outgoing connection meanwhile."""
    from tabletop.stack import embedded

    low = embedded._ephemeral_low()
    ports = [embedded.free_port() for _ in range(2000)]
    assert len(set(ports)) == len(ports)
    if low > 12000:
        assert all(10000 <= port < low for port in ports)
