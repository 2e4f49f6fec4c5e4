"""The SDK's lobby against a real `tabletop serve`: public games created with `public=True` come out of
`list_games` and `lobby` (every page, each game once), private ones never; a public game is joined by its id."""

from __future__ import annotations

import pytest

from tabletop import client as sdk
from tabletop.client import Seat, connect
from tabletop.v1 import game_service_pb2 as pb


@pytest.fixture
def client(shared_service):
    with connect(shared_service.target) as c:
        yield c


def test_public_games_are_found_in_the_lobby_and_joined_by_id(client):
    public = [client.create_game("naishi", [Seat.human("Ann"), Seat.open()], public=True) for _ in range(5)]
    private = client.create_game("naishi", [Seat.human("Ann"), Seat.open()])
    assert public[0].state.visibility == pb.VISIBILITY_PUBLIC and private.state.visibility == pb.VISIBILITY_PRIVATE

    listed = [g.game_id for g in client.lobby("naishi", page_size=2)]  # several pages
    assert len(listed) == len(set(listed)), "each game once"
    assert {g.game_id for g in public} <= set(listed) and private.game_id not in listed
    first = client.list_games(game_type="naishi", page_size=2)
    assert len(first.games) == 2 and first.next_page_token
    following = client.list_games(game_type="naishi", page_size=2, page_token=first.next_page_token)
    assert [g.game_id for g in [*first.games, *following.games]] == listed[:4]
    assert first.games[0].open_seats == 1 and first.games[0].seats[1].kind == pb.SEAT_KIND_OPEN

    bo = client.join_game(game_id=public[0].game_id, name="Bo")
    assert bo.seat == 1 and bo.state().your_seat == 1
    assert public[0].game_id not in {g.game_id for g in client.lobby("naishi")}, "full: no longer listed"
    public[1].start()
    assert public[1].game_id not in {g.game_id for g in client.lobby()}, "started: no longer listed"

    with pytest.raises(sdk.PermissionDenied) as caught:
        client.join_game(game_id=private.game_id)
    assert caught.value.reason == "NOT_PUBLIC"
    assert client.join_game(private.join_code, name="Cy").seat == 1  # the join code, positionally, as before
    with pytest.raises(sdk.InvalidArgument) as caught:
        client.list_games(game_type="naishi", page_token="garbage")
    assert caught.value.reason == "INVALID_PAGE_TOKEN"
