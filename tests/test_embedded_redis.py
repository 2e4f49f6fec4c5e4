"""The embedded Redis is a real server whose acknowledged writes survive a restart (AOF)."""

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
