"""Ratings (issue 27 item 4, docs/ratings.md): a rated game updates its players' openskill ratings once, in the
archive writer's transaction. Real Redis and real PostgreSQL, both started by the tests; games played through the
service and archived by the real writer."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import grpc
import psycopg
import pytest
from openskill.models import PlackettLuce

from service.archive import writer as archive_writer
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.service.conftest import AI, HUMAN, OPEN, ServerThread
from tests.service.test_archive import in_process_writer, migrated
from tests.service.test_errors import C, fails
from tests.service.test_history import alice, archive_all, bearer, bob, identity_config


def play(stub, *, rated: bool, decisive: bool) -> str:
    """Alice creates a toy game, Bob joins it with his identity, they play it to its end: with `decisive` Alice
    plays her last move and Bob his first (one of them wins), else both play the same cards (a tie)."""
    created = stub.CreateGame(pb.CreateGameRequest(
        game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)], rated=rated),
        metadata=bearer(alice()), timeout=10)
    stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(bob()), timeout=10)
    players = {0: alice, 1: bob}
    state = stub.StartGame(pb.StartGameRequest(game_id=created.game_id), metadata=bearer(alice()), timeout=10).state
    while state.status != pb.GAME_STATUS_FINISHED:
        seat = state.to_act[0]
        mine = stub.GetState(pb.GetStateRequest(game_id=created.game_id), metadata=bearer(players[seat]()),
                             timeout=10).state
        moves = sorted(mine.legal_moves, key=lambda m: m.id)
        move = moves[0] if decisive and seat == 1 else moves[-1]
        state = stub.MakeMove(pb.MakeMoveRequest(game_id=created.game_id, move_id=move.id),
                              metadata=bearer(players[seat]()), timeout=10).state
    return created.game_id


def ratings(database_url: str) -> dict[str, tuple[float, float, int]]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT player_key, mu, sigma, games FROM ratings WHERE game_type = 'toy'").fetchall()
    return {key: (mu, sigma, games) for key, mu, sigma, games in rows}


def same(got: dict, want: dict) -> bool:
    return got.keys() == want.keys() and all(got[k] == pytest.approx(want[k]) for k in want)


def places(database_url: str, game_id: str) -> dict[str, int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT player_id, place FROM game_seats WHERE game_id = %s", (game_id,)).fetchall()
    return dict(rows)


def expected(ranks: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    result = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in result]


def test_a_rated_game_rates_both_players_once_even_when_archived_again(archive_stub, redis_db_url, database_url):
    game_id = play(archive_stub, rated=True, decisive=True)
    assert ratings(database_url) == {}  # not archived yet
    archive_all(redis_db_url, database_url)
    archive_all(redis_db_url, database_url)  # a second writer pass: nothing left to do
    place = places(database_url, game_id)
    assert sorted(place.values()) == [1, 2]
    (w_mu, w_sigma), (l_mu, l_sigma) = expected([1, 2])
    winner, loser = sorted(place, key=place.get)
    got = ratings(database_url)
    assert got[winner] == pytest.approx((w_mu, w_sigma, 1)) and got[loser] == pytest.approx((l_mu, l_sigma, 1))
    assert w_mu > 25 > l_mu

    # The same stream entry delivered again (a writer that died before it acknowledged): the game row exists, so
    # the insert is skipped and the ratings are not touched.
    writer, client, pool = in_process_writer(redis_db_url, database_url)
    try:
        client.xadd(archive_writer.archive_stream(0), {"game": game_id})
        client.xadd(archive_writer.archive_stream(1), {"game": game_id})
        while writer.step(block=False):
            pass
        assert (writer.archived, writer.acknowledged) == (0, 2)  # read again from Redis, not inserted again
    finally:
        pool.close()
        client.close()
    assert ratings(database_url) == got
    with psycopg.connect(database_url) as conn:
        changes = conn.execute("SELECT seat, player_key, place FROM rating_changes WHERE game_id = %s ORDER BY seat",
                               (game_id,)).fetchall()
    assert changes == [(0, "alice", place["alice"]), (1, "bob", place["bob"])]


def test_an_unrated_game_changes_no_rating(archive_stub, redis_db_url, database_url):
    play(archive_stub, rated=False, decisive=True)
    archive_all(redis_db_url, database_url)
    assert ratings(database_url) == {}
    with psycopg.connect(database_url) as conn:
        assert conn.execute("SELECT count(*) FROM games WHERE NOT rated").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM rating_changes").fetchone()[0] == 0


def test_every_message_that_describes_a_game_says_whether_it_is_rated(archive_stub, redis_db_url, database_url):
    """GameState (GetState, WatchGame, CreateGame's answer), the lobby's GameSummary, MyGame and the archive's
    FinishedGame (ListFinishedGames, GetReplay) carry the game's `rated`, as created."""
    stub = archive_stub
    waiting = {}
    for is_rated in (True, False):
        created = stub.CreateGame(pb.CreateGameRequest(
            game_type="toy", seats=[pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)], rated=is_rated,
            visibility=pb.VISIBILITY_PUBLIC), metadata=bearer(alice()), timeout=10)
        assert created.state.rated is is_rated
        waiting[created.game_id] = is_rated
    for game_id, is_rated in waiting.items():
        state = stub.GetState(pb.GetStateRequest(game_id=game_id), timeout=10).state
        assert state.rated is is_rated
        watch = stub.WatchGame(pb.WatchGameRequest(game_id=game_id), metadata=bearer(alice()), timeout=10)
        try:
            first = next(watch)
        finally:
            watch.cancel()
        assert first.event.kind == pb.GameEvent.KIND_CREATED and first.state.rated is is_rated
    lobby = stub.ListGames(pb.ListGamesRequest(game_type="toy"), timeout=10).games
    assert {g.game_id: g.rated for g in lobby} == waiting
    mine = stub.ListMyGames(pb.ListMyGamesRequest(), metadata=bearer(alice()), timeout=10).games
    assert {g.game_id: g.rated for g in mine} == waiting

    finished = {play(stub, rated=is_rated, decisive=True): is_rated for is_rated in (True, False)}
    archive_all(redis_db_url, database_url)
    listed = stub.ListFinishedGames(pb.ListFinishedGamesRequest(), metadata=bearer(bob()), timeout=10).games
    assert {g.game_id: g.rated for g in listed} == finished
    for game_id, is_rated in finished.items():
        replay = stub.GetReplay(pb.GetReplayRequest(game_id=game_id), metadata=bearer(bob()), timeout=10)
        assert replay.game.rated is is_rated


