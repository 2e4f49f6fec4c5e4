"""The SDK against a real `tabletop serve`: the lobby, moves with expected versions and request ids, and errors
as typed exceptions carrying the gRPC code, the ErrorInfo reason and the message (docs/api.md, Errors)."""

from __future__ import annotations

import grpc
import pytest

from tabletop import client as sdk
from tabletop.client import Seat, connect
from tabletop.v1 import game_service_pb2 as pb


@pytest.fixture
def client(shared_service):
    with connect(shared_service.target) as c:
        yield c


def two_humans(client) -> sdk.CreatedGame:
    return client.create_game("naishi", [Seat.human("Ann"), Seat.human("Bo")], start=True)


def test_lobby_create_join_start(client):
    game = client.create_game("naishi", [Seat.human("Ann"), Seat.open()])
    assert game.state.status == pb.GAME_STATUS_WAITING_FOR_PLAYERS
    bo = client.join_game(game.join_code, name="Bo")
    assert bo.seat == 1 and bo.game_id == game.game_id
    started = game.start()
    assert started.status == pb.GAME_STATUS_IN_PROGRESS
    assert [(s.name, s.kind) for s in started.seats] == [("Ann", pb.SEAT_KIND_HUMAN), ("Bo", pb.SEAT_KIND_HUMAN)]
    assert {t.name for t in client.game_types()} >= {"hinode", "naishi"}


def test_errors_are_typed_with_code_reason_and_message(client):
    with pytest.raises(sdk.NotFound) as caught:
        client.state("no-such-game")
    assert caught.value.code == grpc.StatusCode.NOT_FOUND and caught.value.reason == "GAME_NOT_FOUND"
    assert "no-such-game" in caught.value.message

    with pytest.raises(sdk.InvalidArgument) as caught:
        client.create_game("chess", [Seat.human()])
    assert caught.value.reason == "UNKNOWN_GAME_TYPE"

    game = two_humans(client)
    with pytest.raises(sdk.Unauthenticated) as caught:
        client.move(game.game_id, "not-a-token", "end_turn", expected_version=None)
    assert caught.value.reason == "INVALID_TOKEN"

    with pytest.raises(sdk.PermissionDenied) as caught:
        client.start_game(game.game_id, game.seat_tokens[0])
    assert caught.value.reason == "NOT_GAME_CREATOR"

    with pytest.raises(sdk.FailedPrecondition) as caught:
        game.player(0).move("develop:hand:1", expected_version=None)  # the gifts come first
    assert caught.value.reason and caught.value.message
    assert isinstance(caught.value, sdk.TabletopError)


def _give_both_gifts(game: sdk.CreatedGame) -> tuple[sdk.Player, sdk.Player]:
    """Both seats give their Naishi gift; then (the seat to act first, the other)."""
    ann, bo = game.player(0), game.player(1)
    seen_by_ann = ann.state()
    bo.move(bo.state().legal_moves[0].id)  # Bo's gift is secret, and Ann still chooses hers from the same cards:
    ann.move(seen_by_ann.legal_moves[0].id)  # so her gift, decided before his, goes through (docs/api.md)
    return (ann, bo) if 0 in ann.state().to_act else (bo, ann)


def _play_until_to_act(first: sdk.Player, second: sdk.Player) -> pb.GameState:
    """`first` plays in the open until `second` is to act; the game as it is then."""
    state = first.state()
    while second.seat not in state.to_act:
        state = first.move(state.legal_moves[0].id)
    return state


def test_a_stale_version_raises_and_applies_nothing(client):
    first, second = _give_both_gifts(two_humans(client))
    seen_by_second = second.state()
    now = _play_until_to_act(first, second)  # the game moves on, in the open, after the second seat looked
    move = second.state().legal_moves[0].id
    with pytest.raises(sdk.StaleVersion) as caught:
        second.move(move, expected_version=seen_by_second.version)
    assert caught.value.code == grpc.StatusCode.ABORTED and caught.value.reason == "VERSION_MISMATCH"
    assert caught.value.current_version == now.version > seen_by_second.version
    assert client.state(first.game_id).version == now.version, "nothing applied"
    # Asking for no expected version applies the move to whatever the game is now.
    after = second.move(move, expected_version=None)
    assert after.version == now.version + 1


def test_a_move_is_sent_with_the_version_of_the_last_update_watched(client):
    first, second = _give_both_gifts(two_humans(client))
    second.state()
    updates = second.watch(from_version=second.last_state.version)
    try:
        _play_until_to_act(first, second)
        update = next(updates)
        while second.seat not in update.state.to_act:
            update = next(updates)
        assert second.last_state == update.state
        answer = second.move(update.state.legal_moves[0].id)  # expected_version: the update's
        assert answer.version == update.state.version + 1
    finally:
        updates.close()


def test_a_move_may_be_sent_as_its_typed_message(client):
    game = client.create_game("hinode", [Seat.human("Ann")], start=True)  # three proxies fill the table
    ann = game.player(0)
    state = ann.state()
    while 0 not in state.to_act:
        state = ann.state()
    chosen = state.legal_moves[-1]
    assert chosen.move.type_url == "type.googleapis.com/tabletop.v1.HinodeMove"
    after = ann.move(chosen.move)
    assert after.version > state.version
    assert any(e.move_id == chosen.id for e in after.recent_events), "the typed move is the listed move"


def test_a_retried_request_id_is_applied_once(client):
    game = two_humans(client)
    ann = game.player(0)
    state = ann.state()
    first = client.move(game.game_id, ann.token, state.legal_moves[0].id, state.version, request_id="same-move")
    again = client.move(game.game_id, ann.token, state.legal_moves[0].id, state.version, request_id="same-move")
    assert again == first
    assert client.state(game.game_id).version == state.version + 1


