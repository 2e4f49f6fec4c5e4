"""Signed player identities (service/identity.py): a frontend's JWT binds the seat it takes to the player id, the
player acts for it from any device with no seat token and lists its games; bad tokens are UNAUTHENTICATED with a
reason and change nothing; another identity never acts for the seat; anonymous play is unchanged."""

from __future__ import annotations

import dataclasses
import json
import time

import grpc
import jwt
import pytest
import redis
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from service.config import Config, ConfigError
from service.identity import Verifier
from service.mine import player_games_key
from service.store import game_key
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import AI_TOKEN, HUMAN, OPEN, Api, ServerThread
from tests.service.test_errors import C, fails

SECRET = "a-frontend-shared-secret-of-at-least-32-bytes"
ISSUER = "https://frontend.example"
AUDIENCE = "tabletop"
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())


def jwk_of(private_key, kid: str) -> dict:
    is_rsa = isinstance(private_key, rsa.RSAPrivateKey)
    algorithm = jwt.algorithms.RSAAlgorithm if is_rsa else jwt.algorithms.ECAlgorithm
    doc = json.loads(algorithm.to_jwk(private_key.public_key()))
    return {**doc, "kid": kid, "use": "sig"}


def mint(sub: str, *, key=SECRET, alg: str = "HS256", kid: str | None = None, name: str | None = None,
         lifetime: int = 300, **claims) -> str:
    now = int(time.time())
    body = {"sub": sub, "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + lifetime}
    if name:
        body["name"] = name
    body.update(claims)
    body = {k: v for k, v in body.items() if v is not None}
    return jwt.encode(body, key, algorithm=alg, headers={"kid": kid} if kid else None)


def alice() -> str:  # the shared secret (a frontend minting its own tokens)
    return mint("alice", name="Alice")


def bob() -> str:  # an identity provider's RSA key, from the JWKS
    return mint("bob", key=RSA_KEY, alg="RS256", kid="rsa-1", name="Bob")


def bob_ec() -> str:  # the same player, another key of the set
    return mint("bob", key=EC_KEY, alg="ES256", kid="ec-1")


def carol() -> str:
    return mint("carol", key=EC_KEY, alg="ES256", kid="ec-1", name="Carol")


def bearer(token: str | None) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")] if token else []


@pytest.fixture
def jwks_file(tmp_path):
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps({"keys": [jwk_of(RSA_KEY, "rsa-1"), jwk_of(EC_KEY, "ec-1")]}))
    return path


@pytest.fixture
def identity_api(redis_db_url, toy_game, jwks_file):
    """A game service configured from the environment with a shared secret and a JWKS file."""
    env = {
        "TABLETOP_REDIS_URL": redis_db_url, "TABLETOP_JWT_SECRET": SECRET, "TABLETOP_JWT_JWKS_FILE": str(jwks_file),
        "TABLETOP_JWT_ISSUER": ISSUER, "TABLETOP_JWT_AUDIENCE": AUDIENCE, "TABLETOP_GRPC_PORT": "0",
        "TABLETOP_METRICS_PORT": "0", "TABLETOP_AI_SERVICE_TOKEN": AI_TOKEN, "TABLETOP_AI_TARGET": "127.0.0.1:1",
    }
    config = Config.from_env(env)
    thread = ServerThread(dataclasses.replace(config, grpc_host="127.0.0.1")).start()
    channel = grpc.insecure_channel(thread.target)
    yield Api(game_service_pb2_grpc.GameServiceStub(channel), channel)
    channel.close()
    thread.stop()


def state(api: Api, game_id: str, token: str | None) -> pb.GameState:
    return api.stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=bearer(token)).state


def move(api: Api, game_id: str, token: str, move_id: str) -> pb.MakeMoveResponse:
    return api.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=move_id), metadata=bearer(token))


def new_game(api: Api) -> str:
    """Alice creates a two-seat game (her seat bound to her), Bob joins it with his identity, Alice starts it."""
    created = api.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)]), metadata=bearer(alice()))
    joined = api.stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(bob()))
    assert joined.seat == 1
    api.stub.StartGame(pb.StartGameRequest(game_id=created.game_id), metadata=bearer(alice()))  # the creator's id
    return created.game_id


