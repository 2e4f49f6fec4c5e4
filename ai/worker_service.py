"""The AIService the worker serves: SuggestMove searches the view it is given, within the caller's deadline."""

from __future__ import annotations

import os
import random
import traceback
from pathlib import Path

import grpc
import structlog
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from ai import ismcts
from ai.worker_config import WorkerConfig
from ai.worker_metrics import SUGGESTIONS, record_search
from games import registry, wire
from tabletop.v1 import ai_service_pb2, ai_service_pb2_grpc
from tabletop.v1 import game_service_pb2 as pb
from tabletop.wire import WireError

DOMAIN = "tabletop.dev"
SERVICE = "tabletop.v1.AIService"
log = structlog.get_logger("tabletop.ai")
# Kept back from the caller's deadline to answer in time: a fifth of it, at least 0.25 s (a busy machine needs
# more than a quiet one to build, send and deliver the answer).
DEADLINE_MARGIN, DEADLINE_SHARE = 0.25, 0.2
MAX_SECONDS = 60.0


def think(
    game, view, seat: int, budget: ismcts.Budget, rng: random.Random, processes: int = 1, nice: int = 0
) -> ismcts.SearchResult:
    """Search a seat's view (never a state: the worker has no other) in `processes` forked trees (`nice` steps
    below the worker's CPU priority when above 0), and record the metrics every search shares."""
    result = ismcts.search(game, view, seat, budget, rng, ismcts.SearchConfig(processes=processes, nice=nice))
    record_search(result.seconds, result.iterations)
    return result


def candidates_to_proto(result: ismcts.SearchResult) -> list[pb.CandidateMove]:
    return [
        pb.CandidateMove(move_id=c.move_id, label=c.label, visits=c.visits, mean_reward=c.mean_reward,
                         win_rate=c.win_rate)
        for c in result.candidates
    ]


class AIServicer(ai_service_pb2_grpc.AIServiceServicer):
    def __init__(self, config: WorkerConfig):
        self.config = config

    def SuggestMove(self, raw: bytes, context: grpc.ServicerContext):
        try:
            answer = self._suggest(_parse(raw), context)
        except _Refused as refusal:
            SUGGESTIONS.labels(refusal.code.name).inc()
            context.abort_with_status(refusal.status())
        SUGGESTIONS.labels("OK").inc()
        return answer

    def _suggest(self, request, context) -> ai_service_pb2.AIServiceSuggestMoveResponse:
        try:
            game = registry.get(request.game_type)
        except registry.UnknownGame:
            message = f"no game type {request.game_type!r}"
            raise _Refused(grpc.StatusCode.NOT_FOUND, "UNKNOWN_GAME_TYPE", message) from None
        try:
            view = wire.view_from_any(game, request.view)
        except (WireError, ValueError, TypeError) as exc:
            raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_VIEW", str(exc)[:300]) from None
        if not 0 <= request.seat < game.info.max_seats:
            raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_SEAT", f"there is no seat {request.seat}")
        try:  # a view no game state fits is refused here, not deep in the search
            state = _check_view(game, view)
        except Exception as exc:  # noqa: BLE001 - whatever the game's sampler finds wrong with the caller's view
            raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_VIEW",
                           f"no game state fits this view: {exc!r}"[:300]) from None
        if game.is_over(state) or request.seat not in game.to_act(state):
            raise _Refused(grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN",
                           f"seat {request.seat} is not to act in this view")
        budget = self._budget(request, context.time_remaining())
        rng = random.Random(request.seed) if request.HasField("seed") else random.Random()
        try:
            result = think(game, view, request.seat, budget, rng, self.config.processes, self.config.suggest_nice)
        except Exception as exc:  # noqa: BLE001 - see below
            # The rules and the search never fail on a view the game service made (the conformance suite plays
            # them on thousands of games), so a failure deep in the search means a view that only looked sound:
            # one no reachable state fits (`make fuzz` finds a few in a million mutated views). The caller's
            # input, not the worker's fault: logged with the error and where it was raised, in case it is a bug
            # after all, but without a traceback (a traceback in the log is a fault of ours to look at).
            log.warning("search failed on a caller's view", game_type=request.game_type, seat=request.seat,
                        error=repr(exc)[:300], at=_raised_at(exc))
            raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_VIEW",
                           f"the search found this view inconsistent: {exc!r}"[:300]) from None
        return ai_service_pb2.AIServiceSuggestMoveResponse(
            best_move_id=result.move.id,
            best_move_label=result.move.label,
            candidates=candidates_to_proto(result),
            iterations=result.iterations,
        )

    def _budget(self, request, remaining: float | None) -> ismcts.Budget:
        if request.iterations < 0 or not 0 <= request.time_budget_seconds <= MAX_SECONDS:
            raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_BUDGET",
                           f"iterations must be >= 0 and time_budget_seconds within 0..{MAX_SECONDS:g}")
        if request.iterations or request.time_budget_seconds:
            budget = ismcts.Budget(request.iterations or None, request.time_budget_seconds or None)
        else:
            strength = request.strength or "normal"
            if strength not in self.config.budgets:
                raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_STRENGTH",
                               f"strength must be one of {', '.join(self.config.budgets)}")
            budget = capped(self.config.budgets[strength], self.config.hint_seconds)
        budget = capped(budget, self.config.suggest_max_seconds)  # no caller holds a worker's core for long
        if remaining is not None:  # answer within the caller's deadline, whatever the budget says
            cap = max(0.01, remaining - max(DEADLINE_MARGIN, DEADLINE_SHARE * remaining))
            if budget.seconds is None or budget.seconds > cap:
                budget = ismcts.Budget(budget.iterations, cap)
        return budget


