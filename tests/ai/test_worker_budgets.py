"""The worker's time budgets and processes: a person waiting gets an answer within `interactive_seconds`, a hint
within `hint_seconds`; games only the AI plays search up to `bulk_seconds`; TABLETOP_AI_PROCESSES is read."""

from __future__ import annotations

import dataclasses
import random
import threading

import grpc
import pytest
import redis

from ai import ismcts, worker_jobs
from ai.worker_config import WorkerConfig, available_cpus
from ai.worker_jobs import BULK, INTERACTIVE, JobConsumer
from ai.worker_service import AIServicer, capped
from games import registry, wire
from tabletop.settings import ConfigError
from tabletop.v1 import ai_service_pb2
from tabletop.v1 import game_service_pb2 as pb


def test_defaults_and_settings():
    config = WorkerConfig.from_env({})
    assert (config.interactive_seconds, config.hint_seconds, config.processes) == (0.5, 0.6, 1)
    config = WorkerConfig.from_env({"TABLETOP_AI_INTERACTIVE_SECONDS": "0.25", "TABLETOP_AI_HINT_SECONDS": "2",
                                    "TABLETOP_AI_PROCESSES": "3"})
    assert (config.interactive_seconds, config.hint_seconds, config.processes) == (0.25, 2.0, 3)
    assert (config.suggest_nice, config.bulk_nice) == (5, 10)
    config = WorkerConfig.from_env({"TABLETOP_AI_SUGGEST_NICE": "0", "TABLETOP_AI_BULK_NICE": "19"})
    assert (config.suggest_nice, config.bulk_nice) == (0, 19)
    for bad in ("-1", "20", "high"):
        with pytest.raises(ConfigError):
            WorkerConfig.from_env({"TABLETOP_AI_BULK_NICE": bad})
    assert WorkerConfig.from_env({"TABLETOP_AI_PROCESSES": "auto"}).processes == available_cpus() >= 1
    for bad in ("0", "many", "65"):
        with pytest.raises(ConfigError, match="TABLETOP_AI_PROCESSES"):
            WorkerConfig.from_env({"TABLETOP_AI_PROCESSES": bad})


def test_capped():
    hard = ismcts.Budget(iterations=3000, seconds=5.0)
    assert capped(hard, 0.5) == ismcts.Budget(iterations=3000, seconds=0.5)
    assert capped(hard, 0) == hard  # 0: no cap
    assert capped(ismcts.Budget(iterations=10, seconds=0.1), 0.5) == ismcts.Budget(iterations=10, seconds=0.1)
    assert capped(ismcts.Budget(iterations=10), 0.5) == ismcts.Budget(iterations=10, seconds=0.5)


class _Stub:
    """The game service as far as `JobConsumer.play` uses it: one game's state, and the move made."""

    def __init__(self, state: pb.GameState):
        self.state = state
        self.moves: list[str] = []

    def GetState(self, request, metadata=None, timeout=None):
        return pb.GetStateResponse(state=self.state)

    def MakeMove(self, request, metadata=None, timeout=None):
        self.moves.append(request.move_id)
        return pb.MakeMoveResponse()


def _consumer(monkeypatch, config: WorkerConfig, lane: str = INTERACTIVE):
    game = registry.get("hinode")
    state = game.new_game(4, {"start_player": "seat0"}, 5)
    view = game.view(state, 0)
    message = pb.GameState(
        game_id="g1", game_type="hinode", status=pb.GAME_STATUS_IN_PROGRESS, version=7, to_act=[0],
        seats=[pb.SeatInfo(seat=s, strength="hard") for s in range(4)], view=wire.view_to_any(game, view),
        legal_moves=[pb.LegalMove(id=m.id, label=m.label) for m in game.legal_moves(state, 0)],
    )
    budgets: list[tuple[ismcts.Budget, int]] = []

    def think(game, view, seat, budget, rng, processes=1, nice=0):
        budgets.append((budget, nice))
        return ismcts.search(game, view, seat, ismcts.Budget(iterations=5), rng)

    monkeypatch.setattr(worker_jobs, "think", think)
    client = redis.Redis(host="127.0.0.1", port=1)  # never contacted: play() does not touch Redis
    consumer = JobConsumer(config, client, grpc.insecure_channel("127.0.0.1:1"), threading.Event(), lane)
    consumer.stub = _Stub(message)
    return consumer, budgets


def test_a_person_waiting_caps_the_search_at_the_interactive_budget_an_all_ai_game_at_the_bulk_one(monkeypatch):
    """The interactive lane searches in the worker's own process; the bulk lane at a lower CPU priority."""
    job = {"game_id": "g1", "game_type": "hinode", "seat": "0", "version": "7", "job_id": "j1"}
    interactive, budgets = _consumer(monkeypatch, WorkerConfig())
    assert interactive.play(job) == "moved"
    bulk, bulk_budgets = _consumer(monkeypatch, WorkerConfig(), BULK)
    assert bulk.play(job) == "moved"
    assert budgets == [(ismcts.Budget(iterations=16000, seconds=0.5), 0)]
    assert bulk_budgets == [(ismcts.Budget(iterations=16000, seconds=1.0), 10)]
    assert len(interactive.stub.moves) == len(bulk.stub.moves) == 1


def test_each_lane_reads_its_own_job_streams(monkeypatch):
    config = dataclasses.replace(WorkerConfig(), job_shards=2)
    interactive, _ = _consumer(monkeypatch, config)
    bulk, _ = _consumer(monkeypatch, config, BULK)
    assert interactive.streams == config.streams() == ["ai:jobs:{j0}", "ai:jobs:{j1}"]
    assert bulk.streams == config.bulk_streams() == ["ai:bulk:{j0}", "ai:bulk:{j1}"]
    with pytest.raises(ValueError):
        JobConsumer(config, interactive.redis, grpc.insecure_channel("127.0.0.1:1"), threading.Event(), "fast")




def test_a_hint_by_strength_stops_within_the_hint_budget_an_explicit_budget_up_to_the_suggest_cap():
    servicer = AIServicer(WorkerConfig())
    by_strength = ai_service_pb2.AIServiceSuggestMoveRequest(strength="hard")
    assert servicer._budget(by_strength, None) == ismcts.Budget(iterations=16000, seconds=0.6)
    explicit = ai_service_pb2.AIServiceSuggestMoveRequest(time_budget_seconds=1.5)
    assert servicer._budget(explicit, None) == ismcts.Budget(seconds=1.5)
    longer = ai_service_pb2.AIServiceSuggestMoveRequest(time_budget_seconds=3.0)
    assert servicer._budget(longer, None) == ismcts.Budget(seconds=2.0)  # suggest_max_seconds


def test_a_search_in_two_processes_uses_the_whole_budget():
    game = registry.get("naishi")
    state = game.new_game(2, {}, 3)
    for _ in range(6):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])
    seat = min(game.to_act(state))
    from ai.worker_service import think

    result = think(game, game.view(state, seat), seat, ismcts.Budget(iterations=200), random.Random(1), processes=2)
    assert result.iterations == 200 and sum(c.visits for c in result.candidates) == 200
