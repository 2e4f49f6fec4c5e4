"""Zipang played through the real service and AI worker processes: a 3-seat game with 1 human and 2 AI seats where
the human blocks an attack with a coin and cancels an effect with a Monk, out of turn ("If you are attacked before
your first turn of each battle: you can block the attack by adding 1 Mangoku coin to the coin area"; Monk: "out of
turn, cancel an effect aimed at you"; docs/rules/zipang.md)."""

from __future__ import annotations

import random
import time

import grpc

from games import wire
from games.zipang import GAME as ZIPANG
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tabletop.v1 import zipang_pb2 as zp
from tests.ai.test_worker import _service, _stop, _worker
from tests.support.waiting import await_turn

HUMAN = 0
GAMES = 20  # the bound on games played until both answers have happened (usually 1 to 5 are enough)
DEADLINE_SECONDS = 120  # per game; generous for a loaded machine (a game takes a few seconds)


def zv(state: pb.GameState) -> zp.ZipangView:
    view = zp.ZipangView()
    assert state.view.Unpack(view), state.view.type_url
    return view


def zm(legal: pb.LegalMove) -> zp.ZipangMove:
    move = zp.ZipangMove()
    assert legal.move.Unpack(move), legal.move.type_url
    return move


def _answer(legal_moves, answer: int) -> pb.LegalMove | None:
    return next((m for m in legal_moves if zm(m).WhichOneof("kind") == "react" and zm(m).react.answer == answer),
                None)


def _check_waiting_for_the_human(stub, game_id: str, mine: pb.GameState) -> zp.ZipangReaction:
    """The human's out-of-turn decision is visible: it alone is to act, with its answers, while the AI seat on
    turn waits; a spectator sees the same decision without the human's secrets."""
    view = zv(mine)
    assert list(mine.to_act) == [HUMAN] and mine.legal_moves
    assert view.phase == zp.ZIPANG_PHASE_REACT and view.actor == HUMAN and view.active != HUMAN
    reaction = view.reaction
    assert (reaction.seat, reaction.from_seat) == (HUMAN, view.active)
    assert reaction.card == view.effect.card and view.effect.targets[0] == HUMAN
    spectator = stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state
    assert list(spectator.to_act) == [HUMAN] and not spectator.legal_moves
    public = zv(spectator).reaction
    assert (public.seat, public.from_seat, public.card, public.coin_block_allowed) == (
        HUMAN, view.active, reaction.card, reaction.coin_block_allowed)
    assert not public.monk_allowed and not public.defence, "the human's hand is its own secret"
    assert wire.view_from_any(ZIPANG, mine.view).seat == HUMAN
    return reaction


def _play_one_game(stub, rng: random.Random, done: dict[str, int]) -> None:
    """A human and 2 AI seats, AI seat 1 starting the first battle (so both AI seats play before the human's first
    turn and may attack it). The human blocks the first attack it can with a coin and cancels the first effect it
    can with a Monk (keeping its Monks for that: it never plays one on its own turn when it has another card), and
    otherwise plays at random."""
    seats = [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name="Ann"), pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy"),
             pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")]
    created = stub.CreateGame(pb.CreateGameRequest(game_type="zipang", seats=seats, start=True,
                                                   options_json='{"start_player": "seat1"}'), timeout=10)
    game_id = created.game_id
    auth = (("authorization", f"Bearer {created.seat_tokens[0].token}"),)
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        mine = await_turn(stub, game_id, auth, deadline - time.monotonic())
        if mine.status == pb.GAME_STATUS_FINISHED or (done["coin"] and done["monk"]):
            return
        coin = _answer(mine.legal_moves, zp.ZIPANG_ANSWER_COIN_BLOCK)
        monk = _answer(mine.legal_moves, zp.ZIPANG_ANSWER_MONK)
        if coin and not done["coin"]:
            move, kind = coin, "coin"
        elif monk and not done["monk"]:
            move, kind = monk, "monk"
        else:
            keep = [m for m in mine.legal_moves if m.id != "play:monk" and _answer([m], zp.ZIPANG_ANSWER_MONK) is None]
            move, kind = rng.choice(keep or list(mine.legal_moves)), ""
        if kind:
            reaction = _check_waiting_for_the_human(stub, game_id, mine)
            assert reaction.coin_block_allowed if kind == "coin" else reaction.monk_allowed
            before = zv(mine)
        answer = stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, typed_move=move.move,
                                                  expected_version=mine.version), metadata=auth, timeout=10)
        assert answer.version == mine.version + 1
        after = zv(answer.state)
        if kind and len(after.battle_results) == len(before.battle_results):  # (a battle's end moves coins too)
            if kind == "coin":
                assert after.players[HUMAN].coins == before.players[HUMAN].coins - 1
                assert after.coin_area == before.coin_area + 1
            else:
                assert list(after.discard[: len(before.discard) + 1]) == [*before.discard, zp.ZIPANG_CARD_MONK]
        if kind:
            # (the AI seats may have moved on meanwhile: find the reaction's own event by its version)
            seen = stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state.recent_events
            [event] = [e for e in seen if e.version == answer.version]
            assert (event.seat, event.move_id) == (HUMAN, kind), "a reaction is made in plain sight"
            done[kind] += 1
    raise AssertionError(f"game {game_id} did not finish within {DEADLINE_SECONDS}s")


def test_a_human_blocks_an_attack_with_a_coin_and_cancels_an_effect_with_a_monk(redis_db_url,
                                                                                tmp_path):
    """Deals are random (a seed is refused with a human seat), so games are played until both answers have
    happened, at most GAMES of them; the AI seats attack and steal as they see fit."""
    cheap = {"TABLETOP_AI_BUDGETS": "easy=20,normal=20,hard=20"}
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "zipang", **cheap)
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                types = {t.name: t for t in stub.ListGameTypes(pb.ListGameTypesRequest(), timeout=10).game_types}
                assert types["zipang"].view_type == "tabletop.v1.ZipangView"
                assert types["zipang"].score_type == "tabletop.v1.ZipangScoreBreakdown"
                rng = random.Random(7)
                done = {"coin": 0, "monk": 0}
                played = 0
                while played < GAMES and not (done["coin"] and done["monk"]):
                    _play_one_game(stub, rng, done)
                    played += 1
                assert done == {"coin": 1, "monk": 1}, f"after {played} games: {done}"
        finally:
            _stop(worker)
