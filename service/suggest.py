"""Suggest: ask the AI service which move the caller's seat should make, from that seat's view only."""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from games import wire
from games.base import GameError, Words
from service import errors, validation
from service.auth import Credentials
from service.config import Config
from service.seats import Seats
from service.tables import Tables, names
from tabletop import transport
from tabletop.v1 import ai_service_pb2, ai_service_pb2_grpc


@dataclass(frozen=True)
class Candidate:
    move_id: str
    label: str
    visits: int
    mean_reward: float
    win_rate: float


@dataclass(frozen=True)
class Suggestion:
    version: int
    best_move_id: str
    best_move_label: str
    candidates: list[Candidate]


class Suggest:
    def __init__(self, tables: Tables, config: Config, seats: Seats):
        self.tables = tables
        self.seats = seats
        self.config = config
        self._ai_channel: grpc.aio.Channel | None = None

    async def close(self) -> None:
        if self._ai_channel is not None:
            await self._ai_channel.close()

    async def suggest(self, game_id: str, creds: Credentials, strength: str, iterations: int,
                      time_budget_seconds: float) -> Suggestion:
        table = await self.tables.load(game_id)
        caller = self.tables.actor(table.record, creds)
        table = await self.seats.returning(table, caller)
        seat = caller.seat
        game, state = table.game, table.state
        if state is None:
            raise errors.precondition("GAME_NOT_STARTED", "the game has not started yet")
        try:
            game.check_can_act(state, seat)
        except GameError as exc:
            raise validation.engine_error(exc) from None
        if iterations < 0 or not 0 <= time_budget_seconds <= 60:  # `not <=` also refuses NaN
            raise errors.invalid("INVALID_BUDGET", "iterations must be >= 0 and time_budget_seconds within 0..60")
        request = ai_service_pb2.AIServiceSuggestMoveRequest(
            game_type=table.record.game_type, seat=seat, version=table.record.version,
            view=wire.view_to_any(game, game.view(state, seat)),
            strength=validation.strength(strength), iterations=iterations, time_budget_seconds=time_budget_seconds,
        )
        if self._ai_channel is None:
            # round_robin spreads suggestions over every worker a DNS name resolves to (a headless Service).
            options = [("grpc.lb_policy_name", "round_robin")]
            if self.config.ai_tls:
                credentials = transport.channel_credentials(self.config.tls_ca_file)
                self._ai_channel = grpc.aio.secure_channel(self.config.ai_target, credentials, options)
            else:
                self._ai_channel = grpc.aio.insecure_channel(self.config.ai_target, options)
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
        # The AI labels moves in the imperative; the caller reads them as its own ("You ...").
        moves = {m.id: m for m in game.legal_moves(state, seat)}
        words = Words(names(table.record.seats), seat, seat)

        def label(move_id: str, fallback: str) -> str:
            return moves[move_id].describe(words) if move_id in moves else fallback

        return Suggestion(
            table.record.version, answer.best_move_id, label(answer.best_move_id, answer.best_move_label),
            [Candidate(c.move_id, label(c.move_id, c.label), c.visits, c.mean_reward, c.win_rate)
             for c in answer.candidates],
        )