def _raised_at(exc: BaseException) -> str:
    """Where an exception was raised: "path/to/file.py:line in function" (its innermost frame)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    frame = frames[-1]
    filename = frame.filename.removeprefix(_ROOT)
    return f"{filename}:{frame.lineno} in {frame.name}"


_ROOT = str(Path(__file__).resolve().parents[1]) + os.sep


def _check_view(game, view):
    """A state sampled from the caller's view, checked to be one the rules can reach: every seat to act has a
    move. Raises what the sampler raises, or ValueError."""
    state = game.sample(view, random.Random(0))
    if not game.is_over(state):
        stuck = [seat for seat in game.to_act(state) if not game.legal_moves(state, seat)]
        if stuck:
            raise ValueError(f"seat {stuck[0]} is to act with no legal move")
    return state


def add_to_server(servicer: AIServicer, server: grpc.Server) -> None:
    """Register the AIService with its requests parsed by `SuggestMove` itself: gRPC's own parsing answers bytes
    that are no valid message with INTERNAL, and they are malformed input, INVALID_ARGUMENT."""
    handler = grpc.unary_unary_rpc_method_handler(
        servicer.SuggestMove, request_deserializer=None,
        response_serializer=ai_service_pb2.AIServiceSuggestMoveResponse.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, {"SuggestMove": handler}),))


def _parse(raw: bytes) -> ai_service_pb2.AIServiceSuggestMoveRequest:
    try:
        return ai_service_pb2.AIServiceSuggestMoveRequest.FromString(raw)
    except DecodeError as exc:
        raise _Refused(grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST",
                       f"the request is no valid message: {exc}") from None


def capped(budget: ismcts.Budget, seconds: float) -> ismcts.Budget:
    """`budget`, stopping after `seconds` at the latest (0: as it is)."""
    if seconds <= 0 or (budget.seconds is not None and budget.seconds <= seconds):
        return budget
    return ismcts.Budget(budget.iterations, seconds)


class _Refused(Exception):
    def __init__(self, code: grpc.StatusCode, reason: str, message: str):
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message

    def status(self):
        detail = any_pb2.Any()
        detail.Pack(error_details_pb2.ErrorInfo(reason=self.reason, domain=DOMAIN))
        return rpc_status.to_status(
            status_pb2.Status(code=getattr(code_pb2, self.code.name), message=self.message, details=[detail])
        )
