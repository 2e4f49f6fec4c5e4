"""Signed-in players at the web table (issue 27), in a real headless Chromium against a local stack with an archive
(PostgreSQL and the archive writer) and the development identity `tabletop run` gives its service
(tabletop/stack/dev_identity.py): two players signed in (a sign-in link, the sign-in box) play a rated Naishi game to
its end; it shows in both players' finished games, replays move by move with every hand shown and the secret moves
told, and moves both ratings, which the ratings page, the lobby and the leaderboard show. An anonymous game played
meanwhile is archived, unrated (clients/web/tests/signed_in_players.mjs)."""

from __future__ import annotations

import json
import os
import subprocess
import time

import grpc
import pytest

from tabletop.stack import dev_identity
from tabletop.stack.launcher import WEB_DIST
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.frontends.test_frontends import CHROMIUM, SCREENSHOTS, WEB, WebStack, browser_or_skip

GAME = "naishi"


@pytest.fixture
def players_stack(tmp_path, database_url):
    from tabletop.stack.embedded_redis import free_port

    browser_or_skip()
    identity = dev_identity.for_run(tmp_path / "dev-identity.json", {}, None)  # as `tabletop run` makes it
    with WebStack(data_dir=tmp_path / "redis", gateway_port=free_port(), static_dir=WEB_DIST,
                  database_url=database_url, identity_env=identity.env()) as running:
        running.identity = identity
        yield running


def archived(database_url: str, game_id: str) -> tuple[bool, int]:
    """(rated, rating changes) of an archived game, waiting for the archive writer to store it."""
    import psycopg

    deadline = time.monotonic() + 120
    with psycopg.connect(database_url) as conn:
        while True:
            row = conn.execute("SELECT rated FROM games WHERE game_id = %s", (game_id,)).fetchone()
            if row is not None:
                changes = conn.execute("SELECT count(*) FROM rating_changes WHERE game_id = %s", (game_id,)).fetchone()
                return row[0], changes[0]
            assert time.monotonic() < deadline, f"game {game_id} was never archived"
            time.sleep(0.2)
            conn.rollback()


def test_two_signed_in_players_play_a_rated_game_then_find_replay_and_see_it_rated(players_stack):
    stack = players_stack
    tokens = {"ann": stack.identity.mint("ann", "Ann"), "bo": stack.identity.mint("bo", "Bo")}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    forged = dev_identity.DevIdentity("another-secret-" * 4, stack.identity.issuer, stack.identity.audience,
                                      "a forger").mint("bo", "Bo")
    ran = subprocess.run(["node", "tests/signed_in_players.mjs", stack.gateway_url + "/", tokens["ann"], tokens["bo"],
                          forged, "--game", GAME], cwd=WEB, capture_output=True, text=True, timeout=900,
                         env={**os.environ, "CHROMIUM": CHROMIUM, "SCREENSHOTS": str(SCREENSHOTS)})
    assert ran.returncode == 0, ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert not result["pageErrors"], result["pageErrors"]
    # Signed in: by the link (which left the address) and by the box; the anonymous page is offered a sign-in and
    # cannot ask for a rated game.
    assert (result["annSignedIn"], result["boSignedIn"]) == ("ann", "bo") and not result["tokenLeftInAddress"]
    assert result["anonymousSignInOffered"] and result["anonymousRatedDisabled"]
    assert "INVALID_IDENTITY_SIGNATURE" in result["forgedMessage"] and not result["forgedSignedIn"]
    assert "(rated)" in result["lobbyBefore"] and "(unrated)" in result["lobbyBefore"], result["lobbyBefore"]
    assert result["finished"]["status"] == "FINISHED" and result["moves"]["ann"] > 0 and result["moves"]["bo"] > 0

    game_id = result["gameId"]
    with grpc.insecure_channel(stack.target) as channel:
        stub = game_service_pb2_grpc.GameServiceStub(channel)
        for name, token in tokens.items():  # in both players' histories
            mine = stub.ListFinishedGames(pb.ListFinishedGamesRequest(),
                                          metadata=[("authorization", f"Bearer {token}")])
            assert game_id in [g.game_id for g in mine.games]
            assert "you placed" in result["finished"][name]
        replay = stub.GetReplay(pb.GetReplayRequest(game_id=game_id))
        ratings = {name: [r for r in stub.GetRatings(pb.GetRatingsRequest(player_id=name)).ratings
                          if r.game_type == GAME] for name in tokens}

    # Replayed move by move: every step, by the buttons and the keys, each event told (the secret gifts too).
    steps = len(replay.steps)
    shown = result["replay"]
    assert (shown["first"], shown["second"]) == (f"Step 1 of {steps}", f"Step 2 of {steps}")
    assert (shown["last"], shown["beforeLast"]) == (f"Step {steps} of {steps}", f"Step {steps - 1} of {steps}")
    assert len(shown["events"]) == steps and all(shown["events"])
    told = {i: step.event.move_label for i, step in enumerate(replay.steps) if step.event.move_label}
    assert {i: shown["events"][i] for i in told} == told
    gifts = [label for label in shown["events"] if "give" in label.lower()]
    assert len(gifts) == 2, shown["events"][:8]  # both secret gifts (each hidden from the other seat live) told
    assert shown["finalScoreShown"]
    # Mid-game, each seat's view is drawn by Naishi's own board with that seat's whole hand face up.
    boards = shown["midBoards"]
    assert [b["seat"] for b in boards] == [0, 1]
    assert all(b["view"] == "tabletop.v1.NaishiView" and not b["generic"] for b in boards)
    assert all(b["ownHand"] and "?" not in b["ownHand"] for b in boards), boards

    # Both ratings moved (one rated game each: every rated game makes the system surer, so sigma falls; from equal
    # priors what one gains the other loses, and a draw, which an unseeded game can be, leaves both means at 25),
    # and the pages show them as the service has them.
    for name in tokens:
        (rating,) = ratings[name]
        assert rating.games == 1 and rating.sigma < 25 / 3
        assert result["ratings"][name] == {"shown": f"{rating.ordinal:.1f}", "games": "1"}
    assert ratings["ann"][0].mu + ratings["bo"][0].mu == pytest.approx(50.0)
    assert result["lobbyRating"] == f" (rating {ratings['ann'][0].ordinal:.1f})"
    assert set(result["leaderboard"]) == {"ann", "bo"}
    assert result["signedOutLinks"] == 0
    # From another device, back at her seat of a live game from My games: no seat token kept there.
    assert "you" in result["elsewhereSeat"] and result["elsewhereStoredSeats"] == 0, result
    assert "Waiting for players" in result["elsewhereStatus"], result

    # The rated game moved the ratings once; the anonymous game is archived all the same, unrated.
    assert archived(stack.database_url, game_id) == (True, 2)
    assert archived(stack.database_url, result["anonymousGameId"]) == (False, 0)