def archived(game_id: str, places: dict[str | tuple[str, str], int]) -> archive_writer.ArchivedGame:
    """A finished rated toy game as the writer reads it from Redis: a seat per key of `places` (a player id, or
    ("ai", strength)), with its place."""
    seats = []
    for n, (who, place) in enumerate(places.items()):
        ai = isinstance(who, tuple)
        seats.append({"game_id": game_id, "seat": n, "kind": "ai" if ai else "human", "name": f"S{n}",
                      "player_id": None if ai else who, "ai_strength": who[1] if ai else None, "final_state": "",
                      "total": 0, "place": place})
    now = datetime.now(UTC)
    row = {"game_id": game_id, "game_type": "toy", "options": "{}", "visibility": "private", "rated": True,
           "outcome": "finished", "resigned": [], "decided_by": "", "ranking": "[[0]]", "score": "{}",
           "final_version": 9, "created_at": now, "started_at": now, "ended_at": now}
    return archive_writer.ArchivedGame(row, seats, b"x")


def test_a_tie_moves_neither_mean(database_url):
    """Seats that share a place tie (openskill's equal ranks): equal players who tie keep their mean."""
    migrated(database_url)
    with psycopg.connect(database_url) as conn:
        assert archive_writer.store_games(conn, [archived("g1", {"alice": 1, "bob": 1})]) == 1
    got = ratings(database_url)
    (mu, sigma), _ = expected([1, 1])
    assert got["alice"] == pytest.approx((mu, sigma, 1)) == got["bob"]
    assert mu == pytest.approx(25) and sigma < 25 / 3  # no one won; still, both are known better


def test_ai_seats_are_rated_as_their_strength(database_url):
    """An AI seat's player on the ladder is `ai:<strength>`; two seats of one strength get their mean."""
    migrated(database_url)
    game = archived("g1", {"alice": 2, ("ai", "hard"): 1, ("ai", "easy"): 3})
    game.seats.append({**game.seats[2], "seat": 3, "name": "S3"})  # a second easy AI, tied with the first
    with psycopg.connect(database_url) as conn:
        assert archive_writer.store_games(conn, [game]) == 1
        assert archive_writer.store_games(conn, [game]) == 0  # again: not rated again
    got = ratings(database_url)
    want = expected([2, 1, 3, 3])
    assert set(got) == {"alice", "ai:hard", "ai:easy"}
    assert got["alice"] == pytest.approx((*want[0], 1))
    assert got["ai:hard"] == pytest.approx((*want[1], 1))
    assert got["ai:easy"] == pytest.approx((*want[2], 1))  # seats 2 and 3 tied: the same result, counted once


