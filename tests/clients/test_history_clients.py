"""History and replays through the SDK (`Client.history`, `Client.replay`) and the terminal (`tabletop history`,
`tabletop replay GAME_ID`), against a real service with a real Redis and PostgreSQL that the tests start, and the
real archive writer."""

from __future__ import annotations

import re

import pytest

from tabletop.client import PermissionDenied, Unauthenticated, Unavailable, connect
from tabletop.v1 import game_service_pb2 as pb
from tests.clients.conftest import REPO, client_env, tabletop
from tests.clients.conftest import run_tabletop as run
from tests.clients.pty_driver import Terminal
from tests.service.conftest import ServerThread, archive_service, archive_stub, toy_game  # noqa: F401 - fixtures
from tests.service.test_history import alice, archive_all, bob, carol, identity_config, play_to_the_end


@pytest.fixture
def archived_game(archive_service, archive_stub, redis_db_url, database_url):  # noqa: F811 - imported above
    """A service with a database, and one private game Alice and Bob played to its end, archived."""
    game_id, tokens, moves = play_to_the_end(archive_stub)
    archive_all(redis_db_url, database_url)
    return archive_service.target, game_id, tokens, moves


def test_the_sdk_lists_a_players_history_and_replays_a_game(archived_game):
    target, game_id, tokens, moves = archived_game
    with connect(target, identity=alice) as client:
        games = list(client.history(page_size=1))
        assert [g.game_id for g in games] == [game_id] and list(games[0].player_seats) == [0]
        replay = client.replay(game_id)
        played = [(s.event.seat, s.event.move_id) for s in replay.steps if s.event.kind == pb.GameEvent.KIND_MOVE]
        assert played == moves and replay.score.final
    with connect(target, identity=carol()) as stranger:
        assert list(stranger.history(player_id="alice")) == []  # the game was private
        with pytest.raises(PermissionDenied) as caught:
            stranger.replay(game_id)
        assert caught.value.reason == "PRIVATE_REPLAY"
        assert stranger.replay(game_id, token=tokens[1]).steps  # Bob's seat token opens it
    with connect(target) as anonymous, pytest.raises(Unauthenticated):
        list(anonymous.history())


def test_the_sdk_says_when_the_service_keeps_no_history(redis_db_url, toy_game):  # noqa: F811
    thread = ServerThread(identity_config(redis_db_url)).start()
    try:
        with connect(thread.target, identity=bob()) as client:
            client.retry = type(client.retry)(attempts=1)
            with pytest.raises(Unavailable) as caught:
                client.list_finished_games()
            assert caught.value.reason == "DATABASE_NOT_CONFIGURED"
    finally:
        thread.stop()


@pytest.mark.integration  # it starts processes
def test_tabletop_history_and_replay_print_the_games_and_every_hidden_move(archived_game):
    target, game_id, tokens, moves = archived_game
    listed = run("history", "--target", target, "--token", bob())
    assert listed.returncode == 0, listed.stderr
    assert game_id in listed.stdout and "*Bob" in listed.stdout and "private" in listed.stdout
    # Not a terminal: the whole game at once, nothing asked.
    shown = run("replay", game_id, "--target", target, "--token", bob())
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "Enter" not in out and f"Replay of {game_id}" in out
    for seat, move_id in moves:  # every secret commit, told with its card
        name = ("Alice", "Bob")[seat]
        assert f"{name} commits {move_id.split(':')[1]}" in out, (move_id, out)
    assert "as Alice saw it" in out and "as Bob saw it" in out
    refused = run("replay", game_id, "--target", target, "--token", carol())
    assert refused.returncode == 1 and "private" in refused.stderr
    nothing = run("history", "--target", target, "--player", "alice")
    assert nothing.returncode == 0 and "No finished games" in nothing.stdout


def events(shown: str) -> list[int]:
    """The versions of the event lines a replay printed ("  v2 Bob joined"), not any "v2" inside a game id."""
    return [int(v) for v in re.findall(r"^\s*v(\d+) ", shown, re.M)]


@pytest.mark.integration  # it starts processes
def test_tabletop_replay_on_a_terminal_steps_one_event_at_a_time(archived_game):
    target, game_id, tokens, moves = archived_game
    term = Terminal(tabletop("replay", game_id, "--target", target, "--token", alice(), "--no-board"),
                    client_env(), cwd=REPO)
    _, shown = term.expect(r"Enter: next event")
    assert "v1 the game was created" in shown and events(shown) == [1], shown  # one event, then it waits
    term.type("")
    _, shown = term.expect(r"Enter: next event")
    assert "v2 Bob joined" in shown and 3 not in events(shown), shown
    term.type("a")  # the rest at once, asking nothing more
    _, rest = term.expect(r"ranking:")
    assert "Enter" not in rest and f"Alice commits {moves[0][1].split(':')[1]}" in rest
    assert term.wait() == 0
    stopped = Terminal(tabletop("replay", game_id, "--target", target, "--token", alice(), "--no-board"),
                       client_env(), cwd=REPO)
    stopped.expect(r"Enter: next event")
    stopped.type("q")
    assert stopped.wait() == 0 and events(stopped.screen) == [1], stopped.screen