def test_a_player_reclaims_its_seat_from_another_device_with_only_its_identity(identity_api):
    api = identity_api
    game_id = new_game(api)
    # A second device: no seat token, a freshly minted identity (another key of the set for Bob).
    mine = state(api, game_id, alice())
    assert mine.your_seat == 0 and mine.legal_moves and [s.name for s in mine.seats] == ["Alice", "Bob"]
    theirs = state(api, game_id, bob_ec())
    assert theirs.your_seat == 1 and theirs.legal_moves
    version = mine.version
    move(api, game_id, alice(), mine.legal_moves[0].id)
    move(api, game_id, bob_ec(), theirs.legal_moves[0].id)
    after = state(api, game_id, alice())
    assert after.version == version + 2 and after.your_seat == 0
    score = api.stub.GetScore(pb.GetScoreRequest(game_id=game_id), metadata=bearer(bob()))
    assert len(score.seats) == 2
    watched = next(iter(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=bearer(bob()))))
    assert watched.state.your_seat == 1
    left = api.stub.LeaveGame(pb.LeaveGameRequest(game_id=game_id), metadata=bearer(bob()))
    assert left.state.seats[1].state == pb.SEAT_STATE_LEFT


def test_another_identity_never_acts_for_a_bound_seat(identity_api):
    api = identity_api
    game_id = new_game(api)
    version = state(api, game_id, None).version
    seen = state(api, game_id, carol())  # a signed-in stranger watches as a spectator
    assert not seen.HasField("your_seat") and not seen.legal_moves
    fails(C.PERMISSION_DENIED, "NOT_YOUR_SEAT", move, api, game_id, carol(), "card:1")
    fails(C.PERMISSION_DENIED, "NOT_YOUR_SEAT", api.stub.LeaveGame, pb.LeaveGameRequest(game_id=game_id),
          metadata=bearer(carol()))
    fails(C.PERMISSION_DENIED, "NOT_YOUR_SEAT", api.stub.Resign, pb.ResignRequest(game_id=game_id),
          metadata=bearer(carol()))
    # Bob acts for his own seat only, whatever seat he names (x-tabletop-seat is the AI's, and ignored here).
    legal = state(api, game_id, bob()).legal_moves
    moved = api.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=legal[0].id),
                              metadata=[*bearer(bob()), ("x-tabletop-seat", "0")])
    assert moved.state.your_seat == 1
    assert state(api, game_id, alice()).legal_moves  # Alice's seat still has to decide
    assert state(api, game_id, None).version == version + 1
    # Nor may a signed-in stranger start someone else's game, or join a seat twice.
    created = api.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN), pb.SeatSpec(kind=OPEN)]),
        metadata=bearer(alice()))
    fails(C.PERMISSION_DENIED, "NOT_GAME_CREATOR", api.stub.StartGame,
          pb.StartGameRequest(game_id=created.game_id), metadata=bearer(carol()))
    fails(C.FAILED_PRECONDITION, "ALREADY_SEATED", api.stub.JoinGame,
          pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(alice()))


def test_the_seat_token_of_a_bound_seat_still_works(identity_api):
    """The documented choice: the seat token CreateGame/JoinGame gave the signed-in player keeps acting for the
    seat (it was shown only to that player); the identity is the way in from any other device."""
    api = identity_api
    created = api.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=HUMAN)], start=True),
        metadata=bearer(alice()))
    token = created.seat_tokens[0].token
    seen = state(api, created.game_id, token)
    assert seen.your_seat == 0
    move(api, created.game_id, token, seen.legal_moves[0].id)
    # Only the first HUMAN seat is bound to the creator: the other is an anonymous seat played with its token.
    assert not state(api, created.game_id, alice()).legal_moves
    assert state(api, created.game_id, created.seat_tokens[1].token).legal_moves


@pytest.mark.parametrize("kind", [
    "expired", "bad signature", "wrong issuer", "wrong audience", "unsigned", "garbage", "no expiry", "unknown kid",
    "hs with the public key", "not yet valid",
])
def test_a_bad_identity_is_unauthenticated_and_changes_nothing(identity_api, kind):
    api = identity_api
    game_id = new_game(api)
    before = state(api, game_id, alice())
    public_pem = RSA_KEY.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo)
    token, reason = {
        "expired": (mint("alice", lifetime=-3600), "IDENTITY_EXPIRED"),
        "bad signature": (mint("alice", key="another-secret-of-at-least-32-bytes!!"), "INVALID_IDENTITY_SIGNATURE"),
        "wrong issuer": (mint("alice", iss="https://evil.example"), "WRONG_IDENTITY_ISSUER"),
        "wrong audience": (mint("alice", aud="another-service"), "WRONG_IDENTITY_AUDIENCE"),
        "unsigned": (jwt.encode({"sub": "alice", "iss": ISSUER, "aud": AUDIENCE, "exp": int(time.time()) + 300},
                                None, algorithm="none"), "UNSIGNED_IDENTITY"),
        "garbage": ("not.a.jwt", "MALFORMED_IDENTITY"),
        "no expiry": (mint("alice", exp=None), "IDENTITY_CLAIM_MISSING"),
        "unknown kid": (mint("bob", key=RSA_KEY, alg="RS256", kid="rsa-2"), "IDENTITY_KEY_UNKNOWN"),
        # Algorithm confusion: an HS256 token "signed" with the RSA public key is checked with the secret only.
        "hs with the public key": (_hmac_jwt(public_pem, "bob"), "INVALID_IDENTITY_SIGNATURE"),
        "not yet valid": (mint("alice", nbf=int(time.time()) + 3600), "IDENTITY_NOT_YET_VALID"),
    }[kind]
    calls = [
        lambda: move(api, game_id, token, before.legal_moves[0].id),
        lambda: state(api, game_id, token),
        lambda: api.stub.LeaveGame(pb.LeaveGameRequest(game_id=game_id), metadata=bearer(token)),
        lambda: api.stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2),
                                    metadata=bearer(token)),
        lambda: api.stub.ListMyGames(pb.ListMyGamesRequest(), metadata=bearer(token)),
        lambda: list(api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=bearer(token))),
    ]
    for call in calls:
        error = fails(C.UNAUTHENTICATED, reason, call)
        assert token not in error.details()
    assert state(api, game_id, alice()).version == before.version