class Unavailable(grpc.RpcError):
    def code(self):
        return grpc.StatusCode.UNAVAILABLE

    def details(self):
        return "connection refused"

    def trailing_metadata(self):
        return ()


class FlakyStub:
    """A stub whose MakeMove fails `failures` times before answering, recording every request."""

    def __init__(self, failures: int):
        self.failures = failures
        self.requests: list[pb.MakeMoveRequest] = []

    def MakeMove(self, request, metadata=None, timeout=None):  # noqa: N802 - the stub's method name
        self.requests.append(request)
        if len(self.requests) <= self.failures:
            raise Unavailable()
        return pb.MakeMoveResponse(version=request.expected_version + 1)


def test_move_retries_unavailable_with_the_same_request_id():
    client = sdk.Client(grpc.insecure_channel("127.0.0.1:1"), retry=sdk.RetryPolicy(attempts=4, first_delay=0.01))
    client.stub = FlakyStub(failures=2)
    reply = client.move("g", "token", "end_turn", expected_version=7)
    assert reply.version == 8
    ids = {r.request_id for r in client.stub.requests}
    assert len(client.stub.requests) == 3 and len(ids) == 1 and ids != {""}, "one uuid4 for every attempt"

    client.stub = FlakyStub(failures=10)
    with pytest.raises(sdk.Unavailable):
        client.move("g", "token", "end_turn", expected_version=7)
    assert len(client.stub.requests) == 4
    client.close()


def test_suggest_returns_the_best_move_and_every_candidate(stack):
    with connect(stack.target) as client:
        game = client.create_game("naishi", [Seat.human("Ann"), Seat.ai("easy")], start=True)
        ann = game.player(0)
        state = ann.state()
        # An iteration budget, not a strength: a strength's hint stops on the clock (0.6 s), which on a loaded
        # machine may leave the search too few iterations to reach every seat's moves.
        suggestion = ann.suggest(iterations=200)
        legal = {m.id for m in state.legal_moves}
        assert suggestion.best_move_id in legal
        assert {c.move_id for c in suggestion.candidates} <= legal
        # game_service.proto: both 0..1
        assert all(0 <= c.mean_reward <= 1 and 0 <= c.win_rate <= 1 for c in suggestion.candidates)
        visits = [c.visits for c in suggestion.candidates]
        assert visits == sorted(visits, reverse=True)  # most visited first
        if len(legal) == 1:  # two alike cards to give: one move, nothing to search (game_service.proto)
            assert [(c.move_id, c.visits) for c in suggestion.candidates] == [(suggestion.best_move_id, 0)]
        else:
            assert sum(c.visits for c in suggestion.candidates) > 0


@pytest.mark.integration  # it starts processes
def test_the_sdk_imports_only_the_protos_and_grpc():
    """ARCHITECTURE.md: clients/ imports the generated protos (tabletop.v1) and grpc. The SDK needs nothing else;
    the terminal also finds each game's renderer through the game registry (pure rules, no service, AI or Redis);
    the launcher is loaded only when a command starts its own stack."""
    import subprocess
    import sys

    def loaded(modules: str, families: tuple[str, ...]) -> str:
        code = (f"import sys, {modules}\n"
                f"print(sorted(m for m in sys.modules if m.split('.')[0] in {families!r} "
                "or m == 'tabletop.stack.launcher'))")
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert loaded("tabletop.client", ("games", "service", "ai", "redis")) == "[]"
    assert loaded("tabletop.client, clients.render, clients.terminal, clients.demo", ("service", "ai", "redis")) == "[]"


def test_a_players_live_score_is_scored_from_its_own_view(client):
    """Player.score() sends the seat's token: a Naishi seat knows its own Hand's order, so its own territory's live
    total is exact (a spectator's estimate shuffles the hidden Hand)."""
    from games.naishi.scoring import score_territory
    from tabletop.v1 import naishi_pb2

    game = two_humans(client)
    players = [game.player(0), game.player(1)]
    for player in players:  # the gifts: both seats choose at once
        player.move(player.state().legal_moves[0].id)
    checked = 0
    for _ in range(12):
        state = client.state(game.game_id)
        if state.status == pb.GAME_STATUS_FINISHED:
            break
        seat = state.to_act[0]
        mine = players[seat].state()
        view = naishi_pb2.NaishiView()
        assert mine.view.Unpack(view)
        own = view.territories[seat]
        exact = score_territory(tuple(c - 1 for c in own.line), tuple(c - 1 for c in own.hand)).total
        assert players[seat].score().seats[seat].total == exact
        checked += 1
        players[seat].move(next(m.id for m in mine.legal_moves if m.id != "declare_end"))
    assert checked >= 6


@pytest.mark.integration  # it starts processes
def test_a_command_with_nothing_at_its_target_gives_up_after_4_seconds_naming_it():
    """It waits 4 s for the service (said in the message), then fails: it never hangs. (How long the whole command
    takes is not asserted: Python's start-up on a loaded machine is no part of the promise.)"""
    import subprocess
    import sys

    for command in (["watch", "nosuchgame"], ["demo", "hinode"], ["play", "hinode"]):
        done = subprocess.run([sys.executable, "-m", "commands.cli", *command, "--target", "127.0.0.1:1"],
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert done.returncode != 0 and "no game service answers at 127.0.0.1:1 (waited 4 s" in done.stderr, \
            done.stderr
