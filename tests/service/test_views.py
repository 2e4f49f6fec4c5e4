"""What each caller sees: a seat its own view, a spectator the public one, and never a secret of another seat."""

from __future__ import annotations

import random

import pytest

from games import registry, wire
from games.base import Words
from games.hinode.data import HERO
from games.hinode.moves import PlayCard
from games.hinode.wire import card_from_proto, card_to_proto
from service.messages import event_to_proto
from service.play import told_template
from service.store import Event
from service.tables import visible_score
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import hinode_pb2 as hp
from tests.service.conftest import HUMAN
from tests.service.test_play import stored

HINODE = registry.get("hinode")


def hinode_view(state: pb.GameState) -> hp.HinodeView:
    view = hp.HinodeView()
    assert state.view.Unpack(view)
    return view


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
    assert list(hinode_view(spectator).hand) == []
    assert wire.view_from_any(HINODE, spectator.view) == HINODE.view(state, None)
    for seat in range(4):
        mine = api.state(created.game_id, tokens[seat])
        assert [card_from_proto(c) for c in hinode_view(mine).hand] == list(state.hands[seat])
        assert wire.view_from_any(HINODE, mine.view) == HINODE.view(state, seat)
        serialized = mine.view.SerializeToString()
        for other in range(4):
            if other != seat and state.hands[other]:
                others_hand = hp.HinodeView(hand=[card_to_proto(c) for c in state.hands[other]]).SerializeToString()
                assert others_hand not in serialized


def test_every_hinode_move_is_shown_to_the_other_seats_and_spectators(api):
    """Every Hinode move is made at the open table (move_is_public): other seats and spectators see its id and
    sentence in recent_events and in WatchGame, not only "seat N moved"; the mover reads "You ...", everyone else
    "Ann ..."."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    created = api.create("hinode", [pb.SeatSpec(kind=pb.SEAT_KIND_HUMAN, name=n) for n in names], start=True)
    tokens = {t.seat: t.token for t in created.seat_tokens}
    rng = random.Random(4)
    played = {}  # version -> (seat, id, sentence for the others)
    own = {}  # version -> the mover's sentence
    for _ in range(12):  # tribes, an Area, then cards played
        seat = api.state(created.game_id).to_act[0]
        move = rng.choice(list(api.state(created.game_id, tokens[seat]).legal_moves))
        assert move.label.startswith("You ")
        answer = api.move(created.game_id, tokens[seat], move.id)
        assert answer.state.recent_events[-1].move_label == move.label
        verb, _, rest = move.label[len("You "):].partition(" ")
        played[answer.version] = (seat, move.id, f"{names[seat]} {verb}s {rest}")
        own[answer.version] = move.label
        observer = (seat + 1) % 4
        for state in (api.state(created.game_id, tokens[observer]), api.state(created.game_id)):
            event = state.recent_events[-1]
            assert event.version == answer.version
            assert (event.seat, event.move_id, event.move_label) == played[event.version]
    for token, viewer in ((tokens[0], 0), (None, None)):
        request = pb.WatchGameRequest(game_id=created.game_id, from_version=min(played) - 1)
        watched = api.stub.WatchGame(request, metadata=api.auth(token), timeout=10)
        updates = [next(watched) for _ in played]
        watched.cancel()
        expected = {v: (seat, i, own[v] if seat == viewer else said) for v, (seat, i, said) in played.items()}
        assert {u.event.version: (u.event.seat, u.event.move_id, u.event.move_label) for u in updates} == expected
    assert any(move_id.startswith("play:") for _, move_id, _ in played.values())


def test_a_move_is_told_to_each_reader_in_its_own_words():
    """The mover reads "You ...", the others the mover's name; a seat the move names is "you" to that seat."""
    move = PlayCard(HERO, skill=3, pay=0, target_seat=2, target_colour=1)
    fields = {"kind": "move", "seat": "1", "move_id": move.id, "pub": "1", "at": "5", "over": "0",
              "move_label": move.describe(Words(("Ann", "Bob", "Cy"), 1, 1)), "move_told": told_template(move, 1, 3)}
    names = ("Ann", "Bob", "Cy")
    said = {viewer: event_to_proto(Event(7, fields), viewer, names).move_label for viewer in (0, 1, 2, None)}
    assert said[1] == ("You play the Hero with the Charmont skill (paying 2 red), taking a blue resource from Cy")
    assert said[0] == said[None] == ("Bob plays the Hero with the Charmont skill (paying 2 red), taking a blue "
                                     "resource from Cy")
    assert said[2].endswith("taking a blue resource from you")
    secret = {**fields, "pub": "0"}
    assert event_to_proto(Event(7, secret), 1, names).move_label == said[1]
    for viewer in (0, 2, None):
        shown = event_to_proto(Event(7, secret), viewer, names)
        assert (shown.move_id, shown.move_label) == ("", "")


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


@pytest.mark.parametrize("game", registry.all_games(), ids=registry.names())
def test_a_live_score_is_marked_as_an_estimate_unless_the_game_calls_it_public_which_it_is(game):
    """GetScore.estimated: a game claiming live_score_public gets every reader's live score exact; the others' are
    estimates (Naishi's depends on the Hands' order), and a final score never is."""
    rng = random.Random(12)
    for g in range(6):
        n, options = game.variants()[g % len(game.variants())]
        state = game.new_game(n, options, g)
        while game.to_act(state):
            for viewer in [None, *range(n)]:
                seen = visible_score(game, state, viewer)
                assert seen.estimated is not game.live_score_public
                if game.live_score_public:  # the claim: any state the viewer's view allows scores the same
                    assert seen == game.score(state)
                    sampled = game.sample(game.view(state, viewer), random.Random(g))
                    assert game.score(sampled) == game.score(state)
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(list(game.legal_moves(state, seat))))
        assert not visible_score(game, state, None).estimated
    assert registry.get("naishi").live_score_public is False


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
