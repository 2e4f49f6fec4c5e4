"""The game service's logic: lobby (create, join, start), play (state, move, score), watch and suggest.

It works on engine objects and the store; the servicer only translates gRPC to these calls. Responses are built
here because a move's answer is stored, byte for byte, for retries with the same request id.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import grpc

from games.base import Game, GameError, IllegalMove, Move
from service import auth, errors, metrics, validation
from service.auth import Caller, Credentials
from service.config import Config
from service.feed import GameFeed
from service.logs import bind, log
from service.store import Event, GameRecord, GameStore, SeatRecord, now_ms, seats_json
from service.views import Replay, event_to_proto, game_state, public_seats, visible_score
from tabletop import wire
from tabletop.v1 import ai_service_pb2, ai_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb

RECENT_EVENTS = 10
LEGACY_ANSWER_REF = b"v:"  # an older build's stored answer "v:<version>" (now just "<version>")
COMMIT_ATTEMPTS = 8
WATCH_BLOCK_MS = 1000
WATCH_IDLE_CHECK_MS = 30_000
STATE_CACHE_SIZE = 2048


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a CreateGame request, translated from proto."""

    kind: str  # "human", "ai" or "open"
    name: str = ""
    strength: str = ""


@dataclass(frozen=True)
class Table:
    """A loaded game: its record, engine, engine state (None before the start) and recent events."""

    record: GameRecord
    game: Game
    state: Any
    events: list[Event]


@dataclass(frozen=True)
class Change:
    """One write to commit: the game hash fields, the event, whether the game ends, the AI jobs."""

    fields: dict[str, str]
    event: dict[str, str]
    finished: bool
    jobs: list[dict[str, str]]
    state: Any  # the engine state after the change


# --- the service ------------------------------------------------------------------------------------------------