def test_later_games_start_from_the_stored_rating(database_url):
    migrated(database_url)
    with psycopg.connect(database_url) as conn:
        archive_writer.store_games(conn, [archived("g1", {"alice": 1, "bob": 2}),
                                          archived("g2", {"alice": 1, "bob": 2})])
    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    for _ in range(2):
        [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    got = ratings(database_url)
    assert got["alice"] == pytest.approx((a.mu, a.sigma, 2)) and got["bob"] == pytest.approx((b.mu, b.sigma, 2))


def test_rated_needs_every_human_seat_bound(archive_stub):
    stub = archive_stub
    two_humans = [pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=HUMAN)]
    human_and_open = [pb.SeatSpec(kind=HUMAN), pb.SeatSpec(kind=OPEN)]
    fails(C.INVALID_ARGUMENT, "RATED_NEEDS_IDENTITY", stub.CreateGame,
          pb.CreateGameRequest(game_type="toy", seats=human_and_open, rated=True), timeout=10)
    fails(C.INVALID_ARGUMENT, "RATED_NEEDS_IDENTITY", stub.CreateGame,
          pb.CreateGameRequest(game_type="toy", seats=two_humans, rated=True), metadata=bearer(alice()), timeout=10)
    created = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=human_and_open, rated=True),
                              metadata=bearer(alice()), timeout=10)
    fails(C.INVALID_ARGUMENT, "RATED_NEEDS_IDENTITY", stub.JoinGame,
          pb.JoinGameRequest(join_code=created.join_code), timeout=10)
    # Refused, nothing changed: the open seat is still open, and a signed-in player takes it.
    stub.JoinGame(pb.JoinGameRequest(join_code=created.join_code), metadata=bearer(bob()), timeout=10)
    unrated = stub.CreateGame(pb.CreateGameRequest(game_type="toy", seats=[pb.SeatSpec(kind=HUMAN),
                                                                             pb.SeatSpec(kind=AI)]), timeout=10)
    assert unrated.game_id


def test_get_ratings_and_a_paged_leaderboard_with_the_ai_strengths_marked(archive_stub, database_url):
    stub = archive_stub
    with psycopg.connect(database_url) as conn:
        games = [archived(f"g{n}", {"alice": 1, ("ai", "hard"): 2, "bob": 3, ("ai", "easy"): 4, "carol": 4})
                 for n in range(3)]
        games.append(archived("g9", {"dave": 1, "erin": 2}))
        assert archive_writer.store_games(conn, games) == 4
        conn.execute("INSERT INTO ratings (player_key, game_type, mu, sigma) VALUES ('alice', 'hinode', 30, 5)")
        conn.commit()
        want = [row[0] for row in conn.execute(
            "SELECT player_key FROM ratings WHERE game_type = 'toy' ORDER BY mu - 3 * sigma DESC, player_key")]
    assert len(want) == 7 and want[0] == "alice"

    mine = stub.GetRatings(pb.GetRatingsRequest(), metadata=bearer(alice()), timeout=10).ratings
    assert [(r.game_type, r.games, r.ai) for r in mine] == [("hinode", 0, False), ("toy", 3, False)]
    assert mine[0].ordinal == pytest.approx(30 - 15)
    assert mine[1].ordinal == pytest.approx(mine[1].mu - 3 * mine[1].sigma)
    hard = stub.GetRatings(pb.GetRatingsRequest(player_id="ai:hard"), timeout=10).ratings
    assert [(r.player_id, r.ai, r.ai_strength, r.games) for r in hard] == [("ai:hard", True, "hard", 3)]
    assert list(stub.GetRatings(pb.GetRatingsRequest(player_id="nobody"), timeout=10).ratings) == []

    seen, token, pages = [], "", 0
    while True:
        page = stub.GetLeaderboard(pb.GetLeaderboardRequest(game_type="toy", page_size=3, page_token=token),
                                   timeout=10)
        seen += list(page.ratings)
        pages += 1
        token = page.next_page_token
        if not token:
            break
    assert pages == 3 and [r.player_id for r in seen] == want
    assert [r.rank for r in seen] == list(range(1, 8))
    assert {r.player_id for r in seen if r.ai} == {"ai:hard", "ai:easy"}
    assert all(r.ai_strength == r.player_id[3:] for r in seen if r.ai)
    whole = stub.GetLeaderboard(pb.GetLeaderboardRequest(game_type="toy"), timeout=10)
    assert [r.player_id for r in whole.ratings] == want and not whole.next_page_token

    # Bad inputs: refused with a reason.
    first = stub.GetLeaderboard(pb.GetLeaderboardRequest(game_type="toy", page_size=2), timeout=10)
    fails(C.INVALID_ARGUMENT, "GAME_TYPE_REQUIRED", stub.GetLeaderboard, pb.GetLeaderboardRequest())
    fails(C.INVALID_ARGUMENT, "UNKNOWN_GAME_TYPE", stub.GetLeaderboard, pb.GetLeaderboardRequest(game_type="nope"))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_SIZE", stub.GetLeaderboard,
          pb.GetLeaderboardRequest(game_type="toy", page_size=-1))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", stub.GetLeaderboard,
          pb.GetLeaderboardRequest(game_type="toy", page_token="AAAA"))
    fails(C.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN", stub.GetLeaderboard,
          pb.GetLeaderboardRequest(game_type="hinode", page_token=first.next_page_token))
    fails(C.INVALID_ARGUMENT, "INVALID_PLAYER_ID", stub.GetRatings, pb.GetRatingsRequest(player_id="a b"))
    fails(C.UNAUTHENTICATED, "IDENTITY_REQUIRED", stub.GetRatings, pb.GetRatingsRequest())


