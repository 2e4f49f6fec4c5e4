"""Ratings through the SDK (`Client.ratings`, `get_leaderboard`, `leaderboard`, `create_game(rated=True)`) and the
terminal (`tabletop ratings [PLAYER]`, `tabletop leaderboard GAME`), against a real service with a real Redis and
PostgreSQL that the tests start, and the real archive writer."""

from __future__ import annotations

import psycopg
import pytest

from clients.ratings import leaderboard_lines, rating_lines
from service.archive import writer as archive_writer
from tabletop.client import InvalidArgument, Seat, Unauthenticated, Unavailable, connect
from tabletop.v1 import game_service_pb2 as pb
from tests.clients.conftest import run_tabletop as run
from tests.service.conftest import ServerThread, archive_service, toy_game  # noqa: F401 - fixtures
from tests.service.test_history import alice, archive_all, bob, identity_config
from tests.service.test_ratings import archived

LONG_ID = "p" * 128  # the longest player id the service takes


@pytest.fixture
def rated_service(archive_service, redis_db_url, database_url):  # noqa: F811 - imported above
    """A service with a database, and one rated game Alice and Bob played to its end through the SDK, archived."""
    play_rated(archive_service.target)
    archive_all(redis_db_url, database_url)
    return archive_service.target


def play_rated(target: str) -> None:
    """Alice creates a rated toy game, Bob joins its open seat, both signed in; each round Alice commits her highest
    card and Bob his lowest, to the end."""
    with connect(target, identity=alice) as ann, connect(target, identity=bob) as bo:
        game = ann.create_game("toy", [Seat.human(), Seat.open()], rated=True)
        assert game.state.rated
        bo.join_game(game.join_code)
        ann.start_game(game.game_id)
        players = {0: ann.resume(game.game_id), 1: bo.resume(game.game_id)}
        state = players[0].state()
        while state.status != pb.GAME_STATUS_FINISHED:
            player = players[state.to_act[0]]
            moves = sorted(player.state().legal_moves, key=lambda m: m.id)
            state = player.move((moves[-1] if player.seat == 0 else moves[0]).id)


def leaderboard_order(database_url: str) -> list[str]:
    with psycopg.connect(database_url) as conn:
        return [row[0] for row in conn.execute(
            "SELECT player_key FROM ratings WHERE game_type = 'toy' ORDER BY ordinal DESC, player_key")]


def test_the_sdk_reads_ratings_and_pages_the_leaderboard(rated_service, database_url):
    target = rated_service
    with connect(target, identity=alice) as me:
        mine = me.ratings()
    assert [(r.player_id, r.game_type, r.games, r.ai) for r in mine] == [("alice", "toy", 1, False)]
    assert mine[0].ordinal == pytest.approx(mine[0].mu - 3 * mine[0].sigma) and mine[0].updated_unix_ms > 0
    with psycopg.connect(database_url) as conn:  # more players: two more people and an AI strength
        archive_writer.store_games(conn, [archived(f"g{n}", {"carol": 1, ("ai", "hard"): 2, "dave": 3})
                                          for n in range(2)])
    want = leaderboard_order(database_url)
    assert len(want) == 5

    with connect(target) as anyone:
        assert [(r.player_id, r.games) for r in anyone.ratings("bob")] == [("bob", 1)]
        hard = anyone.ratings("ai:hard")
        assert [(r.ai, r.ai_strength, r.games) for r in hard] == [(True, "hard", 2)]
        assert anyone.ratings("nobody") == []
        first = anyone.get_leaderboard("toy", page_size=2)
        assert [r.rank for r in first.ratings] == [1, 2] and first.next_page_token
        second = anyone.get_leaderboard("toy", page_size=2, page_token=first.next_page_token)
        assert [r.player_id for r in [*first.ratings, *second.ratings]] == want[:4]
        every = list(anyone.leaderboard("toy", page_size=2))  # three pages
        assert [r.player_id for r in every] == want and [r.rank for r in every] == [1, 2, 3, 4, 5]
        assert [r.player_id for r in every if r.ai] == ["ai:hard"]

        with pytest.raises(Unauthenticated) as caught:
            anyone.ratings()  # one's own ratings need an identity
        assert caught.value.reason == "IDENTITY_REQUIRED"
        with pytest.raises(InvalidArgument) as caught:
            list(anyone.leaderboard("nope"))
        assert caught.value.reason == "UNKNOWN_GAME_TYPE"
        with pytest.raises(InvalidArgument) as caught:
            anyone.get_leaderboard("toy", page_token="AAAA")
        assert caught.value.reason == "INVALID_PAGE_TOKEN"