class Sessions:
    def __init__(self, store: GameStore, config: Config):
        self.store = store
        self.config = config
        self._ai_channel: grpc.aio.Channel | None = None
        self.feed = GameFeed(store, WATCH_BLOCK_MS)
        self._states: dict[tuple[str, int, int], Any] = {}

    async def close(self) -> None:
        self.feed.close()
        if self._ai_channel is not None:
            await self._ai_channel.close()

    # --- loading and identifying ---

    async def load(self, game_id: str, recent_events: int = 0) -> Table:
        validation.check_game_id(game_id)
        bind(game_id=game_id)
        record, events = await self.store.load(game_id, recent_events)
        if record is None:
            raise errors.game_not_found(game_id)
        game = validation.engine(record.game_type)
        return Table(record, game, self._decode(record, game), events)

    def _decode(self, record: GameRecord, game: Game) -> Any:
        """The engine state of a record. Decoding is the costly part of a request, and states are immutable, so
        decoded ones are kept by (game id, version, hash of the bytes): the bytes are in the key because a Redis
        that lost its last writes may see a version committed twice with different states."""
        if not record.state:
            return None
        key = (record.game_id, record.version, hash(record.state))
        state = self._states.get(key)
        if state is None:
            state = game.load_state(record.state)
            self._remember(key, state)
        return state

    def _remember(self, key: tuple[str, int, int], state: Any) -> None:
        self._states[key] = state
        if len(self._states) > STATE_CACHE_SIZE:
            self._states.pop(next(iter(self._states)))

    def identify(self, record: GameRecord, creds: Credentials) -> Caller:
        caller = auth.identify(
            creds,
            [s.token_hash for s in record.seats],
            [s.kind for s in record.seats],
            record.creator_hash,
            self.config.ai_service_token,
        )
        bind(seat=caller.seat, role=caller.role)
        return caller

    def acting_seat(self, record: GameRecord, creds: Credentials) -> int:
        """The seat the caller acts for; spectators and the creator token may not act."""
        if creds.token is None:
            raise errors.unauthenticated("MISSING_TOKEN", "this call needs a seat token (authorization: Bearer ...)")
        caller = self.identify(record, creds)
        if caller.seat is None:
            raise errors.denied("NOT_A_SEAT", "the creator token acts for no seat; use a seat token")
        return caller.seat

    def jobs(self, record: GameRecord, game: Game, state: Any, version: int,
             seats: tuple[SeatRecord, ...]) -> list[dict[str, str]]:
        """AI jobs for the AI seats that must decide at `version`."""
        return [
            {
                "game_id": record.game_id,
                "game_type": record.game_type,
                "seat": str(seat),
                "version": str(version),
                "job_id": f"{record.game_id}:{version}:{seat}",
            }
            for seat in sorted(game.to_act(state))
            if seats[seat].kind == "ai"
        ]

    # --- lobby ---

    async def create(self, game_type: str, options: str | dict[str, Any] | None, seats: list[SeatRequest],
                     start: bool, seed: int | None = None) -> pb.CreateGameResponse:
        game = validation.engine(game_type)
        resolved = validation.resolve_options(game, validation.parse_options(options))
        info = game.info
        if not info.min_seats <= len(seats) <= info.max_seats:
            raise errors.invalid(
                "INVALID_SEAT_COUNT", f"{info.title} takes {info.min_seats} to {info.max_seats} seats, not {len(seats)}"
            )
        try:  # options that only the setup can judge (e.g. a start seat beyond the seat count)
            game.new_game(len(seats), resolved, 0)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        except Exception as exc:  # noqa: BLE001 - a setup that trips over the caller's options: bad input
            log.warning("engine setup failed on options", game_type=game_type, error=repr(exc)[:200])
            raise errors.invalid("INVALID_OPTIONS", f"the {game_type} setup refused the options: {exc}"[:500]) from None
        tokens: list[pb.SeatToken] = []
        records: list[SeatRecord] = []
        for i, spec in enumerate(seats):
            name = validation.check_name(spec.name)
            if spec.kind == "human":
                token = auth.new_token()
                tokens.append(pb.SeatToken(seat=i, token=token))
                records.append(SeatRecord("human", name or f"Player {i + 1}", "", auth.token_hash(token)))
            elif spec.kind == "ai":
                records.append(SeatRecord("ai", name or f"AI {i + 1}", validation.strength(spec.strength)))
            elif spec.kind == "open":
                records.append(SeatRecord("open", name or f"Seat {i + 1}"))
            else:
                raise errors.invalid("INVALID_SEAT", f"seat {i} needs a kind: HUMAN, AI or OPEN")
        if seed is not None and any(r.kind != "ai" for r in records):
            raise errors.invalid(
                "SEED_NOT_ALLOWED", "a fixed seed is accepted only when every seat is AI (it would reveal hidden cards)"
            )
        creator_token = auth.new_token()
        join_secret = secrets.token_urlsafe(12)
        options_json = json.dumps(resolved, sort_keys=True, separators=(",", ":"))
        for attempt in range(COMMIT_ATTEMPTS):
            game_id, shard = self.store.new_game_id()
            try:
                result = await self.store.commit(
                    game_id, game_type, 0,
                    {
                        "type": game_type, "status": "waiting", "options": options_json, "seats": seats_json(records),
                        "creator_hash": auth.token_hash(creator_token), "join_hash": auth.token_hash(join_secret),
                        "created_ms": str(now_ms()), "shard": str(shard),
                        **({"seed": str(seed)} if seed is not None else {}),
                    },
                    {"kind": "created", "seats": public_seats(tuple(records)), "at": str(now_ms())},
                    shard=shard,
                )
            except errors.ServiceError as exc:
                # On Cluster one master may be down (until its failover): a new game can go to another shard.
                if exc.reason != "REDIS_UNAVAILABLE" or not self.config.redis_cluster or attempt == COMMIT_ATTEMPTS - 1:
                    raise
                continue
            if result.outcome == "OK":
                break
        else:  # pragma: no cover - 72 random bits colliding eight times
            raise errors.ServiceError(grpc.StatusCode.INTERNAL, "GAME_ID_COLLISION", "could not allocate a game id")
        bind(game_id=game_id)
        metrics.GAMES_CREATED.labels(game_type).inc()
        if start:
            await self._start(game_id)
        table = await self.load(game_id, RECENT_EVENTS)
        return pb.CreateGameResponse(
            game_id=game_id,
            seat_tokens=tokens,
            creator_token=creator_token,
            join_code=f"{game_id}.{join_secret}",
            state=game_state(table.record, table.game, table.state, None, table.events),
        )

    async def join(self, join_code: str, name: str, seat: int | None) -> pb.JoinGameResponse:
        game_id, _, secret = join_code.partition(".")
        if not secret or not validation.GAME_ID.match(game_id) or len(secret) > 64:
            raise errors.invalid("MALFORMED_JOIN_CODE", "a join code looks like <game id>.<secret>")
        name = validation.check_name(name)
        for _ in range(COMMIT_ATTEMPTS):
            table = await self.load(game_id)
            record = table.record
            if not auth.constant_time_equal(auth.token_hash(secret), record.join_hash):
                raise errors.denied("INVALID_JOIN_CODE", "the join code is not valid for this game")
            if record.status != "waiting":
                raise errors.precondition("GAME_ALREADY_STARTED", "the game has started: no seat can be joined")
            open_seats = [i for i, s in enumerate(record.seats) if s.kind == "open"]
            if seat is None:
                if not open_seats:
                    raise errors.precondition("NO_OPEN_SEAT", "every seat of the game is taken")
                chosen = open_seats[0]
            elif not 0 <= seat < len(record.seats):
                raise errors.invalid("INVALID_SEAT", f"the game has no seat {seat}")
            elif seat not in open_seats:
                raise errors.precondition("SEAT_TAKEN", f"seat {seat} is not open")
            else:
                chosen = seat
            token = auth.new_token()
            seats = list(record.seats)
            seats[chosen] = SeatRecord("human", name or seats[chosen].name, "", auth.token_hash(token))
            result = await self.store.commit(
                game_id, record.game_type, record.version,
                {"seats": seats_json(seats)},
                {"kind": "joined", "seat": str(chosen), "seats": public_seats(tuple(seats)), "at": str(now_ms())},
                shard=record.shard,
            )
            if result.outcome == "OK":
                bind(seat=chosen)
                table = await self.load(game_id, RECENT_EVENTS)
                return pb.JoinGameResponse(
                    game_id=game_id, seat=chosen, token=token,
                    state=game_state(table.record, table.game, table.state, chosen, table.events),
                )
            metrics.VERSION_CONFLICTS.inc()
        raise errors.contended()

    async def start(self, game_id: str, creds: Credentials) -> pb.StartGameResponse:
        table = await self.load(game_id)
        if creds.token is None:
            raise errors.unauthenticated("MISSING_TOKEN", "StartGame needs the creator token")
        if self.identify(table.record, creds).role != "creator":
            raise errors.denied("NOT_GAME_CREATOR", "only the creator token can start the game")
        await self._start(game_id)
        table = await self.load(game_id, RECENT_EVENTS)
        return pb.StartGameResponse(state=game_state(table.record, table.game, table.state, None, table.events))

    async def _start(self, game_id: str) -> None:
        for _ in range(COMMIT_ATTEMPTS):
            table = await self.load(game_id)
            record, game = table.record, table.game
            if record.status != "waiting":
                raise errors.precondition("GAME_ALREADY_STARTED", "the game has already started")
            seats = tuple(
                SeatRecord("ai", f"AI {i + 1}" if s.name == f"Seat {i + 1}" else s.name, "normal")
                if s.kind == "open" else s
                for i, s in enumerate(record.seats)
            )
            # The seed stays server-side: it lives only inside the engine state, which no client ever sees.
            seed = record.seed if record.seed is not None else secrets.randbits(63)
            state = game.new_game(len(seats), json.loads(record.options), seed)
            raw = game.dump_state(state).decode()
            finished = game.is_over(state)
            result = await self.store.commit(
                game_id, record.game_type, record.version,
                {"status": "finished" if finished else "in_progress", "seats": seats_json(seats), "state": raw},
                {"kind": "started", "state": raw, "seats": public_seats(seats), "at": str(now_ms()),
                 "over": "1" if finished else "0"},
                finished=finished, playing=True,
                jobs=self.jobs(record, game, state, record.version + 1, seats), shard=record.shard,
            )
            if result.outcome == "OK":
                return
            metrics.VERSION_CONFLICTS.inc()
        raise errors.contended()

    # --- play ---

    async def get_state(self, game_id: str, creds: Credentials) -> pb.GameState:
        table = await self.load(game_id, RECENT_EVENTS)
        caller = self.identify(table.record, creds)
        return game_state(table.record, table.game, table.state, caller.seat, table.events)

    async def make_move(self, game_id: str, creds: Credentials, move: str | pb.TypedMove,
                        expected_version: int | None, request_id: str) -> pb.MakeMoveResponse:
        validation.check_request_id(request_id)
        bind(request_id=request_id or None)
        validation.check_game_id(game_id)
        for _ in range(COMMIT_ATTEMPTS):
            table = await self.load(game_id, RECENT_EVENTS)
            seat = self.acting_seat(table.record, creds)
            try:
                response, change = self._plan_move(table, seat, move, expected_version)
            except errors.ServiceError as exc:
                # A retry of a move that went through finds the game moved on: it gets the first answer.
                if request_id:
                    first = await self.store.request_answer(game_id, seat, request_id)
                    if first:
                        return await self._first_answer(game_id, seat, first)
                if exc.reason == "VERSION_MISMATCH":
                    metrics.VERSION_CONFLICTS.inc()
                raise
            record = table.record
            result = await self.store.commit(
                game_id, record.game_type, record.version, change.fields, change.event,
                finished=change.finished, playing=True,
                request=(seat, request_id, str(response.version).encode()) if request_id else None,
                jobs=change.jobs, shard=record.shard,
            )
            if result.outcome == "OK":
                self._remember((game_id, result.version, hash(change.fields["state"].encode())), change.state)
                metrics.MOVES.labels(record.game_type).inc()
                if change.finished:
                    metrics.GAMES_FINISHED.labels(record.game_type).inc()
                return response
            if result.outcome == "DUPLICATE":
                return await self._first_answer(game_id, seat, result.answer)
            metrics.VERSION_CONFLICTS.inc()
            if expected_version is not None:
                raise errors.version_mismatch(expected_version, result.version)
        raise errors.contended()

    async def _first_answer(self, game_id: str, seat: int, stored: bytes) -> pb.MakeMoveResponse:
        """The first answer to a request id, rebuilt from the events up to the version its move made: only that
        version is stored, since a whole answer per move would be most of a game's memory in Redis."""
        if stored.isdigit():
            version = int(stored)
        elif stored.startswith(LEGACY_ANSWER_REF):
            version = int(stored[len(LEGACY_ANSWER_REF):])
        else:  # a whole answer (its first byte is a protobuf tag, never a digit), stored by an older build
            return pb.MakeMoveResponse.FromString(stored)
        table = await self.load(game_id)
        events = [e for e in await self.store.events(game_id) if e.version <= version]
        rebuilt = Replay(table.game)
        for event in events:
            rebuilt.step(event)
        return pb.MakeMoveResponse(version=version, state=game_state(
            table.record, table.game, rebuilt.state, seat, events[-RECENT_EVENTS:], version=version,
            status=rebuilt.status,
        ))

    def _plan_move(self, table: Table, seat: int, move: str | pb.TypedMove, expected_version: int | None
                   ) -> tuple[pb.MakeMoveResponse, Change]:
        """Check and apply the move to the loaded game: the answer and the change to commit, or raise the
        ServiceError that says why not."""
        record, game, state = table.record, table.game, table.state
        if record.status == "waiting":
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
        if expected_version is not None and expected_version != record.version:
            raise errors.version_mismatch(expected_version, record.version)
        engine_move = self._engine_move(game, state, seat, move)
        try:
            new_state = game.apply(state, seat, engine_move)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        public = game.move_is_public(state, seat, engine_move)
        version = record.version + 1
        finished = game.is_over(new_state)
        # The move is stored by its id (ids of legal moves are stable: replay finds it with move_by_id); the label
        # stays because GetState shows recent moves without replaying the game. `pub` (the engine's
        # move_is_public) says whether seats other than the mover may see them; always present, so every move
        # event has the same fields.
        event = {
            "kind": "move", "seat": str(seat), "move_id": engine_move.id, "move_label": engine_move.label,
            "pub": "1" if public else "0", "at": str(now_ms()), "over": "1" if finished else "0",
        }
        status = "finished" if finished else "in_progress"
        events = [*table.events[-(RECENT_EVENTS - 1):], Event(version, event)]
        response = pb.MakeMoveResponse(
            version=version,
            state=game_state(record, game, new_state, seat, events, version=version, status=status),
        )
        fields = {"status": status, "state": game.dump_state(new_state).decode()}
        jobs = self.jobs(record, game, new_state, version, record.seats)
        return response, Change(fields, event, finished, jobs, new_state)

    @staticmethod
    def _engine_move(game: Game, state: Any, seat: int, move: str | pb.TypedMove) -> Move:
        """The caller's move as an engine move, checked against its legal moves."""
        if state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
        try:
            if isinstance(move, str):
                if not move or len(move) > 256:
                    raise errors.invalid("INVALID_MOVE", "give a move_id (at most 256 characters) or a typed_move")
                return game.move_by_id(state, seat, move)
            try:
                typed = wire.move_from_proto(game, move)
            except wire.WireError as exc:
                raise errors.invalid("INVALID_MOVE", str(exc)) from None
            game.check_can_act(state, seat)
            if typed not in game.legal_moves(state, seat):
                raise IllegalMove(f"that move is not a legal move for seat {seat} now")
            return typed
        except GameError as exc:
            raise validation.engine_error(exc) from None

    async def score(self, game_id: str, creds: Credentials) -> pb.GetScoreResponse:
        table = await self.load(game_id)
        viewer = self.identify(table.record, creds).seat
        if table.state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet: there is no score")
        return wire.score_to_proto(visible_score(table.game, table.state, viewer), table.record.version, table.game)

    # --- watch ---

    async def watch(self, game_id: str, creds: Credentials, from_version: int) -> AsyncIterator[pb.WatchGameResponse]:
        """Replay the events after `from_version` with the watcher's view after each, then follow live."""
        if from_version < 0:
            raise errors.invalid("INVALID_VERSION", "from_version must be 0 or more")
        table = await self.load(game_id)
        viewer = self.identify(table.record, creds).seat
        record, game = table.record, table.game
        rebuilt = Replay(game)
        events = await self.store.events(game_id)
        last = 0
        follower = None
        idle_ms = 0
        async with contextlib.AsyncExitStack() as stack:
            while True:
                for event in events:
                    rebuilt.step(event)
                    last = event.version
                    if event.version <= from_version:
                        continue
                    yield pb.WatchGameResponse(
                        event=event_to_proto(event, viewer),
                        state=game_state(record, game, rebuilt.state, viewer, version=event.version,
                                         status=rebuilt.status, seats=rebuilt.seats),
                    )
                if rebuilt.status == "finished":
                    return
                if follower is None:
                    follower = await stack.enter_async_context(self.feed.follow(game_id, last))
                events = await follower.after(last, WATCH_BLOCK_MS / 1000)
                idle_ms = 0 if events else idle_ms + WATCH_BLOCK_MS
                if idle_ms >= WATCH_IDLE_CHECK_MS:
                    idle_ms = 0
                    if not await self.store.exists(game_id):
                        raise errors.game_not_found(game_id)

    # --- suggest ---

    async def suggest(self, game_id: str, creds: Credentials, strength: str, iterations: int,
                      time_budget_seconds: float) -> pb.SuggestMoveResponse:
        table = await self.load(game_id)
        seat = self.acting_seat(table.record, creds)
        game, state = table.game, table.state
        if state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
        try:
            game.check_can_act(state, seat)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        if iterations < 0 or time_budget_seconds < 0 or time_budget_seconds > 60:
            raise errors.invalid("INVALID_BUDGET", "iterations must be >= 0 and time_budget_seconds within 0..60")
        request = ai_service_pb2.AIServiceSuggestMoveRequest(
            game_type=table.record.game_type, seat=seat, version=table.record.version,
            view=wire.view_to_proto(game, game.view(state, seat)),
            strength=validation.strength(strength), iterations=iterations, time_budget_seconds=time_budget_seconds,
        )
        if self._ai_channel is None:
            # round_robin spreads suggestions over every worker a DNS name resolves to (a headless Service).
            self._ai_channel = grpc.aio.insecure_channel(
                self.config.ai_target, options=[("grpc.lb_policy_name", "round_robin")]
            )
        stub = ai_service_pb2_grpc.AIServiceStub(self._ai_channel)
        timeout = max(self.config.suggest_timeout_seconds, time_budget_seconds + 5)
        try:
            answer = await stub.SuggestMove(request, timeout=timeout)
        except grpc.aio.AioRpcError as exc:
            if exc.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise errors.ServiceError(
                    grpc.StatusCode.UNAVAILABLE, "AI_UNAVAILABLE",
                    f"the AI service at {self.config.ai_target} is not reachable ({exc.code().name}); "
                    "is the AI worker running (tabletop ai-worker)?",
                ) from None
            raise errors.ServiceError(grpc.StatusCode.UNAVAILABLE, "AI_ERROR",
                                      f"the AI service failed: {exc.code().name} {exc.details()}") from None
        return pb.SuggestMoveResponse(
            version=table.record.version, best_move_id=answer.best_move_id, best_move_label=answer.best_move_label,
            candidates=answer.candidates,
        )
