"""History and replays (issue 27 item 3, service/history.py): finished games read back from the PostgreSQL archive.
Real Redis and real PostgreSQL, both started by the tests; games archived by the real writer, as test_archive.py
does."""

from __future__ import annotations

import grpc
from google.protobuf import json_format, struct_pb2

from tabletop.stack.embedded_redis import free_port
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import HUMAN, OPEN, ServerThread, service_config
from tests.service.test_archive import in_process_writer
from tests.service.test_errors import C, fails
from tests.service.test_identity import AUDIENCE, ISSUER, SECRET, mint

SHARDS = 2


def bearer(token: str | None) -> list[tuple[str, str]]:
    return [("authorization", f"Bearer {token}")] if token else []


def alice() -> str:
    return mint("alice", name="Alice")


def bob() -> str:
    return mint("bob", name="Bob")


def carol() -> str:
    return mint("carol", name="Carol")


def identity_config(redis_url: str, **changes):
    return service_config(redis_url, ai_job_shards=SHARDS, jwt_secret=SECRET, jwt_issuer=ISSUER,
                          jwt_audience=AUDIENCE, **changes)


def play_to_the_end(stub, visibility=pb.VISIBILITY_PRIVATE) -> tuple[str, dict[int, str], list[tuple[int, str]]]:
    """Alice creates a toy game, Bob joins it with his identity, they play it to its end with their identities;
    its id, the seat tokens, and each move (seat, move id) in order."""
    created = stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)], visibility=visibility),
        metadata=bearer(alice()), timeout=10)
    game_id = created.game_id
    joined = stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(bob()), timeout=10)
    tokens = {0: created.seat_tokens[0].token, 1: joined.token}
    players = {0: alice, 1: bob}
    state = stub.StartGame(pb.StartGameRequest(game_id=game_id), metadata=bearer(alice()), timeout=10).state
    moves = []
    while state.status != pb.GAME_STATUS_FINISHED:
        seat = state.to_act[0]
        mine = stub.GetState(pb.GetStateRequest(game_id=game_id), metadata=bearer(players[seat]()), timeout=10).state
        move_id = mine.legal_moves[-1].id
        moves.append((seat, move_id))
        state = stub.MakeMove(pb.MakeMoveRequest(game_id=game_id, move_id=move_id),
                              metadata=bearer(players[seat]()), timeout=10).state
    return game_id, tokens, moves


def archive_all(redis_url: str, database_url: str) -> None:
    writer, client, pool = in_process_writer(redis_url, database_url)
    try:
        while writer.step(block=False):
            pass
    finally:
        pool.close()
        client.close()


def view_of(packed) -> dict:
    value = struct_pb2.Struct()
    assert packed.Unpack(value)
    return json_format.MessageToDict(value)


def test_a_finished_game_is_listed_for_both_players_and_replays_with_every_hidden_card(archive_stub, redis_db_url,
                                                                                        database_url):
    stub = archive_stub
    game_id, tokens, moves = play_to_the_end(stub)
    # Ended, not archived yet: said so, not "not found".
    fails(C.FAILED_PRECONDITION, "GAME_NOT_ARCHIVED", stub.GetReplay, pb.GetReplayRequest(game_id=game_id),
          metadata=bearer(alice()))
    archive_all(redis_db_url, database_url)

    for who, seat in ((alice, 0), (bob, 1)):
        page = stub.ListFinishedGames(pb.ListFinishedGamesRequest(), metadata=bearer(who()), timeout=10)
        assert [g.game_id for g in page.games] == [game_id] and page.next_page_token == ""
        game = page.games[0]
        assert list(game.player_seats) == [seat] and game.visibility == pb.VISIBILITY_PRIVATE
        assert [s.name for s in game.seats] == ["Alice", "Bob"] and game.game_type == "toy"
        assert sorted(s.place for s in game.seats) in ([1, 2], [1, 1]) and game.ended_unix_ms >= game.created_unix_ms
    # Another player sees none of Alice's games: this one was private.
    assert not stub.ListFinishedGames(pb.ListFinishedGamesRequest(player_id="alice"), metadata=bearer(carol()),
                                      timeout=10).games

    replay = stub.GetReplay(pb.GetReplayRequest(game_id=game_id), metadata=bearer(bob()), timeout=10)
    steps = replay.steps
    assert [s.event.version for s in steps] == list(range(1, replay.game.final_version + 1))
    assert steps[-1].status == pb.GAME_STATUS_FINISHED and steps[-1].event.game_over
    played = [(s.event.seat, s.event.move_id) for s in steps if s.event.kind == pb.GameEvent.KIND_MOVE]
    assert played == moves  # every move revealed, the secret commits included
    assert all(s.event.move_label for s in steps if s.event.kind == pb.GameEvent.KIND_MOVE)
    started = next(i for i, s in enumerate(steps) if s.event.kind == pb.GameEvent.KIND_STARTED)
    assert all(not s.seat_views for s in steps[:started])
    hands = [view_of(v)["hand"] for v in steps[started].seat_views]
    assert len(hands) == 2 and all(len(h) == 3 for h in hands)  # both hands, each shown from the start
    first = moves[0]
    assert first[1] == f"card:{int(hands[first[0]][-1])}"  # the card played was in that hand
    assert {s.seat: s.total for s in replay.score.seats} == {s.seat: s.total for s in replay.game.seats}
    assert replay.score.final and list(replay.score.ranking) == list(replay.game.ranking)

    # A private game: not to another signed-in player, nor a spectator; to a seat token while Redis keeps it.
    fails(C.PERMISSION_DENIED, "PRIVATE_REPLAY", stub.GetReplay, pb.GetReplayRequest(game_id=game_id),
          metadata=bearer(carol()))
    fails(C.PERMISSION_DENIED, "PRIVATE_REPLAY", stub.GetReplay, pb.GetReplayRequest(game_id=game_id))
    by_token = stub.GetReplay(pb.GetReplayRequest(game_id=game_id), metadata=bearer(tokens[0]), timeout=10)
    assert by_token == replay


