"""A signed-in player through the SDK (`connect(..., identity=...)`) and the terminal (`tabletop play --token`):
the seat taken is bound to the player, listed in its games, and resumed from another client with no seat token."""

from __future__ import annotations

import subprocess

import pytest

from tabletop.client import PermissionDenied, Seat, Unauthenticated, connect
from tests.clients.conftest import REPO, ServiceProcess, client_env, tabletop
from tests.service.test_identity import AUDIENCE, EC_KEY, ISSUER, RSA_KEY, SECRET, alice, bob, carol, jwk_of


@pytest.fixture
def identity_service(redis_db_url, tmp_path):
    import json

    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps({"keys": [jwk_of(RSA_KEY, "rsa-1"), jwk_of(EC_KEY, "ec-1")]}))
    service = ServiceProcess(redis_db_url)
    service.env.update(TABLETOP_JWT_SECRET=SECRET, TABLETOP_JWT_JWKS_FILE=str(jwks), TABLETOP_JWT_ISSUER=ISSUER,
                       TABLETOP_JWT_AUDIENCE=AUDIENCE)
    service.start()
    yield service
    service.stop()


@pytest.mark.integration  # it starts processes
def test_the_sdk_binds_lists_and_resumes_a_signed_in_players_seat(identity_service):
    target = identity_service.target
    with connect(target, identity=alice) as laptop:  # a callable: a fresh JWT for each call
        game = laptop.create_game("naishi", [Seat.human(), Seat.open()])
        with connect(target, identity=bob()) as bobs:
            joined = bobs.join_game(game.join_code)
            assert joined.seat == 1 and joined.state().seats[1].name == "Bob"
        laptop.start_game(game.game_id)  # the creator's identity, no creator token
        assert [g.game_id for g in laptop.my_games(page_size=1)] == [game.game_id]
    with connect(target, identity=alice()) as phone:  # another device: no token from the first one
        me = phone.resume(game.game_id)
        assert me.seat == 0 and me.token is None
        state = me.state()
        assert state.your_seat == 0 and state.legal_moves
        after = me.move(state.legal_moves[0].id)
        assert after.version == state.version + 1
    with connect(target, identity=carol()) as stranger:
        with pytest.raises(PermissionDenied):
            stranger.resume(game.game_id)
        assert list(stranger.my_games()) == []
    with connect(target) as anonymous, pytest.raises(Unauthenticated) as caught:
        anonymous.list_my_games()
    assert caught.value.reason == "IDENTITY_REQUIRED"


@pytest.mark.integration
def test_tabletop_play_resumes_a_seat_with_the_token_alone(identity_service):
    target = identity_service.target
    with connect(target, identity=alice) as laptop:
        game = laptop.create_game("naishi", [Seat.human(), Seat.open()])
        with connect(target, identity=bob()) as bobs:
            bobs.join_game(game.join_code)
        laptop.start_game(game.game_id)
    env = client_env(TABLETOP_IDENTITY_TOKEN=alice())
    done = subprocess.run(tabletop("play", "naishi", "--target", target, "--resume", game.game_id), input="",
                          env=env, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Game {game.game_id}: back at seat 1 (Alice)" in done.stdout
    assert "Your move:" in done.stdout and "your seat waits" in done.stdout
    # Another player's token: no seat to resume.
    done = subprocess.run(tabletop("play", "naishi", "--target", target, "--resume", game.game_id,
                                   "--token", carol()), input="", env=client_env(), cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "holds no seat" in done.stdout + done.stderr