def test_the_sdk_says_when_the_service_keeps_no_ratings(redis_db_url, toy_game):  # noqa: F811
    thread = ServerThread(identity_config(redis_db_url)).start()
    try:
        with connect(thread.target, identity=alice) as client:
            client.retry = type(client.retry)(attempts=1)
            for call in (client.ratings, lambda: list(client.leaderboard("toy"))):
                with pytest.raises(Unavailable) as caught:
                    call()
                assert caught.value.reason == "DATABASE_NOT_CONFIGURED"
    finally:
        thread.stop()


@pytest.mark.integration  # it starts processes
def test_tabletop_ratings_and_leaderboard_print_tables_that_fit_80_columns(rated_service, database_url):
    target = rated_service
    with psycopg.connect(database_url) as conn:  # at the top: a player with the longest id, and an AI strength
        conn.execute("INSERT INTO ratings (player_key, game_type, mu, sigma) VALUES (%s, 'toy', 40, 1), "
                     "('ai:easy', 'toy', 35, 1)", (LONG_ID,))
    mine = run("ratings", "--target", target, "--token", alice())
    assert mine.returncode == 0, mine.stderr
    assert "Your ratings:" in mine.stdout and "  toy " in mine.stdout and "rating" in mine.stdout
    bobs = run("ratings", "bob", "--target", target)
    assert bobs.returncode == 0 and "Ratings of bob:" in bobs.stdout and "  toy " in bobs.stdout
    nobody = run("ratings", "nobody", "--target", target)
    assert nobody.returncode == 0 and "No ratings for nobody yet" in nobody.stdout
    anonymous = run("ratings", "--target", target)
    assert anonymous.returncode == 1 and "give a PLAYER id" in anonymous.stderr

    board = run("leaderboard", "toy", "--target", target, "--limit", "3")
    assert board.returncode == 0, board.stderr
    rows = board.stdout.splitlines()
    assert rows[0] == "Leaderboard of toy, best first:" and len(rows) == 2 + 3
    assert [row.split()[0] for row in rows[2:]] == ["1", "2", "3"]
    assert LONG_ID[:30] in rows[2] and "…" in rows[2] and "ai:easy (AI)" in rows[3]
    assert all(len(row) <= 80 for row in mine.stdout.splitlines() + rows), board.stdout
    unknown = run("leaderboard", "nope", "--target", target)
    assert unknown.returncode == 1 and "unknown game type 'nope'" in unknown.stderr


def test_the_tables_fit_80_columns_whatever_the_values():
    big = pb.Rating(player_id=LONG_ID, game_type="g" * 64, ordinal=-999.994, mu=999.5, sigma=8.333, games=10**6,
                    updated_unix_ms=1_700_000_000_000, rank=99999)
    ai = pb.Rating(player_id="ai:normal", ai=True, ai_strength="normal", game_type="hinode", rank=3)
    lines = leaderboard_lines([big, ai]) + rating_lines([big, ai])
    assert all(len(line) <= 80 for line in lines), lines
    assert lines[1].endswith("p… -999.99  999.50    8.33 1000000") and "ai:normal (AI)" in lines[2]
    assert "2023-11-14 22:13" in lines[4] and lines[4].startswith("  " + "g" * 19 + "…")
