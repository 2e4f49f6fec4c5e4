"""Kung Fur Fight through the API, with the real service and AI worker processes: a plan is made behind a screen
("각 플레이어는 가림막 뒤에 동물 카드를 배치합니다"; docs/rules/kung-fur-fight.md, Planning), so the other seat and a
spectator see nothing of it until both plans are done; and a human plays a whole game against the AI."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import grpc

from games import wire
from games.kungfur import GAME
from games.kungfur.state import EMPTY_PLAN
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tabletop.v1 import kungfur_pb2 as kp
from tests.ai.test_worker import _service, _stop, _worker
from tests.service.test_play import stored
from tests.support.waiting import await_turn

GAME_TYPE = "kung-fur-fight"
HUMAN = pb.SEAT_KIND_HUMAN


def kv(state: pb.GameState) -> kp.KungFurView:
    """The Kung Fur Fight view a GameState carries, as its public message."""
    view = kp.KungFurView()
    assert state.view.Unpack(view), state.view.type_url
    return view


def _auth(token: str | None):
    return (("authorization", f"Bearer {token}"),) if token else ()


def _get(stub, game_id: str, token: str | None = None) -> pb.GameState:
    return stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=_auth(token), timeout=10).state


def _move(stub, game_id: str, token: str, legal: pb.LegalMove, version: int) -> pb.MakeMoveResponse:
    request = pb.MakeMoveRequest(game_id=game_id, typed_move=legal.move, expected_version=version)
    return stub.MakeMove(request, metadata=_auth(token), timeout=10)


def _by_id(state: pb.GameState, move_id: str) -> pb.LegalMove:
    return next(m for m in state.legal_moves if m.id == move_id)


def test_the_plan_stays_behind_the_screen_until_both_are_done(redis_db_url, tmp_path):
    with _service(redis_db_url, tmp_path) as target, grpc.insecure_channel(target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        seats = [pb.SeatSpec(kind=HUMAN, name="Ann"), pb.SeatSpec(kind=HUMAN, name="Bob")]
        created = stub.CreateGame(pb.CreateGameRequest(game_type=GAME_TYPE, seats=seats, start=True,
                                                       options_json='{"cats": "seat0"}'), timeout=10)
        game_id = created.game_id
        tokens = {t.seat: t.token for t in created.seat_tokens}
        watchers = {"Bob": tokens[1], "a spectator": None}
        first = {who: _get(stub, game_id, token) for who, token in watchers.items()}
        assert sorted(first["a spectator"].to_act) == [0, 1], "both seats plan at the same time"

        # Ann places part of her plan, as typed moves: nobody else's view changes by a single byte.
        for move_id in ("lead:1:jonin", "assist:1:genin", "lead:2:raifu", "weapon:1"):
            mine = _get(stub, game_id, tokens[0])
            answer = _move(stub, game_id, tokens[0], _by_id(mine, move_id), mine.version)
            assert answer.version == mine.version + 1
            for who, token in watchers.items():
                seen = _get(stub, game_id, token)
                assert seen.view.SerializeToString() == first[who].view.SerializeToString(), who
                event = seen.recent_events[-1]
                assert (event.kind, event.seat, event.move_id, event.move_label) == (pb.GameEvent.KIND_MOVE, 0, "",
                                                                                       ""), who
                assert kv(seen).players[0].plan_secret
        own = kv(_get(stub, game_id, tokens[0]))
        assert own.arenas[0].teams[0].leader == kp.KUNG_FUR_CARD_KOGA_JONIN
        assert own.arenas[0].teams[0].attack_points == 3 + 2 + 1
        assert own.arenas[1].teams[0].leader == kp.KUNG_FUR_CARD_RAIFU

        # Ann is done: the others learn that, and nothing else. Their views are exactly those of the same game had
        # Ann planned nothing at all.
        mine = _get(stub, game_id, tokens[0])
        _move(stub, game_id, tokens[0], _by_id(mine, "done"), mine.version)
        state = GAME.load_state(stored(redis_db_url, game_id).state)
        assert state.plans[0].stacks[0] and state.plans[0].done
        twin = replace(state, plans=(replace(EMPTY_PLAN, done=True), state.plans[1]))
        for (who, token), observer in zip(watchers.items(), (1, None), strict=True):
            seen = _get(stub, game_id, token)
            assert kv(seen).players[0].plan_done and kv(seen).players[0].plan_secret, who
            assert wire.view_from_any(GAME, seen.view) == GAME.view(state, observer) == GAME.view(twin, observer)
            assert list(seen.to_act) == [1]

        # Bob plans and finishes: the screens come down for everyone. What the battle then does depends on the deal
        # (the reward cards, the Hidden Weapon drawn), so the views are checked against the engine's own reveal of
        # the stored game, and that reveal must show Ann's plan: her arena-1 team is on the table for the battle.
        theirs = _get(stub, game_id, tokens[1])
        assert not kv(theirs).arenas[0].teams[0].leader
        _move(stub, game_id, tokens[1], _by_id(theirs, "lead:1:monk"), theirs.version)
        theirs = _get(stub, game_id, tokens[1])
        before = GAME.load_state(stored(redis_db_url, game_id).state)
        revealed = GAME.apply_id(before, 1, "done")
        unplanned = GAME.apply_id(replace(before, plans=(replace(EMPTY_PLAN, done=True), before.plans[1])), 1, "done")
        _move(stub, game_id, tokens[1], _by_id(theirs, "done"), theirs.version)
        assert GAME.load_state(stored(redis_db_url, game_id).state) == revealed
        for token, observer in ((tokens[1], 1), (None, None)):
            seen = _get(stub, game_id, token)
            view = kv(seen)
            assert view.phase != kp.KUNG_FUR_PHASE_PLANNING and not view.players[0].plan_secret
            assert wire.view_from_any(GAME, seen.view) == GAME.view(revealed, observer)
            assert GAME.view(revealed, observer) != GAME.view(unplanned, observer), "Ann's plan shows"


def test_a_human_plays_kung_fur_fight_against_the_ai_worker(redis_db_url, tmp_path):
    cheap = {"TABLETOP_AI_BUDGETS": "easy=30,normal=30,hard=30"}
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "kungfur", **cheap)
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                seats = [pb.SeatSpec(kind=HUMAN, name="Ann"), pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")]
                created = stub.CreateGame(pb.CreateGameRequest(game_type=GAME_TYPE, seats=seats, start=True),
                                          timeout=10)
                token = created.seat_tokens[0].token
                rng = random.Random(3)
                rounds, conflicts = set(), 0
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline:
                    state = await_turn(stub, created.game_id, _auth(token), deadline - time.monotonic())
                    if state.status == pb.GAME_STATUS_FINISHED:
                        break
                    rounds.add(kv(state).round)
                    # Random moves, but a plan is finished only now and then: longer plans meet more rules.
                    moves = list(state.legal_moves)
                    planning = [m for m in moves if m.id != "done"] if rng.random() < 0.7 else []
                    move = rng.choice(planning or moves)
                    try:
                        stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id,
                                                         expected_version=state.version), metadata=_auth(token),
                                      timeout=10)
                    except grpc.RpcError as error:
                        # The AI plans at the same time: a move of its own may come first. Look again.
                        assert error.code() == grpc.StatusCode.ABORTED, error
                        conflicts += 1
                assert state.status == pb.GAME_STATUS_FINISHED, "the AI seat played its part"
                view = kv(state)
                assert view.phase == kp.KUNG_FUR_PHASE_OVER and view.winners and view.end_reason
                assert len(rounds) >= 2
                score = stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10)
                assert score.final
                for seat in score.seats:
                    typed = kp.KungFurScoreBreakdown()
                    assert seat.typed_breakdown.Unpack(typed)
                    assert typed.vp == seat.total == view.players[seat.seat].vp
        finally:
            _stop(worker)
