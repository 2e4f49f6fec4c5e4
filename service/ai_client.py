"""The AI service as the game service calls it (AIService.SuggestMove): engine objects in, plain values out. The
request and answer messages and the channel stay here, at the edge, as the servicer's do on the way in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grpc

from games import wire
from games.base import Game
from service import errors
from service.config import Config
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
class Advice:
    """The AI service's answer: its best move and every candidate it weighed, labelled in its own words."""

    best_move_id: str
    best_move_label: str
    candidates: list[Candidate]


class AIClient:
    def __init__(self, config: Config):
        self.config = config
        self._channel: grpc.aio.Channel | None = None

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close()

    async def suggest(self, game: Game, view: Any, seat: int, version: int, strength: str, iterations: int,
                      time_budget_seconds: float) -> Advice:
        """Ask the AI service for `seat`'s move from its `view` alone; UNAVAILABLE (AI_UNAVAILABLE, AI_ERROR) when
        it cannot answer."""
        request = ai_service_pb2.AIServiceSuggestMoveRequest(
            game_type=game.info.name, seat=seat, version=version, view=wire.view_to_any(game, view),
            strength=strength, iterations=iterations, time_budget_seconds=time_budget_seconds,
        )
        stub = ai_service_pb2_grpc.AIServiceStub(self._open())
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
        return Advice(answer.best_move_id, answer.best_move_label,
                      [Candidate(c.move_id, c.label, c.visits, c.mean_reward, c.win_rate) for c in answer.candidates])

    def _open(self) -> grpc.aio.Channel:
        if self._channel is None:
            # round_robin spreads suggestions over every worker a DNS name resolves to (a headless Service).
            options = [("grpc.lb_policy_name", "round_robin")]
            if self.config.ai_tls:
                credentials = transport.channel_credentials(self.config.tls_ca_file)
                self._channel = grpc.aio.secure_channel(self.config.ai_target, credentials, options)
            else:
                self._channel = grpc.aio.insecure_channel(self.config.ai_target, options)
        return self._channel
