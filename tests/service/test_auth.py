"""Tokens: random, stored only as a hash, one seat of one game, never shown in a repr."""

from __future__ import annotations

import pytest

from service import auth
from service.errors import ServiceError


def test_tokens_are_random_and_only_their_hash_is_kept():
    tokens = {auth.new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 43 for t in tokens)
    token = tokens.pop()
    digest = auth.token_hash(token)
    assert len(digest) == 64 and token not in digest
    assert token not in repr(auth.credentials([("authorization", f"Bearer {token}")]))


def test_a_token_identifies_its_seat_or_the_creator():
    seat_tokens = [auth.new_token() for _ in range(3)]
    creator = auth.new_token()
    hashes = [auth.token_hash(t) for t in seat_tokens[:2]] + [None]  # seat 2 is open
    ai_seats = [False, False, False]  # no seat is played by the AI

    def who(token, seat=None, ai_token="ai-secret"):
        metadata = [("authorization", f"Bearer {token}")] if token else []
        if seat is not None:
            metadata.append(("x-tabletop-seat", str(seat)))
        return auth.identify(auth.credentials(metadata), hashes, ai_seats, auth.token_hash(creator), ai_token)

    assert who(None) == auth.SPECTATOR
    assert who(seat_tokens[1]) == auth.Caller("seat", 1)
    assert who(creator) == auth.Caller("creator")
    for bad in (seat_tokens[2], "x" * 43):
        with pytest.raises(ServiceError) as caught:
            who(bad)
        assert caught.value.reason == "INVALID_TOKEN"
    with pytest.raises(ServiceError) as caught:
        who("ai-secret", seat=0)
    assert caught.value.reason == "NOT_AN_AI_SEAT"
    with pytest.raises(ServiceError) as caught:  # no AI credential configured: the AI token is just a bad token
        who("ai-secret", seat=0, ai_token="")
    assert caught.value.reason == "INVALID_TOKEN"
