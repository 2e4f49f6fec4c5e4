"""The browser path: gRPC-Web through our gateway reaches the same API as native gRPC, with the same tokens, the
same google.rpc.Status details, WatchGame streamed live, and CORS only for the configured origins."""

from __future__ import annotations

import asyncio
import base64

import aiohttp
import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from clients.grpcweb import GrpcWebError, GrpcWebStub
from gateway.config import ConfigError, parse_origins
from tabletop import grpcweb
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import naishi_pb2
from tests.gateway.conftest import ALLOWED_ORIGIN, GatewayThread, gateway_config
from tests.service.conftest import ServerThread, service_config

SERVICE = pb.DESCRIPTOR.services_by_name["GameService"]
HUMAN, AI = pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann"), pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")


def run(coroutine_function, url: str, *args):
    async def main():
        async with aiohttp.ClientSession() as session:
            return await coroutine_function(GrpcWebStub(session, url, SERVICE), session, *args)
    return asyncio.run(main())


def auth(token: str) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")]


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(error)
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    raise AssertionError(f"no ErrorInfo in {status}")


def test_a_seat_plays_through_the_gateway_with_its_token(gateway, api):
    async def scenario(stub, session):
        created = await stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[HUMAN, AI], start=True))
        token = created.seat_tokens[0].token
        state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth(token))).state
        spectator = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id))).state
        move = state.legal_moves[0]
        moved = await stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id,
                                                       expected_version=state.version), metadata=auth(token))
        return created, state, spectator, moved

    created, state, spectator, moved = run(scenario, gateway.url)
    assert state.your_seat == 0 and state.legal_moves and not spectator.HasField("your_seat")
    view = naishi_pb2.NaishiView()
    assert state.view.Unpack(view) and len(view.offer) == 2  # the typed view, as the browser unpacks it
    assert moved.version > state.version
    native = api.state(created.game_id, created.seat_tokens[0].token)
    assert native.version >= moved.version  # the same game, seen natively


def test_errors_carry_their_google_rpc_status_details(gateway):
    async def scenario(stub, session):
        failures = []
        for call in (stub.GetState(pb.GetStateRequest(game_id="no-such-game")),
                     stub.CreateGame(pb.CreateGameRequest(game_type="chess", seats=[HUMAN])),
                     stub.MakeMove(pb.MakeMoveRequest(game_id="no-such-game", move_id="x"),
                                   metadata=auth("not-a-token"))):
            with pytest.raises(GrpcWebError) as caught:
                await call
            failures.append(caught.value)
        return failures

    not_found, invalid, bad_token = run(scenario, gateway.url)
    assert not_found.code() is grpc.StatusCode.NOT_FOUND and error_info(not_found).reason == "GAME_NOT_FOUND"
    assert invalid.code() is grpc.StatusCode.INVALID_ARGUMENT and error_info(invalid).domain == "tabletop.dev"
    assert bad_token.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.UNAUTHENTICATED)
    assert error_info(bad_token).reason


def test_quota_errors_carry_retry_info_and_browsers_are_told_apart_by_address(quota_stack):
    service, front = quota_stack
    request = pb.CreateGameRequest(game_type="naishi", seats=[HUMAN, AI])

    async def scenario(stub, session):
        first = await stub.CreateGame(request, metadata=[("x-forwarded-for", "198.51.100.1")])
        with pytest.raises(GrpcWebError) as caught:
            await stub.CreateGame(request, metadata=[("x-forwarded-for", "198.51.100.1")])
        other = await stub.CreateGame(request, metadata=[("x-forwarded-for", "198.51.100.2")])
        return first, caught.value, other

    first, refused, other = run(scenario, front.url)
    assert first.game_id and other.game_id  # another browser has a quota of its own
    assert refused.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    details = rpc_status.from_call(refused).details
    retry = [d for d in details if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR)]
    assert retry, details
    info = error_details_pb2.RetryInfo()
    retry[0].Unpack(info)
    assert info.retry_delay.seconds >= 1
    # Without the gateway's secret, a claimed address is not believed: a direct caller cannot dodge its quota.
    with grpc.insecure_channel(service.target) as channel:
        from tabletop.v1 import game_service_pb2_grpc

        stub = game_service_pb2_grpc.GameServiceStub(channel)
        stub.CreateGame(request, metadata=[("x-forwarded-for", "203.0.113.9")])
        with pytest.raises(grpc.RpcError) as caught:
            stub.CreateGame(request, metadata=[("x-forwarded-for", "203.0.113.10")])
        assert caught.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED


def test_watch_game_streams_events_as_they_happen(gateway, api):
    created = api.create("naishi", [pb.SEAT_KIND_HUMAN, pb.SEAT_KIND_HUMAN], start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}

    async def scenario(stub, session):
        received = []
        stream = stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id, from_version=0))
        async for update in stream:
            received.append(update)
            if update.event.version == created.state.version:
                # caught up: now a seat moves (natively), and the stream must bring it
                seat = created.state.to_act[0]
                moves = api.state(created.game_id, tokens[seat]).legal_moves
                await asyncio.to_thread(api.move, created.game_id, tokens[seat], moves[0].id)
            if update.event.kind == pb.GameEvent.KIND_MOVE:
                break
        return received

    received = run(scenario, gateway.url)
    kinds = [u.event.kind for u in received]
    assert kinds[0] == pb.GameEvent.KIND_CREATED and kinds[-1] == pb.GameEvent.KIND_MOVE
    assert received[-1].state.version == received[-1].event.version


def test_watch_streams_go_to_the_watch_tier(redis_url):
    """With TABLETOP_GATEWAY_WATCH_UPSTREAM, WatchGame goes to the watch tier (a replica of the same service on the
    same Redis) and every other call to the game service: the players' replica never follows the game."""
    from tests.gateway.conftest import GatewayThread, gateway_config
    from tests.service.conftest import ServerThread, service_config

    players = ServerThread(service_config(redis_url)).start()
    spectators = ServerThread(service_config(redis_url)).start()
    gateway = GatewayThread(gateway_config(players.target, watch_upstream=spectators.target)).start()
    followed = {}

    async def scenario(stub, session):
        created = await stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[HUMAN, HUMAN], start=True))
        tokens = {t.seat: t.token for t in created.seat_tokens}
        kinds = []
        async for update in stub.WatchGame(pb.WatchGameRequest(game_id=created.game_id)):
            kinds.append(update.event.kind)
            if update.event.version == created.state.version:  # caught up: a seat moves, through the gateway
                followed.update({name: created.game_id in server.running.servicer.watch.feed._followers
                                 for name, server in (("spectators", spectators), ("players", players))})
                seat = created.state.to_act[0]
                state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id),
                                             metadata=auth(tokens[seat]))).state
                await stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=state.legal_moves[0].id),
                                    metadata=auth(tokens[seat]))
            if update.event.kind == pb.GameEvent.KIND_MOVE:
                break
        return kinds

    try:
        kinds = run(scenario, gateway.url)
    finally:
        gateway.stop()
        players.stop()
        spectators.stop()
    assert kinds[0] == pb.GameEvent.KIND_CREATED and kinds[-1] == pb.GameEvent.KIND_MOVE
    assert followed == {"spectators": True, "players": False}


async def _post(session, url, origin=None, content_type="application/grpc-web+proto", body=None, method="POST",
                headers=None):
    body = grpcweb.frame(0, pb.ListGameTypesRequest().SerializeToString()) if body is None else body
    sent = {"Content-Type": content_type, **({"Origin": origin} if origin else {}), **(headers or {})}
    async with session.request(method, url + "/tabletop.v1.GameService/ListGameTypes", data=body,
                               headers=sent) as response:
        return response.status, dict(response.headers), await response.read()


def _trailers(body: bytes) -> dict[str, str]:
    return next(grpcweb.parse_trailers(p) for f, p in grpcweb.frames(body) if f & grpcweb.TRAILERS)


def test_cors_answers_the_configured_origins_only(gateway):
    async def scenario(stub, session):
        preflight = {"Access-Control-Request-Method": "POST",
                     "Access-Control-Request-Headers": "authorization,content-type,x-grpc-web"}
        return (await _post(session, gateway.url, ALLOWED_ORIGIN, method="OPTIONS", headers=preflight),
                await _post(session, gateway.url, "https://evil.example", method="OPTIONS", headers=preflight),
                await _post(session, gateway.url, ALLOWED_ORIGIN),
                await _post(session, gateway.url, "https://evil.example"),
                await _post(session, gateway.url, gateway.url))

    allowed_pre, refused_pre, allowed, refused, same_origin = run(scenario, gateway.url)
    assert allowed_pre[0] == 204
    assert allowed_pre[1]["Access-Control-Allow-Origin"] == ALLOWED_ORIGIN
    assert "authorization" in allowed_pre[1]["Access-Control-Allow-Headers"]
    assert "x-api-key" in allowed_pre[1]["Access-Control-Allow-Headers"]
    assert refused_pre[0] == 403 and "Access-Control-Allow-Origin" not in refused_pre[1]
    assert allowed[0] == 200 and allowed[1]["Access-Control-Allow-Origin"] == ALLOWED_ORIGIN
    assert "grpc-status-details-bin" in allowed[1]["Access-Control-Expose-Headers"]
    assert _trailers(allowed[2])["grpc-status"] == "0"
    assert refused[0] == 403
    assert same_origin[0] == 200 and "Access-Control-Allow-Origin" not in same_origin[1]