def _hmac_jwt(key: bytes, sub: str) -> str:
    """An HS256 JWT keyed with `key` (PyJWT itself refuses a PEM as an HMAC key), as an attacker would forge."""
    import base64
    import hashlib
    import hmac

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    header = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "rsa-1"}).encode())
    body = b64(json.dumps({"sub": sub, "iss": ISSUER, "aud": AUDIENCE, "exp": int(time.time()) + 300}).encode())
    signature = hmac.new(key, f"{header}.{body}".encode(), hashlib.sha256).digest()
    return f"{header}.{body}.{b64(signature)}"


def test_an_identity_sent_to_a_service_without_keys_is_refused(api):
    """The session's service has no JWT configuration: a JWT is UNAUTHENTICATED, never taken as anonymous."""
    created = api.create("toy", [HUMAN, HUMAN], start=True)
    fails(C.UNAUTHENTICATED, "IDENTITY_NOT_CONFIGURED", api.stub.GetState,
          pb.GetStateRequest(game_id=created.game_id), metadata=bearer(alice()))
    fails(C.UNAUTHENTICATED, "IDENTITY_NOT_CONFIGURED", api.stub.ListGames, pb.ListGamesRequest(),
          metadata=bearer(alice()))
    fails(C.UNAUTHENTICATED, "IDENTITY_NOT_CONFIGURED", api.stub.CreateGame,
          pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2), metadata=bearer(alice()))


def test_anonymous_play_is_unchanged_where_identities_are_configured(identity_api):
    api = identity_api
    created = api.create("toy", [HUMAN, OPEN])
    joined = api.stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code, name="Dan"))
    api.stub.StartGame(pb.StartGameRequest(game_id=created.game_id),
                       metadata=bearer(created.creator_token))
    for token in (created.seat_tokens[0].token, joined.token):
        seen = state(api, created.game_id, token)
        assert seen.legal_moves
        move(api, created.game_id, token, seen.legal_moves[0].id)
    # A signed-in player holds no seat of an anonymous game: it watches, it does not act.
    assert not state(api, created.game_id, alice()).HasField("your_seat")
    fails(C.PERMISSION_DENIED, "NOT_YOUR_SEAT", move, api, created.game_id, alice(), "card:1")
    fails(C.UNAUTHENTICATED, "IDENTITY_REQUIRED", api.stub.ListMyGames, pb.ListMyGamesRequest())


