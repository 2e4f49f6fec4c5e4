"""Naishi played through the API like Hinode: typed views, typed moves and typed score breakdowns, and the secret
simultaneous gift at setup ("Each player secretly chooses one of their 2 development cards ... and gives it to
their opponent"; docs/rules/naishi.md, Set Up)."""

from __future__ import annotations

import random
import time

import grpc

from games import registry
from games.base import evolve
from tabletop import wire
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.ai.test_worker import _service, _stop, _worker
from tests.service.conftest import HUMAN
from tests.service.test_play import stored

NAISHI = registry.get("naishi")


def _typed_view(state: pb.GameState):
    assert state.view.WhichOneof("kind") == "naishi"
    return wire.view_from_any(NAISHI, state.view)


def _game_with_two_different_gifts(api) -> tuple[str, dict[int, str]]:
    """A new 2-human game whose seat 0 is offered two different cards (about 7% of deals offer a pair), so that
    which one it gives is a real secret."""
    for _ in range(50):
        created = api.create("naishi", [HUMAN, HUMAN], start=True)
        tokens = {t.seat: t.token for t in created.seat_tokens}
        offer = api.state(created.game_id, tokens[0]).view.naishi.offer
        if len(set(offer)) == 2:
            return created.game_id, tokens
    raise AssertionError("50 deals in a row offered seat 0 two identical cards")


def _give_secretly(api, redis_url: str, game_id: str, tokens: dict[int, str]) -> None:
    """Seat 0 gives first (as a typed move); nobody else learns which card until seat 1 has given too."""
    spectator = api.state(game_id)
    assert sorted(spectator.to_act) == [0, 1], "both seats choose their gift at the same time"
    mine = api.state(game_id, tokens[0])
    assert [m.id.split(":")[0] for m in mine.legal_moves] == ["give", "give"]
    offer = list(mine.view.naishi.offer)
    assert len(offer) == 2 and not api.state(game_id).view.naishi.offer, "a spectator sees no offer"
    chosen = mine.legal_moves[0]
    assert chosen.move.naishi.WhichOneof("kind") == "give"
    answer = api.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, typed_move=chosen.move,
                                                  expected_version=mine.version), metadata=api.auth(tokens[0]))
    assert answer.state.view.naishi.gift_given == chosen.move.naishi.give.card
    assert list(answer.state.to_act) == [1] and not answer.state.legal_moves, "seat 0 has chosen; it waits"

    # The other seat and a spectator know that seat 0 has chosen, never what: their views are exactly those of
    # the same game had seat 0 given its other card, and the event does not carry the move.
    given = chosen.move.naishi.give.card
    other = offer[1] if offer[0] == given else offer[0]
    state = NAISHI.load_state(stored(redis_url, game_id).state)
    assert state.gifts[0] == given
    twin = evolve(state, gifts=(other, state.gifts[1]))
    for token, seat in ((tokens[1], 1), (None, None)):
        seen = api.state(game_id, token)
        assert list(seen.view.naishi.gifts_chosen) == [True, False]
        assert not seen.view.naishi.HasField("gift_received")
        assert _typed_view(seen) == NAISHI.view(state, seat) == NAISHI.view(twin, seat)
        event = seen.recent_events[-1]
        assert (event.kind, event.seat, event.move_id, event.move_label) == (pb.GameEvent.KIND_MOVE, 0, "", "")
    watched = api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=answer.version - 1), timeout=10)
    update = next(iter(watched))
    watched.cancel()
    assert update.event.seat == 0 and update.event.move_id == "" and not update.state.view.naishi.offer

    # Seat 1 gives by id; now each seat knows what it got.
    theirs = api.state(game_id, tokens[1])
    done = api.move(game_id, tokens[1], theirs.legal_moves[-1].id, expected_version=theirs.version)
    received = done.state.view.naishi.gift_received
    assert done.state.view.naishi.phase == "turn" and received == given
    assert api.state(game_id, tokens[0]).view.naishi.gift_received == theirs.legal_moves[-1].move.naishi.give.card


def _check_score(score: pb.GetScoreResponse) -> None:
    for seat in score.seats:
        assert seat.WhichOneof("typed_breakdown") == "naishi"
        typed = {field.name: value for field, value in seat.naishi.ListFields()}
        generic = {item.category.lower().replace(" ", "_"): item.points for item in seat.breakdown}
        assert {k: v for k, v in generic.items() if v} == typed, "the typed breakdown is the generic one"
        assert sum(generic.values()) == seat.total