def test_text_mode_and_bad_requests(gateway):
    async def scenario(stub, session):
        request = grpcweb.frame(0, pb.ListGameTypesRequest().SerializeToString())
        text = await _post(session, gateway.url, content_type="application/grpc-web-text",
                           body=base64.b64encode(request))
        broken = await _post(session, gateway.url, body=b"\x00\x00\x00\x00\x09abc")
        wrong_type = await _post(session, gateway.url, content_type="application/json", body=b"{}")
        async with session.post(gateway.url + "/tabletop.v1.AIService/SuggestMove", data=request,
                                headers={"Content-Type": "application/grpc-web+proto"}) as response:
            hidden = response.status, dict(response.headers)
        return text, broken, wrong_type, hidden

    text, broken, wrong_type, hidden = run(scenario, gateway.url)
    frames = list(grpcweb.frames(grpcweb.decode_text(text[2])))
    answer = pb.ListGameTypesResponse.FromString(frames[0][1])
    assert {t.name for t in answer.game_types} >= {"hinode", "naishi", "zipang", "kung-fur-fight"}
    assert text[1]["Content-Type"].startswith("application/grpc-web-text")
    assert broken[1]["grpc-status"] == str(grpc.StatusCode.INVALID_ARGUMENT.value[0])
    assert wrong_type[0] == 415
    assert hidden[0] == 200 and hidden[1]["grpc-status"] == str(grpc.StatusCode.UNIMPLEMENTED.value[0])


def test_health_and_the_page_without_a_build(gateway):
    async def scenario(stub, session):
        found = []
        for path in ("/healthz", "/readyz", "/"):
            async with session.get(gateway.url + path) as response:
                found.append((response.status, await response.text()))
        return found

    healthz, readyz, page = run(scenario, gateway.url)
    assert healthz[0] == 200 and readyz[0] == 200
    assert page[0] == 200 and "make web" in page[1]


@pytest.mark.parametrize("raw", ["*", "example.com", "https://a.example/path", "ftp://a.example"])
def test_origins_must_be_listed_one_by_one(raw):
    with pytest.raises(ConfigError):
        parse_origins(raw)


def test_origins_are_normalised():
    assert parse_origins(" https://A.example/ , http://127.0.0.1:5173") == {"https://a.example",
                                                                           "http://127.0.0.1:5173"}


def test_a_signed_identity_goes_through_the_gateway(redis_url, toy_game):  # noqa: F811
    """The gateway forwards `authorization: Bearer <JWT>`: a browser's signed-in player takes a seat, and a bad
    identity is refused by the service behind it, with its reason."""
    from tests.service.test_identity import AUDIENCE, ISSUER, SECRET, alice, mint

    service = ServerThread(service_config(redis_url, jwt_secret=SECRET, jwt_issuer=ISSUER,
                                          jwt_audience=AUDIENCE)).start()
    front = GatewayThread(gateway_config(service.target)).start()

    async def scenario(stub, session):
        created = await stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=[HUMAN, AI], start=True),
                                        metadata=auth(alice()))
        mine = await stub.ListMyGames(pb.ListMyGamesRequest(), metadata=auth(alice()))
        state = (await stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth(alice()))).state
        try:
            await stub.GetState(pb.GetStateRequest(game_id=created.game_id),
                                metadata=auth(mint("alice", lifetime=-3600)))
        except GrpcWebError as exc:
            return created, mine, state, exc
        raise AssertionError("an expired identity was accepted")

    try:
        created, mine, state, refused = run(scenario, front.url)
    finally:
        front.stop()
        service.stop()
    assert [g.game_id for g in mine.games] == [created.game_id]
    assert state.your_seat == 0 and state.legal_moves
    assert refused.code() == grpc.StatusCode.UNAUTHENTICATED and error_info(refused).reason == "IDENTITY_EXPIRED"