def test_my_games_are_listed_newest_first_in_pages(identity_api, redis_db_url):
    api = identity_api
    ids = []
    for _ in range(5):
        ids.append(api.stub.CreateGame(pb.CreateGameRequest(
            game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)]), metadata=bearer(alice())
        ).game_id)
    joined = api.stub.JoinGame(pb.JoinGameRequest(join_code=api.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)])).join_code),
        metadata=bearer(alice()))
    ids.append(joined.game_id)
    api.create("toy", [HUMAN, HUMAN])  # an anonymous game: nobody's
    # An entry whose commit never happened (a replica that died between the two writes) is never listed.
    client = redis.Redis.from_url(redis_db_url)
    client.zadd(player_games_key("alice"), {"ghostGame0000": int(time.time() * 1000) - 3_600_000})
    pages, token = [], ""
    while True:
        page = api.stub.ListMyGames(pb.ListMyGamesRequest(page_size=2, page_token=token), metadata=bearer(alice()))
        pages.append([(g.joined_unix_ms, g.game_id) for g in page.games])
        token = page.next_page_token
        if not token:
            break
    listed = [g for p in pages for g in p]
    # Each game once, newest first (games taken in the same millisecond: by id, descending), pages of two.
    assert sorted(g for _, g in listed) == sorted(ids) and listed == sorted(listed, reverse=True)
    assert [len(p) for p in pages] == [2, 2, 2] or [len(p) for p in pages] == [2, 2, 2, 0]
    first = api.stub.ListMyGames(pb.ListMyGamesRequest(page_size=1), metadata=bearer(alice())).games[0]
    assert (first.game_id, first.seat, first.status, first.game_type) == (joined.game_id, 1,
                                                                           pb.GAME_STATUS_WAITING_FOR_PLAYERS, "toy")
    assert not client.zscore(player_games_key("alice"), "ghostGame0000")  # dropped once met
    assert client.exists(game_key(ids[0]))
    assert not api.stub.ListMyGames(pb.ListMyGamesRequest(), metadata=bearer(carol())).games
    page = api.stub.ListMyGames(pb.ListMyGamesRequest(page_size=2), metadata=bearer(alice()))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", api.stub.ListMyGames,
          pb.ListMyGamesRequest(page_token=page.next_page_token), metadata=bearer(carol()))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_SIZE", api.stub.ListMyGames,
          pb.ListMyGamesRequest(page_size=-1), metadata=bearer(alice()))


def test_the_algorithms_are_fixed_by_the_configured_keys(jwks_file, tmp_path):
    only_keys = Verifier(jwks_file=str(jwks_file), issuer=ISSUER, audience=AUDIENCE)
    assert only_keys.verify(bob()).player_id == "bob"
    with pytest.raises(Exception) as caught:  # no shared secret: an HS token is refused whatever its key
        only_keys.verify(mint("bob"))
    assert caught.value.reason == "IDENTITY_ALGORITHM_NOT_ALLOWED"
    with pytest.raises(Exception) as caught:  # an RSA key does not check an ES256 token
        only_keys.verify(mint("bob", key=EC_KEY, alg="ES256", kid="rsa-1"))
    assert caught.value.reason == "IDENTITY_KEY_UNKNOWN"
    pem = tmp_path / "key.pem"
    pem.write_bytes(EC_KEY.public_key().public_bytes(serialization.Encoding.PEM,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
    assert Verifier(jwks_file=str(pem), issuer=ISSUER, audience=AUDIENCE).verify(carol()).name == "Carol"


@pytest.mark.parametrize("env, words", [
    ({"TABLETOP_JWT_SECRET": "short"}, "at least 32 bytes"),
    ({"TABLETOP_JWT_SECRET": SECRET, "TABLETOP_JWT_ISSUER": ISSUER}, "TABLETOP_JWT_AUDIENCE"),
    ({"TABLETOP_JWT_JWKS_FILE": "/nonexistent/jwks.json", "TABLETOP_JWT_ISSUER": ISSUER,
      "TABLETOP_JWT_AUDIENCE": AUDIENCE}, "cannot be read"),
    ({"TABLETOP_JWT_JWKS_FILE": "SYMMETRIC", "TABLETOP_JWT_ISSUER": ISSUER, "TABLETOP_JWT_AUDIENCE": AUDIENCE},
     "oct"),
])
def test_unusable_jwt_settings_are_refused_at_start(env, words, tmp_path):
    if env.get("TABLETOP_JWT_JWKS_FILE") == "SYMMETRIC":
        path = tmp_path / "oct.json"
        path.write_text(json.dumps({"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}))
        env = {**env, "TABLETOP_JWT_JWKS_FILE": str(path)}
    with pytest.raises(ConfigError, match=words):
        Config.from_env(env)


def test_the_lobby_names_the_players_of_bound_seats_and_marks_a_rated_game(identity_api):
    """The lobby (public games) gives each bound seat's player id, so that a frontend shows the player's rating
    beside the name, and says whether a game is rated; a game's state never names a player."""
    api = identity_api
    rated = api.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN), pb.SeatSpec(kind=OPEN)],
        visibility=pb.VISIBILITY_PUBLIC, rated=True), metadata=bearer(alice()))
    api.stub.JoinGame(pb.JoinGameRequest(game_id=rated.game_id), metadata=bearer(bob()))
    anonymous = api.stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)], visibility=pb.VISIBILITY_PUBLIC))
    listed = {g.game_id: g for g in api.stub.ListGames(pb.ListGamesRequest()).games}
    assert [s.player_id for s in listed[rated.game_id].seats] == ["alice", "bob", ""]
    assert listed[rated.game_id].rated
    assert [s.player_id for s in listed[anonymous.game_id].seats] == ["", ""]
    assert not listed[anonymous.game_id].rated
    seen = state(api, rated.game_id, alice())
    assert [s.player_id for s in seen.seats] == ["", "", ""]
