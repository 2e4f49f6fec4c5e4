"""What each caller sees: a seat its own view, a spectator the public one, and never a secret of another seat."""

from __future__ import annotations

import random

import pytest

from games import registry
from service.store import Event
from service.messages import event_to_proto
from service.tables import visible_score
from tabletop import wire
from tabletop.v1 import game_service_pb2 as pb
from tests.service.conftest import HUMAN
from tests.service.test_play import stored

HINODE = registry.get("hinode")


def test_hinode_seats_see_their_own_hand_and_spectators_none(api, redis_url):
    created = api.create("hinode", [HUMAN] * 4, start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    rng = random.Random(2)
    for _ in range(12):  # into the card play, so hands and the table have content
        spectator = api.state(created.game_id)
        seat = spectator.to_act[0]
        mine = api.state(created.game_id, tokens[seat])
        api.move(created.game_id, tokens[seat], rng.choice(list(mine.legal_moves)).id)
    state = HINODE.load_state(stored(redis_url, created.game_id).state)
    spectator = api.state(created.game_id)
    assert not spectator.HasField("your_seat") and not spectator.legal_moves
    assert list(spectator.view.hinode.hand) == []
    assert wire.view_from_any(HINODE, spectator.view) == HINODE.view(state, None)
    for seat in range(4):
        view = api.state(created.game_id, tokens[seat]).view
        assert list(view.hinode.hand) == list(state.hands[seat])
        assert wire.view_from_any(HINODE, view) == HINODE.view(state, seat)
        serialized = view.SerializeToString()
        for other in range(4):
            if other != seat and state.hands[other]:
                others_hand = pb.GameView(hinode={"hand": state.hands[other]}).hinode.SerializeToString()
                assert others_hand not in serialized


def test_every_hinode_move_is_shown_to_the_other_seats_and_spectators(api):
    """Every Hinode move is made at the open table (move_is_public): other seats and spectators see its id and
    label in recent_events and in WatchGame, not only "seat N moved"."""
    created = api.create("hinode", [HUMAN] * 4, start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    rng = random.Random(4)
    played = {}  # version -> (seat, id, label)
    for _ in range(12):  # tribes, an Area, then cards played
        seat = api.state(created.game_id).to_act[0]
        move = rng.choice(list(api.state(created.game_id, tokens[seat]).legal_moves))
        answer = api.move(created.game_id, tokens[seat], move.id)
        played[answer.version] = (seat, move.id, move.label)
        observer = (seat + 1) % 4
        for state in (api.state(created.game_id, tokens[observer]), api.state(created.game_id)):
            event = state.recent_events[-1]
            assert event.version == answer.version
            assert (event.seat, event.move_id, event.move_label) == played[event.version]
    for token in (tokens[0], None):
        request = pb.WatchGameRequest(game_id=created.game_id, from_version=min(played) - 1)
        watched = api.stub.WatchGame(request, metadata=api.auth(token), timeout=10)
        updates = [next(watched) for _ in played]
        watched.cancel()
        assert {u.event.version: (u.event.seat, u.event.move_id, u.event.move_label) for u in updates} == played
    assert any(move_id.startswith("play:") for _, move_id, _ in played.values())


def test_a_move_event_stored_without_the_public_flag_stays_the_movers_own():
    """Events stored before `pub` existed may be secret moves: only the mover sees their id and label."""
    fields = {"kind": "move", "seat": "1", "move_id": "card:3", "move_label": "Commit 3", "at": "5", "over": "0"}
    for pub, others_see in ((None, False), ("0", False), ("1", True)):
        event = Event(7, fields if pub is None else {**fields, "pub": pub})
        assert event_to_proto(event, 1).move_label == "Commit 3"
        for viewer in (0, None):
            shown = event_to_proto(event, viewer)
            assert (shown.move_id, shown.move_label) == (("card:3", "Commit 3") if others_see else ("", ""))


def test_a_secret_commitment_stays_hidden_from_the_other_seats(api, toy_game):
    """Toy rule: "every seat secretly commits one card at the same time"."""
    created = api.create("toy", [HUMAN, HUMAN], start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    mine = api.state(created.game_id, tokens[0])
    card = mine.legal_moves[0]
    api.move(created.game_id, tokens[0], card.id)
    own = api.state(created.game_id, tokens[0])
    other = api.state(created.game_id, tokens[1])
    spectator = api.state(created.game_id)
    assert own.recent_events[-1].move_id == card.id
    for state in (other, spectator):
        event = state.recent_events[-1]
        assert event.kind == pb.GameEvent.KIND_MOVE and event.seat == 0
        assert event.move_id == "" and event.move_label == ""
        view = wire.view_from_any(toy_game, state.view)
        assert view.own_commit is None and view.committed == (True, False)
        assert card.id not in str(state) and card.label not in str(state)
    assert wire.view_from_any(toy_game, own.view).own_commit == int(card.id.split(":")[1])
    assert list(other.to_act) == [1] and list(own.legal_moves) == []


@pytest.mark.parametrize("game", registry.all_games(), ids=registry.names())
def test_a_live_score_depends_only_on_what_the_caller_may_see(game):
    rng = random.Random(11)
    for g in range(8):
        n, options = game.variants()[g % len(game.variants())]
        state = game.new_game(n, options, g)
        while game.to_act(state):
            for viewer in [None, *range(n)]:
                # Another state the viewer cannot tell apart from this one gets the same live score.
                twin = game.sample(game.view(state, viewer), rng)
                assert visible_score(game, twin, viewer) == visible_score(game, state, viewer)
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
        assert visible_score(game, state, None) == game.score(state)  # the final score is exact


def test_hinode_live_scores_are_exact_because_they_are_public(api, redis_url):
    created = api.create("hinode", [HUMAN] * 3, start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    rng = random.Random(6)
    for _ in range(20):
        seat = api.state(created.game_id).to_act[0]
        moves = api.state(created.game_id, tokens[seat]).legal_moves
        api.move(created.game_id, tokens[seat], rng.choice(list(moves)).id)
    state = HINODE.load_state(stored(redis_url, created.game_id).state)
    live = api.stub.GetScore(pb.GetScoreRequest(game_id=created.game_id))
    assert not live.final
    assert live == wire.score_to_proto(HINODE, HINODE.score(state), live.version)
