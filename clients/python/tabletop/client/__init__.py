"""A small typed Python SDK over the generated `tabletop.v1` stubs (the tabletop-client distribution:
`pip install ./clients/python`; it needs grpcio, grpcio-status and protobuf, and no server code).

    from tabletop.client import connect, Seat

    client = connect("127.0.0.1:50051")
    game = client.create_game("hinode", [Seat.human("Ann"), Seat.ai("easy"), Seat.ai("easy")], start=True)
    me = game.player(0)                 # acts with seat 0's token
    state = me.state()                  # the seat's view and legal moves (tabletop.v1 GameState)
    me.move(state.legal_moves[0].id)    # expected_version = the version of the state just read
    for update in client.watch(game.game_id):   # resumes by itself after a dropped stream
        ...
    waiting = next(client.lobby("naishi"), None)    # public games waiting for players, oldest first, all pages
    if waiting:                                     # (create_game(..., public=True) lists one)
        bo = client.join_game(game_id=waiting.game_id, name="Bo")   # a public game needs no join code

A site with its own sign-in passes its player's signed identity (a JWT its backend minted or its identity
provider issued; docs/api.md, "Player identity"): `connect(target, identity=jwt)`, or a callable returning a fresh
JWT for each call. Seats it creates or joins are bound to the player, who then acts for them with no seat token
from any device: `client.resume(game_id)`, `client.my_games()`.

Over the network, connect with TLS: `connect("play.example.com:443", tls=True)` (the system's roots), or
`connect(target, root_certificates=open("ca.pem", "rb").read())` for a certificate from a private CA. The client
refuses to send a seat token or an API key (or to create or join a game, whose answer carries seat tokens) in
plaintext to anything but a loopback address (localhost, 127.0.0.0/8, ::1): it raises `PlaintextRefused` before
anything is sent, unless you pass `allow_insecure=True` for a network you trust.

Errors are exceptions of the `TabletopError` family carrying the gRPC code, the ErrorInfo reason, the message
and the ErrorInfo metadata. Retries: reads and moves are retried on UNAVAILABLE / DEADLINE_EXCEEDED with
backoff; a move keeps its `request_id` across retries, so the service applies it once whatever happens. A stale
`expected_version` is never retried: it raises `StaleVersion` (look at the new state and decide again).
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tabletop.client import transport
from tabletop.client.transport import PlaintextRefused as PlaintextRefused  # raised by the client; importable here
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc

T = TypeVar("T")
P = TypeVar("P")  # a page of a paged list: a response with a next_page_token

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
# A watch stream that ends with one of these (or ends early without error) is resumed.
RESUMABLE = (*RETRYABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)


# --- errors ---------------------------------------------------------------------------------------------------


class TabletopError(Exception):
    """A failed call: the gRPC `code`, the ErrorInfo `reason` ("" if none), the `message` and the `metadata`."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, metadata: dict[str, str] | None = None):
        super().__init__(f"{code.name} {reason}: {message}" if reason else f"{code.name}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = dict(metadata or {})


class NotFound(TabletopError):
    """No such game (or it expired)."""


class InvalidArgument(TabletopError):
    """The request is malformed (unknown game type, bad options, bad seat...)."""


class Unauthenticated(TabletopError):
    """The token is missing, malformed or not valid for this game."""


class PermissionDenied(TabletopError):
    """The token is valid but may not do this."""


class FailedPrecondition(TabletopError):
    """The game refused: an illegal move, not your turn, game over, lobby order; the message says why."""


class Aborted(TabletopError):
    """Nothing was applied because the game changed meanwhile."""


class StaleVersion(Aborted):
    """`expected_version` is stale: the game changed since in a way the seat can see (docs/api.md,
    `expected_version`); it is at `current_version` now. Fetch the state and decide again."""

    @property
    def current_version(self) -> int | None:
        value = self.metadata.get("current_version")
        return int(value) if value and value.isdigit() else None


class Unavailable(TabletopError):
    """The service (or its store, or the AI) is unreachable, also after the retries."""


_BY_CODE: dict[grpc.StatusCode, type[TabletopError]] = {
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.ABORTED: Aborted,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: Unavailable,
}


def error_from_rpc(error: grpc.RpcError) -> TabletopError:
    """Turn a failed gRPC call into a `TabletopError`, reading the google.rpc.Status details."""
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    message = (error.details() if hasattr(error, "details") else "") or ""
    reason, metadata = "", {}
    try:
        status = rpc_status.from_call(error)
    except ValueError:  # details that contradict the code: keep what the call says
        status = None
    for detail in status.details if status else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            reason, metadata = info.reason, dict(info.metadata)
            break
    cls = _BY_CODE.get(code, TabletopError)
    if code == grpc.StatusCode.ABORTED and reason == "VERSION_MISMATCH":
        cls = StaleVersion
    return cls(code, reason, message, metadata)


# --- retries --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter for retryable failures."""

    attempts: int = 5
    first_delay: float = 0.1
    max_delay: float = 2.0

    def delays(self) -> Iterator[float]:
        delay = self.first_delay
        for _ in range(self.attempts - 1):
            yield random.uniform(0, delay)
            delay = min(delay * 2, self.max_delay)


def _call(send: Callable[[], T], retry: RetryPolicy | None, retry_on: tuple[grpc.StatusCode, ...] = RETRYABLE) -> T:
    """Call `send()`, retrying on `retry_on` codes per `retry` (None: once); raise a `TabletopError`."""
    delays = retry.delays() if retry else iter(())
    while True:
        try:
            return send()
        except grpc.RpcError as err:
            error = error_from_rpc(err)
            if error.code not in retry_on:
                raise error from None
            delay = next(delays, None)
            if delay is None:
                raise error from None
            time.sleep(delay)


def _every(fetch: Callable[[str], P], items: Callable[[P], Iterable[T]]) -> Iterator[T]:
    """Every item of a paged list (AIP-158): `fetch(page_token)` gets one page, from the first ("") on, each
    only when the iteration reaches it, until a page's `next_page_token` is empty."""
    token = ""
    while True:
        page = fetch(token)
        yield from items(page)
        token = page.next_page_token
        if not token:
            return


# --- results --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """How a seat is held when creating a game: `Seat.human("Ann")`, `Seat.ai("hard")`, `Seat.open()`."""

    kind: int
    name: str = ""
    strength: str = ""

    @classmethod
    def human(cls, name: str = "") -> Seat:
        return cls(pb.SEAT_KIND_HUMAN, name)

    @classmethod
    def ai(cls, strength: str = "normal", name: str = "") -> Seat:
        return cls(pb.SEAT_KIND_AI, name, strength)

    @classmethod
    def open(cls) -> Seat:
        return cls(pb.SEAT_KIND_OPEN)

    def spec(self) -> pb.SeatSpec:
        return pb.SeatSpec(kind=self.kind, name=self.name, strength=self.strength)


@dataclass
class CreatedGame:
    """A new game: its id, the token of each human seat, the creator token and the join code."""

    client: Client
    game_id: str
    seat_tokens: dict[int, str]
    creator_token: str
    join_code: str
    state: pb.GameState

    def player(self, seat: int) -> Player:
        """The session that acts for `seat` (a human seat of this game)."""
        return Player(self.client, self.game_id, seat, self.seat_tokens[seat])

    def start(self) -> pb.GameState:
        return self.client.start_game(self.game_id, self.creator_token)


# --- the client -----------------------------------------------------------------------------------------------


class Client:
    """A connection to a game service; thread-safe like the gRPC channel under it.

    `api_key` goes in the `x-api-key` metadata of every call (docs/api.md, *Quotas*). `plaintext_target`: set by
    `connect` when the channel is plaintext to a non-loopback address without `allow_insecure`; every call that
    would send a seat token or the API key, or receive seat tokens, then raises `PlaintextRefused` unsent."""

    def __init__(self, channel: grpc.Channel, retry: RetryPolicy | None = None, timeout: float = 30.0,
                 api_key: str | None = None, plaintext_target: str | None = None,
                 identity: str | Callable[[], str] | None = None):
        self.identity = identity
        self.channel = channel
        self.stub = game_service_pb2_grpc.GameServiceStub(channel)
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.api_key = api_key
        self.plaintext_target = plaintext_target

    def _metadata(self, token: str | None = None, *, tokens_back: bool = False) -> list[tuple[str, str]]:
        """The call's metadata (the seat's bearer token, else the player's identity; the API key); refused on an
        unsafe channel."""
        if not token and self.identity:
            token = self.identity() if callable(self.identity) else self.identity
        metadata = [("authorization", f"Bearer {token}")] if token else []
        if self.api_key:
            metadata.append(("x-api-key", self.api_key))
        if self.plaintext_target and (metadata or tokens_back):
            what = ("a seat token or an identity" if token else "an API key" if self.api_key
                    else "a request whose answer holds seat tokens")
            transport.refuse_plaintext(self.plaintext_target, what, PLAINTEXT_REMEDIES)
        return metadata

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # lobby

    def game_types(self) -> list[pb.GameType]:
        metadata = self._metadata()
        reply = _call(lambda: self.stub.ListGameTypes(pb.ListGameTypesRequest(), metadata=metadata,
                                                      timeout=self.timeout), self.retry)
        return list(reply.game_types)

    def create_game(self, game_type: str, seats: list[Seat], options: dict[str, Any] | None = None,
                    start: bool = False, seed: int | None = None, public: bool = False,
                    timer: pb.TurnTimer | None = None, rated: bool = False) -> CreatedGame:
        """Create a game (not retried: a lost answer would leave a second game behind).

        `seed` fixes the game's chance; the service accepts it only when every seat is AI. `public` lists the game
        in the lobby (`list_games`, `lobby`) until it starts, and lets anyone join an open seat by its id.
        `timer` gives the human seats a turn timer (see docs/api.md, "Turn timers"). `rated`: the game's end
        updates its players' ratings (docs/ratings.md); it needs `identity`, one `Seat.human()` at most (the
        caller's), and the other players join `Seat.open()` seats with their own identity."""
        request = pb.CreateGameRequest(game_type=game_type, seats=[s.spec() for s in seats], start=start, seed=seed,
                                       visibility=pb.VISIBILITY_PUBLIC if public else pb.VISIBILITY_PRIVATE,
                                       timer=timer, rated=rated)
        if options is not None:
            request.options_json = json.dumps(options)
        metadata = self._metadata(tokens_back=True)
        reply = _call(lambda: self.stub.CreateGame(request, metadata=metadata, timeout=self.timeout), None)
        return CreatedGame(self, reply.game_id, {t.seat: t.token for t in reply.seat_tokens}, reply.creator_token,
                           reply.join_code, reply.state)

    def join_game(self, join_code: str | None = None, name: str = "", seat: int | None = None,
                  game_id: str | None = None) -> Player:
        """Take an open seat (`seat`, or the first one) of the game named by `join_code`, or by `game_id` when
        the game is public (a private game's id is refused: PermissionDenied NOT_PUBLIC)."""
        request = pb.JoinGameRequest(join_code=join_code or "", game_id=game_id or "", name=name, seat=seat)
        metadata = self._metadata(tokens_back=True)
        reply = _call(lambda: self.stub.JoinGame(request, metadata=metadata, timeout=self.timeout), None)
        return Player(self, reply.game_id, reply.seat, reply.token)

    def list_games(self, game_type: str = "", min_open_seats: int = 0, page_size: int = 0,
                   page_token: str = "") -> pb.ListGamesResponse:
        """One page of the lobby: public games not started yet with at least max(1, `min_open_seats`) open seats,
        oldest first (`page_size` 0 = 50, at most 100). Pass the response's `next_page_token` (with the same
        filter) for the next page; it is empty on the last one."""
        request = pb.ListGamesRequest(game_type=game_type, min_open_seats=min_open_seats, page_size=page_size,
                                      page_token=page_token)
        metadata = self._metadata()
        return _call(lambda: self.stub.ListGames(request, metadata=metadata, timeout=self.timeout), self.retry)

    def lobby(self, game_type: str = "", min_open_seats: int = 0, page_size: int = 0) -> Iterator[pb.GameSummary]:
        """Every game of the lobby (see `list_games`), fetching page after page as the iteration goes on. A game
        listed when the iteration began and still listed when its page comes is yielded once; no game twice."""
        return _every(lambda token: self.list_games(game_type, min_open_seats, page_size, token),
                      lambda page: page.games)

    def list_my_games(self, page_size: int = 0, page_token: str = "") -> pb.ListMyGamesResponse:
        """One page of the signed-in player's games (needs `identity`), newest first (`page_size` 0 = 50, at most
        100); pass the response's `next_page_token` for the next page, empty on the last one."""
        request = pb.ListMyGamesRequest(page_size=page_size, page_token=page_token)
        metadata = self._metadata()
        return _call(lambda: self.stub.ListMyGames(request, metadata=metadata, timeout=self.timeout), self.retry)

    def my_games(self, page_size: int = 0) -> Iterator[pb.MyGame]:
        """Every game of the signed-in player (see `list_my_games`), page after page."""
        return _every(lambda token: self.list_my_games(page_size, token), lambda page: page.games)

    def list_finished_games(self, player_id: str = "", game_type: str = "", page_size: int = 0,
                            page_token: str = "") -> pb.ListFinishedGamesResponse:
        """One page of a player's finished games from the service's archive, newest first (`page_size` 0 = 50, at
        most 100): `player_id` "" = the signed-in player's own (needs `identity`; private games too), else that
        player's public games. Pass the response's `next_page_token` (same filter) for the next page."""
        request = pb.ListFinishedGamesRequest(player_id=player_id, game_type=game_type, page_size=page_size,
                                              page_token=page_token)
        metadata = self._metadata()
        return _call(lambda: self.stub.ListFinishedGames(request, metadata=metadata, timeout=self.timeout),
                     self.retry)

    def history(self, player_id: str = "", game_type: str = "", page_size: int = 0) -> Iterator[pb.FinishedGame]:
        """Every finished game of a player (see `list_finished_games`), page after page, newest first."""
        return _every(lambda token: self.list_finished_games(player_id, game_type, page_size, token),
                      lambda page: page.games)

    def replay(self, game_id: str, token: str | None = None) -> pb.GetReplayResponse:
        """A finished, archived game's replay: every event with every move revealed, each seat's view after each
        (`steps[i].seat_views`), and the final score. A private game's replay needs the identity of one of its
        players (or a seat token of the game while the service still keeps it)."""
        request = pb.GetReplayRequest(game_id=game_id)
        metadata = self._metadata(token)
        return _call(lambda: self.stub.GetReplay(request, metadata=metadata, timeout=self.timeout), self.retry)

    # ratings

    def ratings(self, player_id: str = "") -> list[pb.Rating]:
        """A player's ratings, one per game type it has played rated games of, by game type (docs/ratings.md):
        `player_id` a player id or "ai:<strength>"; "" = the signed-in player's own (needs `identity`). Empty for a
        player without rated games. Each `Rating`'s `ordinal` is the displayed rating (mu - 3 sigma)."""
        request = pb.GetRatingsRequest(player_id=player_id)
        metadata = self._metadata()
        return list(_call(lambda: self.stub.GetRatings(request, metadata=metadata, timeout=self.timeout),
                          self.retry).ratings)

    def get_leaderboard(self, game_type: str, page_size: int = 0, page_token: str = "") -> pb.GetLeaderboardResponse:
        """One page of a game type's leaderboard, best `ordinal` first, each `Rating` with its `rank` (AI strengths
        included, `ai` set): `page_size` 0 = 50, at most 100. Pass the response's `next_page_token` (same game type)
        for the next page; it is empty on the last one."""
        request = pb.GetLeaderboardRequest(game_type=game_type, page_size=page_size, page_token=page_token)
        metadata = self._metadata()
        return _call(lambda: self.stub.GetLeaderboard(request, metadata=metadata, timeout=self.timeout), self.retry)

    def leaderboard(self, game_type: str, page_size: int = 0) -> Iterator[pb.Rating]:
        """The whole leaderboard of a game type (see `get_leaderboard`), page after page, best first. It is a live
        ranking: a rating that changes while the iteration goes on may move a player across a page's cut."""
        return _every(lambda token: self.get_leaderboard(game_type, page_size, token), lambda page: page.ratings)

    def resume(self, game_id: str) -> Player:
        """The signed-in player's seat of a game, from any device: acts with the identity, no seat token."""
        state = self.state(game_id)
        if not state.HasField("your_seat"):
            raise PermissionDenied(grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_SEAT",
                                   "the signed-in player holds no seat in this game (or no identity was given)")
        return Player(self, game_id, state.your_seat, None, state)

    def start_game(self, game_id: str, creator_token: str | None = None) -> pb.GameState:
        """Start a game with its creator token (None: the creator's identity, for a game created with one)."""
        request = pb.StartGameRequest(game_id=game_id)
        metadata = self._metadata(creator_token)
        reply = _call(lambda: self.stub.StartGame(request, metadata=metadata, timeout=self.timeout), None)
        return reply.state

    # reading

    def state(self, game_id: str, token: str | None = None) -> pb.GameState:
        """The game as `token`'s seat sees it (no token: the spectator's view)."""
        request = pb.GetStateRequest(game_id=game_id)
        metadata = self._metadata(token)
        send = lambda: self.stub.GetState(request, metadata=metadata, timeout=self.timeout)  # noqa: E731
        return _call(send, self.retry).state

    def score(self, game_id: str, token: str | None = None) -> pb.GetScoreResponse:
        """The score as `token`'s seat may know it (no token: as a spectator); live until the game is over."""
        request = pb.GetScoreRequest(game_id=game_id)
        metadata = self._metadata(token)
        return _call(lambda: self.stub.GetScore(request, metadata=metadata, timeout=self.timeout), self.retry)

    def watch(self, game_id: str, from_version: int = 0, token: str | None = None,
              resume_for: float = 60.0) -> Iterator[pb.WatchGameResponse]:
        """Yield every event after `from_version` with the watcher's state, live, until the game is over.

        A dropped stream (the service restarted, a proxy cut the connection) is reopened from the last version
        received, so no event is missed or repeated; after `resume_for` seconds without any progress the last
        error is raised as a `TabletopError`.
        """
        last = from_version
        stalled_since: float | None = None
        delays = self._resume_delays()
        while True:
            request = pb.WatchGameRequest(game_id=game_id, from_version=last)
            stream = self.stub.WatchGame(request, metadata=self._metadata(token))
            error: TabletopError | None = None
            try:
                for update in stream:
                    if update.event.version <= last:
                        continue  # already delivered before a resume
                    last = update.event.version
                    stalled_since, delays = None, self._resume_delays()
                    yield update
                    if update.event.game_over:
                        return
            except grpc.RpcError as err:
                error = error_from_rpc(err)
                if error.code not in RESUMABLE:
                    raise error from None
            finally:
                stream.cancel()
            if error is None:  # ended without error and without the last event: over before `last`?
                try:
                    state = self.state(game_id, token)
                except Unavailable as unavailable:  # the service is going away: resume below
                    error = unavailable
                else:
                    if state.status == pb.GAME_STATUS_FINISHED and state.version <= last:
                        return
            # The stream ended (with a transient error, or early without the game's last event): resume.
            now = time.monotonic()
            stalled_since = stalled_since or now
            if now - stalled_since > resume_for:
                raise error or Unavailable(grpc.StatusCode.UNAVAILABLE, "", "the watch stream keeps ending")
            time.sleep(next(delays))

    @staticmethod
    def _resume_delays() -> Iterator[float]:
        delay = 0.05
        while True:
            yield random.uniform(delay / 2, delay)
            delay = min(delay * 2, 1.0)

    # playing (see Player for the usual way)

    def move(self, game_id: str, token: str, move: str | any_pb2.Any, expected_version: int | None,
             request_id: str | None = None) -> pb.MakeMoveResponse:
        """Make a move (a legal move's id, or its typed message packed in an Any); retried with the same
        request_id (applied once); a stale version raises StaleVersion.

        `expected_version=None` applies the move to whatever the current version is: then a CONTENDED abort
        (the game changed too often meanwhile) is retried too.
        """
        request = pb.MakeMoveRequest(game_id=game_id, expected_version=expected_version,
                                     request_id=request_id or str(uuid.uuid4()))
        if isinstance(move, any_pb2.Any):
            request.typed_move.CopyFrom(move)
        else:
            request.move_id = move
        metadata = self._metadata(token)
        send = lambda: self.stub.MakeMove(request, metadata=metadata, timeout=self.timeout)  # noqa: E731
        if expected_version is not None:
            return _call(send, self.retry)
        try:
            return _call(send, self.retry, (*RETRYABLE, grpc.StatusCode.ABORTED))
        except Aborted as error:  # CONTENDED each time: give the caller the plain Aborted
            raise error from None

    def leave(self, game_id: str, token: str) -> pb.GameState:
        """Hand the token's seat to the AI for the rest of the game."""
        request = pb.LeaveGameRequest(game_id=game_id)
        metadata = self._metadata(token)
        return _call(lambda: self.stub.LeaveGame(request, metadata=metadata, timeout=self.timeout),
                     self.retry).state

    def resign(self, game_id: str, token: str) -> pb.GameState:
        """Resign the token's seat (last place; a game with one seat left ends)."""
        request = pb.ResignRequest(game_id=game_id)
        metadata = self._metadata(token)
        return _call(lambda: self.stub.Resign(request, metadata=metadata, timeout=self.timeout),
                     self.retry).state

    def suggest(self, game_id: str, token: str, strength: str = "", iterations: int = 0,
                time_budget_seconds: float = 0.0) -> pb.SuggestMoveResponse:
        request = pb.SuggestMoveRequest(game_id=game_id, strength=strength, iterations=iterations,
                                        time_budget_seconds=time_budget_seconds)
        timeout = self.timeout + time_budget_seconds
        metadata = self._metadata(token)
        return _call(lambda: self.stub.SuggestMove(request, metadata=metadata, timeout=timeout), self.retry)


_KEEP = object()


@dataclass
class Player:
    """One seat of one game, acting with its token (None: with the client's identity, for a seat bound to the
    signed-in player); remembers the version of the last state it read."""

    client: Client
    game_id: str
    seat: int
    token: str | None
    last_state: pb.GameState | None = field(default=None, repr=False)

    def state(self) -> pb.GameState:
        self.last_state = self.client.state(self.game_id, self.token)
        return self.last_state

    def move(self, move: str | any_pb2.Any, expected_version: Any = _KEEP) -> pb.GameState:
        """Make a move (a legal move's id, or its typed message packed in an Any) and return the seat's new state.

        `expected_version` defaults to the version of the last state read, a `watch` update's included (raises
        `StaleVersion` if the game changed since in a way the seat can see; nothing is applied); pass None to apply
        it to whatever the current version is.
        """
        if expected_version is _KEEP:
            expected_version = self.last_state.version if self.last_state is not None else None
        reply = self.client.move(self.game_id, self.token, move, expected_version)
        self.last_state = reply.state
        return reply.state

    def suggest(self, strength: str = "", iterations: int = 0, time_budget_seconds: float = 0.0
                ) -> pb.SuggestMoveResponse:
        return self.client.suggest(self.game_id, self.token, strength, iterations, time_budget_seconds)

    def score(self) -> pb.GetScoreResponse:
        return self.client.score(self.game_id, self.token)

    def leave(self) -> pb.GameState:
        self.last_state = self.client.leave(self.game_id, self.token)
        return self.last_state

    def resign(self) -> pb.GameState:
        self.last_state = self.client.resign(self.game_id, self.token)
        return self.last_state

    def watch(self, from_version: int = 0) -> Iterator[pb.WatchGameResponse]:
        """The seat's updates (Client.watch); each one's state becomes the last state read, so that a move decided
        on it is sent with its version."""
        updates = self.client.watch(self.game_id, from_version, self.token)
        try:
            for update in updates:
                if self.last_state is None or update.state.version >= self.last_state.version:
                    self.last_state = update.state
                yield update
        finally:
            updates.close()


PLAINTEXT_REMEDIES = (
    "Connect with tls=True (and root_certificates=<the CA's PEM bytes> for a certificate from a private CA),",
    "or pass allow_insecure=True if you trust the network between you and the service.",
)


def connect(target: str, tls: bool = False, root_certificates: bytes | None = None,
            retry: RetryPolicy | None = None, timeout: float = 30.0, wait: float | None = None, *,
            server_name: str = "", api_key: str | None = None, allow_insecure: bool = False,
            identity: str | Callable[[], str] | None = None) -> Client:
    """Open a client of the game service at `target` ("host:port").

    `tls`: encrypt, checking the service's certificate against the system's roots, or against `root_certificates`
    (PEM bytes of the CAs to trust; giving them implies TLS). `server_name`: the name the certificate must carry,
    when it is not the target's host (e.g. through a port-forward to 127.0.0.1).
    `api_key`: sent in the `x-api-key` metadata of every call (the caller's identity for the quotas).
    `identity`: the signed-in player's JWT (or a callable giving a fresh one per call), sent as
    `authorization: Bearer <JWT>` on every call that carries no seat token (docs/api.md, "Player identity").
    `allow_insecure`: send seat tokens and the API key over plaintext even to a non-loopback target. Without it
    (and without TLS), such a target gets only the calls that carry no credential (a spectator's reads and
    watches); the others raise `PlaintextRefused` before anything is sent, and an `api_key` is refused here.
    `wait`: seconds to wait for the service to answer before giving up with `Unavailable` naming the target
    (None: connect lazily, at the first call, which then retries per `retry`)."""
    secure = tls or bool(root_certificates)
    plaintext_target = None if secure or allow_insecure or transport.is_loopback(target) else target
    if plaintext_target and api_key:
        transport.refuse_plaintext(target, "an API key", PLAINTEXT_REMEDIES)
    if secure:
        channel = grpc.secure_channel(target, grpc.ssl_channel_credentials(root_certificates),
                                      options=transport.server_name_options(server_name))
    else:
        channel = grpc.insecure_channel(target)
    if wait is not None:
        try:
            grpc.channel_ready_future(channel).result(timeout=wait)
        except grpc.FutureTimeoutError:
            why = _why_unreachable(channel)
            channel.close()
            hint = ("does it serve TLS, and does its certificate name this host and come from a CA you trust "
                    "(root_certificates)?" if secure else "does it expect TLS (tls=True)?")
            raise Unavailable(grpc.StatusCode.UNAVAILABLE, "", f"no game service answers at {target} "
                              f"(waited {wait:g} s{why}); is it running, is the address right, {hint}") from None
    return Client(channel, retry, timeout, api_key=api_key, plaintext_target=plaintext_target, identity=identity)


def _why_unreachable(channel: grpc.Channel) -> str:
    """gRPC's own account of the failure (e.g. the certificate check that failed), from one quick call."""
    stub = game_service_pb2_grpc.GameServiceStub(channel)
    try:
        stub.ListGameTypes(pb.ListGameTypesRequest(), timeout=2)
    except grpc.RpcError as err:
        details = err.details() if hasattr(err, "details") else ""
        return f": {details}" if details else ""
    return ""
