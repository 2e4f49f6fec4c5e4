"""GameService over gRPC: translate requests to the use cases (lobby, play, watch, suggest), their plain results
to messages (messages.py), and errors to statuses."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
from google.protobuf import json_format

from games import registry, wire
from games.base import Move
from games.codec import CodecError
from service import auth, errors, messages, metrics, validation
from service.history import History
from service.identity import Player, Verifier
from service.listing import Listing
from service.lobby import Lobby, SeatRequest
from service.logs import bind, log
from service.mine import PlayerGames
from service.play import Play
from service.quotas import Quotas
from service.ratings import Ratings
from service.seats import Seats
from service.store import Timer
from service.suggest import Suggest
from service.watch import Watch
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

SEAT_KINDS = {pb.SEAT_KIND_HUMAN: "human", pb.SEAT_KIND_AI: "ai", pb.SEAT_KIND_OPEN: "open"}


def _failure(exc: Exception) -> errors.ServiceError:
    if isinstance(exc, errors.ServiceError):
        return exc
    if isinstance(exc, CodecError):  # stored data this build cannot read: our fault, not the caller's
        log.error("stored data unreadable", error=str(exc))
        return errors.ServiceError(grpc.StatusCode.INTERNAL, "STORED_DATA_UNREADABLE", "the stored game is unreadable")
    log.exception("unexpected error")
    return errors.ServiceError(grpc.StatusCode.INTERNAL, "INTERNAL", "internal error")


async def _abort(context: grpc.aio.ServicerContext, exc: Exception) -> None:
    failure = _failure(exc)
    bind(reason=failure.reason)  # on the RPC's log line
    await context.abort_with_status(failure.to_status())


def unary(method: Callable[..., Any]) -> Callable[..., Any]:
    """Turn ServiceError (and anything unexpected) into a status with ErrorInfo."""

    @functools.wraps(method)
    async def handler(self, request, context: grpc.aio.ServicerContext):
        try:
            validation.check_enums(request)
            return await method(self, request, context)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a status
            await _abort(context, exc)

    return handler


def streaming(method: Callable[..., AsyncIterator[Any]]) -> Callable[..., AsyncIterator[Any]]:
    @functools.wraps(method)
    async def handler(self, request, context: grpc.aio.ServicerContext):
        try:
            validation.check_enums(request)
            async for response in method(self, request, context):
                yield response
        except Exception as exc:  # noqa: BLE001
            await _abort(context, exc)

    return handler


def _struct_options(options) -> dict[str, Any]:
    try:
        return wire.plain(json_format.MessageToDict(options))
    except ValueError as exc:  # NaN and infinities have no JSON form
        raise errors.invalid("INVALID_OPTIONS", f"options_struct is not valid JSON: {exc}") from None


class _NoQuota:
    """No quotas (a servicer built without them): a block that takes nothing."""

    def done(self, game_id: str) -> None:
        pass

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        return None


class GameServicer(game_service_pb2_grpc.GameServiceServicer):
    def __init__(self, lobby: Lobby, play: Play, watch: Watch, suggest: Suggest, seats: Seats, listing: Listing,
                 watch_write_seconds: float = 10.0, quotas: Quotas | None = None, verifier: Verifier | None = None,
                 history: History | None = None):
        self.verifier = verifier or Verifier()
        self.watch_write_seconds = watch_write_seconds
        self.quotas = quotas
        self.lobby = lobby
        self.play = play
        self.watch = watch
        self.suggest = suggest
        self.seats = seats
        self.listing = listing
        self.player_games = PlayerGames(listing.store)
        self.history = history or History(None, play.tables)
        self.ratings = Ratings(self.history)

    def _credentials(self, context: grpc.aio.ServicerContext) -> auth.Credentials:
        """The caller's token or verified identity (UNAUTHENTICATED for a bad one, before anything changes)."""
        creds = auth.credentials(context.invocation_metadata(), self.verifier)
        if creds.player is not None:
            bind(player=creds.player.player_id)
        return creds

    def _identity(self, context: grpc.aio.ServicerContext) -> Player | None:
        """The caller's verified identity, if any, for the calls that take no token (a seat token there is
        ignored, as ever; a bad identity is UNAUTHENTICATED, never ignored)."""
        player = auth.identity(context.invocation_metadata(), self.verifier)
        if player is not None:
            bind(player=player.player_id)
        return player

    def _creating(self, context):
        """One game creation under the caller's quotas (service/quotas.py)."""
        if self.quotas is None:
            return _NoQuota()
        return self.quotas.creating(self.quotas.identify(context.invocation_metadata(), context.peer()))

    def _lease(self, context, kind: str):
        """One of the caller's concurrent `kind` slots ("watch", "suggest") for a block."""
        if self.quotas is None:
            return _NoQuota()
        return self.quotas.lease(self.quotas.identify(context.invocation_metadata(), context.peer()), kind)

    @unary
    async def ListGameTypes(self, request: pb.ListGameTypesRequest, context) -> pb.ListGameTypesResponse:
        self._identity(context)  # a bad identity is refused on every call, never ignored
        return pb.ListGameTypesResponse(game_types=[wire.game_type_to_proto(g) for g in registry.all_games()])

    @unary
    async def CreateGame(self, request: pb.CreateGameRequest, context) -> pb.CreateGameResponse:
        which = request.WhichOneof("options")
        options = (
            request.options_json if which == "options_json"
            else _struct_options(request.options_struct) if which == "options_struct"
            else None
        )
        seats = [SeatRequest(SEAT_KINDS.get(s.kind, ""), s.name, s.strength) for s in request.seats]
        seed = request.seed if request.HasField("seed") else None
        visibility = "public" if request.visibility == pb.VISIBILITY_PUBLIC else "private"
        timer = None
        if request.HasField("timer") and request.timer.turn_seconds:
            t = request.timer
            timer = Timer(t.turn_seconds, "forfeit" if t.on_timeout == pb.TIMEOUT_POLICY_FORFEIT else "ai",
                          t.strength or "easy", t.away_after or 2)
        player = self._identity(context)
        async with self._creating(context) as creation:
            created = await self.lobby.create(request.game_type, options, seats, request.start, seed, visibility,
                                              timer, player, request.rated)
            creation.done(created.game_id)
        return messages.created(created)

    @unary
    async def JoinGame(self, request: pb.JoinGameRequest, context) -> pb.JoinGameResponse:
        seat = request.seat if request.HasField("seat") else None
        player = self._identity(context)
        return messages.joined(await self.lobby.join(request.join_code, request.name, seat, request.game_id, player))

    @unary
    async def ListGames(self, request: pb.ListGamesRequest, context) -> pb.ListGamesResponse:
        self._identity(context)  # a bad identity is refused on every call, never ignored
        return messages.listed(await self.listing.list_games(
            request.game_type, request.min_open_seats, request.page_size, request.page_token
        ))

    @unary
    async def ListMyGames(self, request: pb.ListMyGamesRequest, context) -> pb.ListMyGamesResponse:
        player = self._identity(context)
        if player is None:
            raise errors.unauthenticated("IDENTITY_REQUIRED", "ListMyGames needs the caller's signed identity "
                                                              "(authorization: Bearer <JWT>)")
        return messages.my_games(await self.player_games.list(player.player_id, request.page_size,
                                                              request.page_token))

    @unary
    async def StartGame(self, request: pb.StartGameRequest, context) -> pb.StartGameResponse:
        seen = await self.lobby.start(request.game_id, self._credentials(context))
        return pb.StartGameResponse(state=messages.game_state(seen))

    @unary
    async def GetState(self, request: pb.GetStateRequest, context) -> bytes:
        return messages.state_response(await self.play.get_state(request.game_id, self._credentials(context)))

    @unary
    async def MakeMove(self, request: pb.MakeMoveRequest, context) -> bytes:
        move: str | Move = request.move_id
        if request.WhichOneof("move") == "typed_move":
            move = messages.typed_move(await self.play.engine(request.game_id), request.typed_move)
        expected = request.expected_version if request.HasField("expected_version") else None
        return messages.moved(
            await self.play.make_move(request.game_id, self._credentials(context), move, expected, request.request_id)
        )

    @unary
    async def GetScore(self, request: pb.GetScoreRequest, context) -> pb.GetScoreResponse:
        return messages.scored(await self.play.score(request.game_id, self._credentials(context)))

    @streaming
    async def WatchGame(self, request: pb.WatchGameRequest, context) -> AsyncIterator[pb.WatchGameResponse]:
        # Each update is written with a deadline: gRPC holds at most the client's flow-control window of unread
        # updates, and a client that reads nothing for watch_write_seconds is dropped, not buffered for forever.
        creds = self._credentials(context)
        async with self._lease(context, "watch"):
            async for event, seen in self.watch.watch(request.game_id, creds, request.from_version):
                try:
                    await self.watch.turns.write(context, messages.watched(event, seen), self.watch_write_seconds)
                except TimeoutError:
                    raise errors.ServiceError(
                        grpc.StatusCode.RESOURCE_EXHAUSTED, "WATCHER_TOO_SLOW",
                        f"the stream read nothing for {self.watch_write_seconds:g} s: resume with from_version",
                    ) from None
                except Exception as exc:  # noqa: BLE001 - gRPC refuses a write once the client has gone: it is over
                    log.info("watch stream closed by its client", error=type(exc).__name__)
                    return
        return
        yield  # an async generator that writes its updates itself (context.write, under a deadline)

    @unary
    async def SuggestMove(self, request: pb.SuggestMoveRequest, context) -> pb.SuggestMoveResponse:
        creds = self._credentials(context)
        async with self._lease(context, "suggest"):
            suggestion = await self.suggest.suggest(
                request.game_id, creds, request.strength, request.iterations, request.time_budget_seconds
            )
        return messages.suggestion(suggestion)

    @unary
    async def LeaveGame(self, request: pb.LeaveGameRequest, context) -> pb.LeaveGameResponse:
        seen = await self.seats.leave(request.game_id, self._credentials(context))
        return pb.LeaveGameResponse(state=messages.game_state(seen))

    @unary
    async def Resign(self, request: pb.ResignRequest, context) -> pb.ResignResponse:
        seen = await self.seats.resign(request.game_id, self._credentials(context))
        return pb.ResignResponse(state=messages.game_state(seen))

    @unary
    async def ListFinishedGames(self, request: pb.ListFinishedGamesRequest, context) -> pb.ListFinishedGamesResponse:
        player = self._identity(context)
        return messages.finished_games(await self.history.list_games(
            player.player_id if player else None, request.player_id, request.game_type, request.page_size,
            request.page_token))

    @unary
    async def GetReplay(self, request: pb.GetReplayRequest, context) -> pb.GetReplayResponse:
        return messages.replay(await self.history.replay(request.game_id, self._credentials(context)))

    @unary
    async def GetRatings(self, request: pb.GetRatingsRequest, context) -> pb.GetRatingsResponse:
        player = self._identity(context)
        return pb.GetRatingsResponse(ratings=[messages.rating(r) for r in await self.ratings.player(
            player.player_id if player else None, request.player_id)])

    @unary
    async def GetLeaderboard(self, request: pb.GetLeaderboardRequest, context) -> pb.GetLeaderboardResponse:
        self._identity(context)  # a bad identity is refused on every call, never ignored
        board = await self.ratings.leaderboard(request.game_type, request.page_size, request.page_token)
        return pb.GetLeaderboardResponse(ratings=[messages.rating(r) for r in board.ratings],
                                         next_page_token=board.next_page_token)


def _serializer(message_class: Any) -> Callable[[Any], bytes]:
    """A response's serialiser that also sends bytes serialised before (messages.game_state_bytes) as they are."""
    serialize = message_class.SerializeToString
    return lambda response: response if response.__class__ is bytes else serialize(response)


def add_to_server(servicer: GameServicer, server: grpc.aio.Server) -> None:
    """Register GameService as its generated code does, with serialisers that let a method answer with bytes, each
    method counted, timed and logged (metrics.instrument)."""
    service = pb.DESCRIPTOR.services_by_name["GameService"]
    handlers = {}
    for method in service.methods:
        request, response = getattr(pb, method.input_type.name), getattr(pb, method.output_type.name)
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = metrics.instrument(method.name, make(
            getattr(servicer, method.name), request_deserializer=request.FromString,
            response_serializer=_serializer(response),
        ))
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
    server.add_registered_method_handlers(service.full_name, handlers)