def test_two_humans_play_a_whole_naishi_game(api, redis_url):
    game_id, tokens = _game_with_two_different_gifts(api)
    _give_secretly(api, redis_url, game_id, tokens)

    rng = random.Random(5)
    kinds: set[str] = set()
    for step in range(2000):
        spectator = api.state(game_id)
        if spectator.status == pb.GAME_STATUS_FINISHED:
            break
        (seat,) = spectator.to_act
        mine = api.state(game_id, tokens[seat])
        assert _typed_view(mine).hand == tuple(mine.view.naishi.hand) and len(mine.view.naishi.hand) == 5
        assert not spectator.view.naishi.hand, "a spectator sees no Hand"
        # Random moves, but no early declaration: a longer game meets more kinds of move.
        choices = [m for m in mine.legal_moves if step > 60 or m.id != "declare_end"] or list(mine.legal_moves)
        move = rng.choice(choices)
        kinds.add(move.move.naishi.WhichOneof("kind"))
        if step % 2:  # half the moves as typed messages, half by id
            request = pb.MakeMoveRequest(game_id=game_id, typed_move=move.move, expected_version=mine.version)
            answer = api.stub.MakeMove(request, metadata=api.auth(tokens[seat]))
        else:
            answer = api.move(game_id, tokens[seat], move.id, expected_version=mine.version, request_id=f"n{step}")
        assert answer.version == mine.version + 1
        # Only the gift is secret: the other seat sees each turn's move itself ("Develop: ...", ...).
        event = api.state(game_id, tokens[1 - seat]).recent_events[-1]
        assert (event.version, event.seat, event.move_id, event.move_label) == (answer.version, seat, move.id,
                                                                                move.label)
        if step == 20:
            _check_score(api.stub.GetScore(pb.GetScoreRequest(game_id=game_id), metadata=api.auth(tokens[seat])))
    else:
        raise AssertionError("the game did not end")
    assert "develop" in kinds and len(kinds) >= 3, kinds

    score = api.stub.GetScore(pb.GetScoreRequest(game_id=game_id))
    assert score.final and [s.seat for s in score.seats] == [0, 1]
    _check_score(score)
    state = NAISHI.load_state(stored(redis_url, game_id).state)
    assert [s.total for s in score.seats] == [s.total for s in NAISHI.score(state).seats]
    for seat in (0, 1, None):
        view = api.state(game_id, tokens[seat] if seat is not None else None)
        assert _typed_view(view) == NAISHI.view(state, seat)
        assert len(view.view.naishi.revealed_hands) == 2, "both Hands are revealed at the end"


def test_a_human_plays_naishi_against_the_ai_worker(redis_db_url, tmp_path):
    cheap = {"TABLETOP_AI_BUDGETS": "easy=30,normal=30,hard=30"}
    with _service(redis_db_url, tmp_path) as target:
        worker, _ = _worker(redis_db_url, target, tmp_path, "naishi", **cheap)
        try:
            with grpc.insecure_channel(target) as channel:
                stub = game_service_pb2_grpc.GameServiceStub(channel)
                seats = [pb.SeatSpec(kind=HUMAN, name="Ann"), pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")]
                created = stub.CreateGame(pb.CreateGameRequest(game_type="naishi", seats=seats, start=True),
                                          timeout=10)
                auth = (("authorization", f"Bearer {created.seat_tokens[0].token}"),)
                rng = random.Random(3)
                deadline = time.monotonic() + 240
                while time.monotonic() < deadline:
                    state = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=auth,
                                          timeout=10).state
                    if state.status == pb.GAME_STATUS_FINISHED:
                        break
                    if 0 not in state.to_act:
                        time.sleep(0.05)
                        continue
                    move = rng.choice(list(state.legal_moves))
                    stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id,
                                                     expected_version=state.version), metadata=auth, timeout=10)
                assert state.status == pb.GAME_STATUS_FINISHED, "the AI seat played its turns"
                assert state.view.naishi.phase == "over"
                _check_score(stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10))
        finally:
            _stop(worker)