def test_public_games_are_listed_and_replayed_for_anyone_and_pages_neither_skip_nor_repeat(archive_stub, redis_db_url,
                                                                                          database_url):
    stub = archive_stub
    public = [play_to_the_end(stub, pb.VISIBILITY_PUBLIC)[0] for _ in range(3)]
    private = play_to_the_end(stub)[0]
    archive_all(redis_db_url, database_url)

    seen, token = [], ""
    while True:
        page = stub.ListFinishedGames(pb.ListFinishedGamesRequest(page_size=2, page_token=token),
                                      metadata=bearer(alice()), timeout=10)
        assert len(page.games) <= 2
        seen += [g.game_id for g in page.games]
        token = page.next_page_token
        if not token:
            break
    assert sorted(seen) == sorted([*public, private]) and len(seen) == 4
    ended = [g.ended_unix_ms for g in stub.ListFinishedGames(pb.ListFinishedGamesRequest(),
                                                              metadata=bearer(alice()), timeout=10).games]
    assert ended == sorted(ended, reverse=True)  # newest first

    # Anyone (a spectator, no identity) may list Bob's public games and replay one.
    others = stub.ListFinishedGames(pb.ListFinishedGamesRequest(player_id="bob", page_size=100), timeout=10)
    assert sorted(g.game_id for g in others.games) == sorted(public)
    assert all(list(g.player_seats) == [1] for g in others.games)
    assert stub.GetReplay(pb.GetReplayRequest(game_id=public[0]), timeout=10).steps
    # The type filter.
    assert not stub.ListFinishedGames(pb.ListFinishedGamesRequest(game_type="naishi"), metadata=bearer(alice()),
                                      timeout=10).games

    # Bad requests: INVALID_ARGUMENT with a reason.
    first = stub.ListFinishedGames(pb.ListFinishedGamesRequest(page_size=1), metadata=bearer(alice()), timeout=10)
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", stub.ListFinishedGames,
          pb.ListFinishedGamesRequest(page_token="garbage"), metadata=bearer(alice()))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", stub.ListFinishedGames,  # another player's token
          pb.ListFinishedGamesRequest(page_token=first.next_page_token), metadata=bearer(bob()))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", stub.ListFinishedGames,  # another filter
          pb.ListFinishedGamesRequest(page_token=first.next_page_token, game_type="toy"), metadata=bearer(alice()))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_SIZE", stub.ListFinishedGames,
          pb.ListFinishedGamesRequest(page_size=-1), metadata=bearer(alice()))
    fails(C.INVALID_ARGUMENT, "INVALID_PLAYER_ID", stub.ListFinishedGames, pb.ListFinishedGamesRequest(player_id="a b"))
    fails(C.UNAUTHENTICATED, "IDENTITY_REQUIRED", stub.ListFinishedGames, pb.ListFinishedGamesRequest())
    unknown = public[0][:-1] + ("y" if public[0].endswith("x") else "x")  # one character off (an id may end in x)
    fails(C.NOT_FOUND, "GAME_NOT_FOUND", stub.GetReplay, pb.GetReplayRequest(game_id=unknown))


def test_without_a_database_the_history_calls_are_unavailable(redis_db_url, toy_game):
    thread = ServerThread(identity_config(redis_db_url)).start()
    channel = grpc.insecure_channel(thread.target)
    stub = game_service_pb2_grpc.GameServiceStub(channel)
    try:
        fails(C.UNAVAILABLE, "DATABASE_NOT_CONFIGURED", stub.ListFinishedGames, pb.ListFinishedGamesRequest(),
              metadata=bearer(alice()))
        game_id = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2),
                                  timeout=10).game_id
        fails(C.UNAVAILABLE, "DATABASE_NOT_CONFIGURED", stub.GetReplay, pb.GetReplayRequest(game_id=game_id))
    finally:
        channel.close()
        thread.stop()


def test_a_database_that_is_down_or_not_migrated_is_unavailable_with_its_reason(redis_db_url, database_url, toy_game):
    """Live play never needs the database; the history calls say what is wrong with it."""
    closed = f"postgresql://nobody@127.0.0.1:{free_port()}/none"  # a port nothing listens on
    for url, reason in ((database_url, "DATABASE_NOT_MIGRATED"), (closed, "DATABASE_UNAVAILABLE")):
        thread = ServerThread(identity_config(redis_db_url, database_url=url)).start()
        channel = grpc.insecure_channel(thread.target)
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        try:
            fails(C.UNAVAILABLE, reason, stub.ListFinishedGames, pb.ListFinishedGamesRequest(player_id="alice"))
            fails(C.UNAVAILABLE, reason, stub.GetReplay, pb.GetReplayRequest(game_id="g1"))
            created = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN)] * 2,
                                                           start=True), timeout=10)
            assert created.state.status == pb.GAME_STATUS_IN_PROGRESS
        finally:
            channel.close()
            thread.stop()