def test_without_a_database_the_rating_calls_are_unavailable(redis_db_url, toy_game):
    thread = ServerThread(identity_config(redis_db_url)).start()
    channel = grpc.insecure_channel(thread.target)
    stub = game_service_pb2_grpc.GameServiceStub(channel)
    try:
        fails(C.UNAVAILABLE, "DATABASE_NOT_CONFIGURED", stub.GetRatings, pb.GetRatingsRequest(player_id="alice"))
        fails(C.UNAVAILABLE, "DATABASE_NOT_CONFIGURED", stub.GetLeaderboard, pb.GetLeaderboardRequest(game_type="toy"))
    finally:
        channel.close()
        thread.stop()


@pytest.mark.integration  # binds a socket (a port no server holds)
def test_seeding_from_a_database_that_is_not_there_says_so(tmp_path, capsys):
    from bench import seed_ratings
    from tabletop.stack.embedded import free_port

    path = tmp_path / "arena.jsonl"
    path.write_text(json.dumps({"game": "toy", "seats": ["ismcts:easy", "ismcts:normal"], "totals": [1, 2],
                                "winners": [1]}) + "\n")
    for url in (f"postgresql://tabletop@127.0.0.1:{free_port()}/tabletop", "nonsense://"):
        assert seed_ratings.main([str(path), "--database-url", url]) == 2
        err = capsys.readouterr().err
        assert err.startswith("tabletop seed-ratings: the database at --database-url: ") and "Traceback" not in err


def test_the_ai_strengths_are_seeded_from_arena_records_once(database_url, tmp_path, capsys):
    from bench import seed_ratings

    assert [seed_ratings.strength_of(s) for s in ("ismcts:easy", "ismcts:5000", "ismcts:16000", "ismcts:999",
                                                  "ismcts:2s", "greedy", "cheat:2500", "ismcts-ucb:250")] == [
        "easy", "normal", "hard", None, None, None, None, None]
    records = [  # easy beats normal once, normal beats easy twice; greedy is no strength: left out
        {"game": "toy", "seats": ["ismcts:easy", "ismcts:5000"], "totals": [5, 3], "winners": [0]},
        {"game": "toy", "seats": ["ismcts:5000", "ismcts:easy"], "totals": [6, 2], "winners": [0]},
        {"game": "toy", "seats": ["greedy", "ismcts:easy", "ismcts:normal"], "totals": [9, 1, 4], "winners": [0]},
        {"game": "toy", "seats": ["ismcts:easy", "ismcts:easy"], "totals": [1, 4], "winners": [1]},  # self-play
        {"game": "toy", "seats": ["ismcts:easy", "greedy"], "totals": [1, 4], "winners": [1]},  # one strength
    ]
    path = tmp_path / "arena.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    model = PlackettLuce()
    easy, normal = model.rating(), model.rating()
    for ranks in ([1, 2], [2, 1], [3, 2]):  # (easy, normal) places; in game 3 greedy won: places 3 and 2
        [[easy], [normal]] = model.rate([[easy], [normal]], ranks=ranks)
    migrated(database_url)
    assert seed_ratings.main([str(path), "--database-url", database_url, "--dry-run"]) == 0
    assert ratings(database_url) == {}
    assert seed_ratings.main([str(path), "--database-url", database_url]) == 0
    assert "ai:normal" in capsys.readouterr().out
    want = {"ai:easy": (easy.mu, easy.sigma, 3), "ai:normal": (normal.mu, normal.sigma, 3)}
    assert same(ratings(database_url), want)
    assert seed_ratings.main([str(path), "--database-url", database_url]) == 0  # the same file: seeded once
    assert same(ratings(database_url), want)
    path.write_text("not json\n")
    assert seed_ratings.main([str(path), "--database-url", database_url]) == 2  # refused, nothing written
    assert same(ratings(database_url), want)
