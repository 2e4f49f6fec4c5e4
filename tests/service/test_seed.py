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
