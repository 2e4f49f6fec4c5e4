"""The worker's AIService on requests it must refuse: every one is INVALID_ARGUMENT with a reason, never INTERNAL.
(Found by `make fuzz`: a Naishi view whose piles hold more cards than exist made the sampler fail deep in the
search.)"""

from __future__ import annotations

import dataclasses
import random

import grpc
import pytest
import structlog.testing

from ai.worker_config import WorkerConfig
from ai.worker_service import AIServicer
from games import registry, wire
from tabletop.v1 import ai_service_pb2


class Aborted(Exception):
    pass


class FakeContext:
    """What SuggestMove uses of a grpc.ServicerContext."""

    def __init__(self):
        self.status = None

    def time_remaining(self):
        return 5.0

    def abort_with_status(self, status):
        self.status = status
        raise Aborted


def _refusal(raw: bytes) -> tuple[grpc.StatusCode, bytes]:
    """The code and the serialized status details of the refusal of these request bytes."""
    context = FakeContext()
    with pytest.raises(Aborted):
        AIServicer(WorkerConfig.from_env({})).SuggestMove(raw, context)
    return context.status.code, context.status.trailing_metadata[0][1]


def _assert_invalid_view(raw: bytes) -> None:
    code, details = _refusal(raw)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and b"INVALID_VIEW" in details


def _naishi_view():
    game = registry.get("naishi")
    state = game.new_game(2, {}, 7)
    return game, game.view(state, 0)


def test_a_view_with_more_cards_in_the_piles_than_exist_is_an_invalid_view():
    game, view = _naishi_view()
    crowded = dataclasses.replace(view, pile_sizes=tuple(size + 30 for size in view.pile_sizes))
    request = ai_service_pb2.AIServiceSuggestMoveRequest(game_type="naishi", seat=0, iterations=5,
                                                         view=wire.view_to_any(game, crowded))
    _assert_invalid_view(request.SerializeToString())


def test_bytes_that_are_no_request_are_a_malformed_request():
    code, details = _refusal(b"\xff\xff\xff")
    assert code == grpc.StatusCode.INVALID_ARGUMENT and b"MALFORMED_REQUEST" in details


def test_a_sound_view_is_searched():
    game, view = _naishi_view()
    request = ai_service_pb2.AIServiceSuggestMoveRequest(game_type="naishi", seat=0, iterations=20, seed=1,
                                                         view=wire.view_to_any(game, view))
    answer = AIServicer(WorkerConfig.from_env({})).SuggestMove(request.SerializeToString(), FakeContext())
    assert answer.best_move_id in {m.id for m in game.legal_moves(game.sample(view, random.Random(0)), 0)}


def test_no_search_holds_a_worker_for_long():
    """Budgets are capped per request: a person waiting caps a job at interactive_seconds, a game only the AI plays
    at bulk_seconds (its share of a worker), and any suggestion, an explicit budget too, at suggest_max_seconds."""
    from ai.worker_jobs import job_budget

    config = WorkerConfig.from_env({"TABLETOP_AI_INTERACTIVE_SECONDS": "0.5", "TABLETOP_AI_BULK_SECONDS": "1",
                                    "TABLETOP_AI_SUGGEST_MAX_SECONDS": "2"})
    assert job_budget(config, "hard", interactive=True).seconds == 0.5
    assert job_budget(config, "hard", interactive=False).seconds == 1
    hard = job_budget(config, "hard", interactive=False)
    assert hard.iterations == config.budgets["hard"].iterations  # iteration-bound within the cap
    servicer = AIServicer(config)
    for request in (ai_service_pb2.AIServiceSuggestMoveRequest(time_budget_seconds=59),
                    ai_service_pb2.AIServiceSuggestMoveRequest(iterations=10**9),
                    ai_service_pb2.AIServiceSuggestMoveRequest(strength="hard")):
        assert servicer._budget(request, None).seconds <= 2
    uncapped = WorkerConfig.from_env({"TABLETOP_AI_BULK_SECONDS": "0"})
    assert job_budget(uncapped, "hard", interactive=False) == uncapped.budgets["hard"]


def test_a_reproducible_job_searches_by_iterations_alone():
    """A job of a game dealt from the creator's seed stops after its strength's iterations, never on the clock
    (interactive or bulk cap), so that no load changes its move; a strength in seconds alone keeps its seconds."""
    from ai.worker_jobs import job_budget

    config = WorkerConfig.from_env({"TABLETOP_AI_BULK_SECONDS": "0.001", "TABLETOP_AI_INTERACTIVE_SECONDS": "0.001",
                                    "TABLETOP_AI_BUDGETS": "hard=2s"})
    for strength in ("easy", "normal"):
        for interactive in (False, True):
            budget = job_budget(config, strength, interactive, reproducible=True)
            assert budget.seconds is None and budget.iterations == config.budgets[strength].iterations
    assert job_budget(config, "hard", False, reproducible=True).seconds is not None


