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


@pytest.mark.integration  # binds sockets
def test_no_port_is_one_a_browser_refuses(monkeypatch):
    """A web stack's gateway drawn on 10080 (a port Chromium and Firefox refuse: net::ERR_UNSAFE_PORT) failed the
    browser tests: the draw passes over it."""
    from tabletop.stack import embedded

    if embedded._ephemeral_low() <= 12000:
        pytest.skip("this machine's ephemeral range leaves no room below it: free_port binds port 0")

    class Draws:
        def __init__(self, ports):
            self.ports = iter(ports)

        def randrange(self, low, high):
            return next(self.ports)

    monkeypatch.setattr(embedded, "_PORTS", Draws([10080, 10080, 10081, 10082, 10083, 10084]))
    monkeypatch.setattr(embedded, "_GIVEN", set())
    port = embedded.free_port()
    assert port != 10080 and port in (10081, 10082, 10083, 10084)
