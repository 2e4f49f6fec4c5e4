"""A creator-chosen seed makes all-AI games reproducible, and is refused where it would reveal hidden cards."""

from __future__ import annotations

import grpc
import pytest

from service.errors import error_info
from tests.service.conftest import AI, AI_TOKEN, HUMAN, OPEN


def _ai_view(api, game_id: str, seat: int):
    return api.state(game_id, AI_TOKEN, seat).view


def test_the_same_seed_deals_the_same_game(api):
    first = api.create("hinode", [AI] * 4, start=True, seed=7)
    second = api.create("hinode", [AI] * 4, start=True, seed=7)
    other = api.create("hinode", [AI] * 4, start=True, seed=8)
    for seat in range(4):
        assert _ai_view(api, first.game_id, seat) == _ai_view(api, second.game_id, seat)
    assert any(_ai_view(api, first.game_id, s) != _ai_view(api, other.game_id, s) for s in range(4))


@pytest.mark.parametrize("kinds", [[HUMAN, AI, AI, AI], [OPEN, AI, AI, AI]])
def test_a_seed_is_refused_when_a_person_could_hold_a_seat(api, kinds):
    with pytest.raises(grpc.RpcError) as caught:
        api.create("hinode", kinds, start=True, seed=7)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(caught.value).reason == "SEED_NOT_ALLOWED"


def _jobs_of(redis_url: str, game_id: str) -> list[dict[str, str]]:
    import redis

    from service.store import game_key
    from tabletop.job_shards import bulk_stream

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        stream = bulk_stream(int(client.hget(game_key(game_id), "shard")))
        return [fields for _, fields in client.xrange(stream) if fields["game_id"] == game_id]
    finally:
        client.close()


def test_a_seeded_game_asks_the_ai_for_one_simultaneous_seat_at_a_time(api, redis_url):
    """Naishi opens with a simultaneous step (each seat gives a card). Unseeded: a job per seat at once, played by
    whichever worker is free. Seeded: one job, for a seat drawn from the seed and the version (the same in every
    run), marked reproducible (the worker then searches by iterations alone, never on the clock)."""
    free = api.create("naishi", [AI, AI], start=True)
    jobs = _jobs_of(redis_url, free.game_id)
    assert sorted(job["seat"] for job in jobs) == ["0", "1"]
    assert not any("reproducible" in job for job in jobs)
    chosen = set()
    for seed in range(8):
        runs = [_jobs_of(redis_url, api.create("naishi", [AI, AI], start=True, seed=seed).game_id) for _ in range(2)]
        assert [len(jobs) for jobs in runs] == [1, 1], runs
        assert runs[0][0]["seat"] == runs[1][0]["seat"], "the same seed, the same order"
        assert runs[0][0]["reproducible"] == "1"
        chosen.add(runs[0][0]["seat"])
    assert chosen == {"0", "1"}, "no seat is always first"
