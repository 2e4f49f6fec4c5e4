"""Naishi played through the API like Hinode: typed views, typed moves and typed score breakdowns, and the secret
simultaneous gift at setup ("Each player secretly chooses one of their 2 development cards ... and gives it to
their opponent"; docs/rules/naishi.md, Set Up)."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import grpc

from games import registry, wire
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tabletop.v1 import naishi_pb2 as np
from tests.ai.test_worker import _service, _stop, _worker
from tests.service.conftest import HUMAN
from tests.service.test_play import stored
from tests.support.waiting import await_turn

NAISHI = registry.get("naishi")


def _typed_view(state: pb.GameState):
    return wire.view_from_any(NAISHI, state.view)


def nv(state: pb.GameState) -> np.NaishiView:
    """The Naishi view a GameState carries, as its public message."""
    view = np.NaishiView()
    assert state.view.Unpack(view), state.view.type_url
    return view


def nm(legal: pb.LegalMove) -> np.NaishiMove:
    move = np.NaishiMove()
    assert legal.move.Unpack(move), legal.move.type_url
    return move


def _game_with_two_different_gifts(api) -> tuple[str, dict[int, str]]:
    """A new 2-human game whose seat 0 is offered two different cards (about 7% of deals offer a pair), so that
    which one it gives is a real secret."""
    for _ in range(50):
        created = api.create("naishi", [HUMAN, HUMAN], start=True)
        tokens = {t.seat: t.token for t in created.seat_tokens}
        offer = nv(api.state(created.game_id, tokens[0])).offer
        if len(set(offer)) == 2:
            return created.game_id, tokens
    raise AssertionError("50 deals in a row offered seat 0 two identical cards")


def _give_secretly(api, redis_url: str, game_id: str, tokens: dict[int, str]) -> None:
    """Seat 0 gives first (as a typed move); nobody else learns which card until seat 1 has given too."""
    spectator = api.state(game_id)
    assert sorted(spectator.to_act) == [0, 1], "both seats choose their gift at the same time"
    mine = api.state(game_id, tokens[0])
    assert [m.id.split(":")[0] for m in mine.legal_moves] == ["give", "give"]
    offer = list(nv(mine).offer)
    assert len(offer) == 2 and not nv(api.state(game_id)).offer, "a spectator sees no offer"
    chosen = mine.legal_moves[0]
    assert nm(chosen).WhichOneof("kind") == "give"
    answer = api.stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, typed_move=chosen.move,
                                                  expected_version=mine.version), metadata=api.auth(tokens[0]))
    assert nv(answer.state).gift_given == nm(chosen).give.card
    assert list(answer.state.to_act) == [1] and not answer.state.legal_moves, "seat 0 has chosen; it waits"

    # The other seat and a spectator know that seat 0 has chosen, never what: their views are exactly those of
    # the same game had seat 0 given its other card, and the event does not carry the move.
    given = nm(chosen).give.card
    other = offer[1] if offer[0] == given else offer[0]
    state = NAISHI.load_state(stored(redis_url, game_id).state)
    assert state.gifts[0] == given - 1  # NaishiCard values are the engine's card + 1
    given_card, other_card = given - 1, other - 1
    twin = replace(state, gifts=(other_card, state.gifts[1]))
    for token, seat in ((tokens[1], 1), (None, None)):
        seen = api.state(game_id, token)
        assert [t.gift_chosen for t in nv(seen).territories] == [True, False]
        assert nv(seen).gift_received == np.NAISHI_CARD_UNSPECIFIED
        assert _typed_view(seen) == NAISHI.view(state, seat) == NAISHI.view(twin, seat)
        event = seen.recent_events[-1]
        assert (event.kind, event.seat, event.move_id, event.move_label) == (pb.GameEvent.KIND_MOVE, 0, "", "")
    watched = api.stub.WatchGame(pb.WatchGameRequest(game_id=game_id, from_version=answer.version - 1), timeout=10)
    update = next(iter(watched))
    watched.cancel()
    assert update.event.seat == 0 and update.event.move_id == "" and not nv(update.state).offer

    # Seat 1 gives by id; now each seat knows what it got.
    theirs = api.state(game_id, tokens[1])
    done = api.move(game_id, tokens[1], theirs.legal_moves[-1].id, expected_version=theirs.version)
    received = nv(done.state).gift_received
    assert nv(done.state).phase == np.NAISHI_PHASE_TURN and received == given
    assert nv(api.state(game_id, tokens[0])).gift_received == nm(theirs.legal_moves[-1]).give.card
    assert given_card != other_card


def _check_score(score: pb.GetScoreResponse) -> None:
    for seat in score.seats:
        breakdown = np.NaishiScoreBreakdown()
        assert seat.typed_breakdown.Unpack(breakdown)
        typed = {field.name: value for field, value in breakdown.ListFields()}
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
        hand = nv(mine).territories[seat].hand
        assert _typed_view(mine).hand == tuple(c - 1 for c in hand) and len(hand) == 5
        assert not any(t.hand for t in nv(spectator).territories), "a spectator sees no Hand"
        # Random moves, but no early declaration: a longer game meets more kinds of move.
        choices = [m for m in mine.legal_moves if step > 60 or m.id != "declare_end"] or list(mine.legal_moves)
        move = rng.choice(choices)
        kinds.add(nm(move).WhichOneof("kind"))
        if step % 2:  # half the moves as typed messages, half by id
            request = pb.MakeMoveRequest(game_id=game_id, typed_move=move.move, expected_version=mine.version)
            answer = api.stub.MakeMove(request, metadata=api.auth(tokens[seat]))
        else:
            answer = api.move(game_id, tokens[seat], move.id, expected_version=mine.version, request_id=f"n{step}")
        assert answer.version == mine.version + 1
        # Only the gift is secret: the other seat sees each turn's move itself ("Player 1 develops ...", ...).
        event = api.state(game_id, tokens[1 - seat]).recent_events[-1]
        verb, _, rest = move.label.removeprefix("You ").partition(" ")
        told = f"Player {seat + 1} {verb}s {rest.replace('your ', 'their ')}"
        assert (event.version, event.seat, event.move_id, event.move_label) == (answer.version, seat, move.id, told)
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
        assert all(len(t.hand) == 5 for t in nv(view).territories), "both Hands are revealed at the end"


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
                    state = await_turn(stub, created.game_id, auth, deadline - time.monotonic())
                    if state.status == pb.GAME_STATUS_FINISHED:
                        break
                    move = rng.choice(list(state.legal_moves))
                    try:
                        stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id,
                                                         expected_version=state.version), metadata=auth, timeout=10)
                    except grpc.RpcError as error:
                        # Both seats may act at once (the gift exchange): the AI's move came first. Look again.
                        assert error.code() == grpc.StatusCode.ABORTED, error
                assert state.status == pb.GAME_STATUS_FINISHED, "the AI seat played its turns"
                assert nv(state).phase == np.NAISHI_PHASE_OVER
                _check_score(stub.GetScore(pb.GetScoreRequest(game_id=created.game_id), timeout=10))
        finally:
            _stop(worker)