def test_a_view_where_the_seat_to_act_has_no_move_is_an_invalid_view():
    """The request `make fuzz` found after 900,000 others (its bytes as sent): a mutated Naishi view that samples
    into a state whose seat to act has no legal move; the search divided by the number of moves."""
    raw = bytes.fromhex(
        "0a066e6169736869228a010a2a747970652e676f6f676c65617069732e636f6d2f7461626c65746f702e76312e4e6169736869566965"
        "77125c08001001ad014a020b0b620b120501010101012a003200620d0801120501010101012a0032006a04080510066a04080210066a"
        "04080910066a04080410066a04080b10067a0208017a0208017a0208017a0208027a0208027a0208032a066e6f726d616c30144000")
    _assert_invalid_view(raw)


def test_a_view_that_breaks_the_search_deep_in_a_playout_is_an_invalid_view():
    """Another request `make fuzz` found (its bytes as sent): a mutated Hinode view that samples into a sound-looking
    state whose playouts reach a position the rules never do (a tribe to choose with none left)."""
    raw = bytes.fromhex(
        "0a0668696e6f6465100222e5030a2a747970652e676f6f676c65617069732e636f6d2f7461626c65746f702e76312e48696e6f646556"
        "69657712b60308021003200142041001180342041001180642041001180d420410021802420410021803600410021806420410021807"
        "42041003180a42041003180d500258022a28080110011a1a0802100418feffffffffffffffff0120ffffffffffffffffff0122060801"
        "100118012a14080110021a0808021002180520022204080118022a26080110031a1a0801100418feffffffffffffffff0120ffffffff"
        "ffffffffff012204080210012a14080110041a0808021003180420012204080110022a14080210011a08080110011806200322041001"
        "18022a14080210021a0808031001180620032204100218012a14080210031a0808031002180520022204080210012a14080210041a08"
        "08021001180620032204100118022a12080310011a060804180820042204080118022a16080310021a08080110031804200122060801"
        "100118012a26080310031a1a0803100418feffffffffffffffff0120ffffffffffffffffff012204080210012a16080310041a080801"
        "1002180520022206080110011801320a1a0808031003180420013a062009280132003a0808012009280132003a080802200928013200"
        "3a0a080310012009280132002a04686172643003399a9999999999a93f")
    _assert_invalid_view(raw)


def test_a_view_that_breaks_the_search_is_logged_without_a_traceback(monkeypatch):
    """Such a view is the caller's input, not a fault of the worker: its warning says what failed and where, with
    no traceback (`make fuzz` asserts the worker's log has none). The views `make fuzz` found so far are now refused
    by the games' wire checks before any search (a Hinode seat or start player that does not exist), so the search's
    failure is stood in for here: the search raises as the rules did on such a view (a KeyError on position 78)."""
    import ai.worker_service

    def broken_search(*args, **kwargs):
        return {}[78]

    monkeypatch.setattr(ai.worker_service, "think", broken_search)
    game = registry.get("hinode")
    state = game.new_game(2, game.resolve_options({}), 1)
    seat = min(game.to_act(state))  # the seat to act: the worker refuses another before any search
    request = ai_service_pb2.AIServiceSuggestMoveRequest(game_type="hinode", seat=seat, iterations=20, seed=1,
                                                         view=wire.view_to_any(game, game.view(state, seat)))
    with structlog.testing.capture_logs() as logged:
        _assert_invalid_view(request.SerializeToString())
    warnings = [e for e in logged if e["event"] == "search failed on a caller's view"]
    assert len(warnings) == 1, logged
    assert "exc_info" not in warnings[0] and "KeyError" in warnings[0]["error"] and "78" in warnings[0]["error"]
    assert ".py:" in warnings[0]["at"]  # where it was raised


def test_a_hinode_view_naming_a_seat_the_table_lacks_is_refused_before_the_search():
    """The views `make fuzz` found breaking the search: a start player of 78, a seat 2 at a 2-player table."""
    game = registry.get("hinode")
    view = game.view(game.new_game(2, game.resolve_options({}), 1), 1)
    packed = wire.view_to_any(game, view)
    message = wire.wire_of(game).view_message.FromString(packed.value)
    message.start_player = 78
    packed.value = message.SerializeToString()
    request = ai_service_pb2.AIServiceSuggestMoveRequest(game_type="hinode", seat=1, iterations=20, seed=1,
                                                         view=packed)
    with structlog.testing.capture_logs() as logged:
        code, details = _refusal(request.SerializeToString())
    assert code == grpc.StatusCode.INVALID_ARGUMENT and b"INVALID_VIEW" in details and b"78" in details
    assert not [e for e in logged if e["event"] == "search failed on a caller's view"], logged
