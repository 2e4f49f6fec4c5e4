"""The web table tells the truth and keeps its player (issue 28, items 4, 5 and 1), in a real headless Chromium
against a local stack of its own (clients/web/tests/table_labels.mjs): seat counts the game takes, refusals in plain
words, an unknown game said so, the live score marked as an estimate, a late spectator's whole log with the secret
moves in it and no moves of its own, a second tab taking its seat back, a copyable join link, the rules and a
legend at hand, places numbered as the moves count them, and every card's effect and values from the game's own
messages. Without Node.js, the build or Chromium it skips, saying what is missing."""

from __future__ import annotations

import json
import os
import subprocess

import grpc
import pytest

from tabletop.stack.launcher import WEB_DIST
from tabletop.v1 import game_service_pb2 as pb
from tabletop.v1 import game_service_pb2_grpc
from tests.frontends.test_frontends import CHROMIUM, WEB, WebStack, browser_or_skip

# A stack, a browser, node: none of it in the fast tier (make test-fast starts no process).
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def table_stack(tmp_path_factory):
    from tabletop.stack.embedded_redis import free_port

    browser_or_skip()
    with WebStack(data_dir=tmp_path_factory.mktemp("table-redis"), gateway_port=free_port(),
                  static_dir=WEB_DIST) as running:
        yield running


def kung_fur_game_ending_by_sp(target: str) -> str:
    """A Kung Fur Fight game of two AIs that starts at 1 SP, so its first lost battle ends it by SP."""
    with grpc.insecure_channel(target) as channel:
        created = game_service_pb2_grpc.GameServiceStub(channel).CreateGame(pb.CreateGameRequest(
            game_type="kung-fur-fight", start=True, seed=7, options_json='{"data": {"start_sp": 1}}',
            seats=[pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy", name="Cat AI"),
                   pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy", name="Dog AI")]))
    return created.game_id


def advanced_hinode_game(target: str) -> str:
    """A Hinode game of two AIs with the advanced rules (the tribe skills)."""
    with grpc.insecure_channel(target) as channel:
        created = game_service_pb2_grpc.GameServiceStub(channel).CreateGame(pb.CreateGameRequest(
            game_type="hinode", start=True, seed=5, options_json='{"advanced": true}',
            seats=[pb.SeatSpec(kind=pb.SEAT_KIND_AI, strength="easy")] * 2))
    return created.game_id


@pytest.fixture(scope="module")
def seen(table_stack) -> dict:
    ran = subprocess.run(["node", "tests/table_labels.mjs", table_stack.gateway_url + "/",
                          kung_fur_game_ending_by_sp(table_stack.target), advanced_hinode_game(table_stack.target)],
                         cwd=WEB, capture_output=True, text=True, timeout=900, env={**os.environ, "CHROMIUM": CHROMIUM})
    assert ran.returncode == 0, ran.stderr[-3000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert not result["pageErrors"], result["pageErrors"]
    return result


def test_the_form_offers_only_the_seat_counts_the_game_takes(seen):
    # Naishi is for 2 players (ListGameTypes' min_seats and max_seats): never "takes 2 to 2 seats, not 4" after
    assert seen["seats"] == {"opponentsAsked3": "1", "opponentsWithOneOpen": "0", "opponentsWithNoneOpen": "1",
                             "range": "Naishi is for 2 players: you and 1 more."}


def test_a_refusal_is_told_in_plain_words_with_its_code_kept_aside(seen):
    refused = seen["joinRefused"]
    assert refused["text"] == "That is not a join code: a join code is the game id, a dot, then a secret."
    assert "InvalidArgument" not in refused["text"]
    assert refused["code"] == "InvalidArgument / MALFORMED_JOIN_CODE"


def test_an_unknown_game_id_says_so(seen):
    assert "No such game" in seen["unknownGame"] and "no-such-game-0" in seen["unknownGame"]


def test_the_live_score_is_marked_as_an_estimate(seen):
    assert seen["liveScore"]["label"] == "Score so far, estimated" and seen["liveScore"]["note"] == 1
    assert seen["liveScore"]["total"].startswith("≈ ")
    # Kung Fur Fight's VP are public (GetScore.estimated is false): its live score is no estimate
    assert seen["kungfur"]["liveScore"] == "Score so far" and seen["kungfur"]["estimateNote"] == 0


def test_a_late_spectator_gets_the_whole_log_with_the_secret_moves_and_no_moves_of_its_own(seen):
    spectator = seen["spectator"]
    # The log from the creation (GetState tells only the last 10 events), as long as the player's
    assert spectator["first"]["v"] == 1 and spectator["first"]["text"] == "The game was created."
    assert spectator["lines"] >= spectator["annLines"] > 10
    # Both gifts, told as secret moves: who, never which card
    assert sorted(spectator["secretLines"]) == [
        "AI 2 chose a card to give (secret until both have chosen)",
        "Player 1 chose a card to give (secret until both have chosen)"], spectator["secretLines"]
    assert seen["annSecretLines"] == ["AI 2 chose a card to give (secret until both have chosen)"]
    assert not spectator["yourMovesShown"] and "You are watching" in spectator["watching"]
    assert spectator["resumeOffered"] == 0  # another browser holds no seat


def test_a_second_tab_of_the_same_browser_takes_its_seat_back(seen):
    tab = seen["secondTab"]
    assert "This browser holds a seat in it" in tab["before"]
    assert tab["yourMovesShown"] and tab["seat"].startswith("Player 1")


def test_the_join_link_is_copied_and_opens_the_join_form_and_the_code_stays_on_one_line(seen):
    share = seen["share"]
    assert share["codeLines"] == 1 and not share["codeWraps"]  # at 390 px wide
    assert share["copied"] == share["link"] and share["link"].endswith("#join=" + share["code"])
    assert share["friendCode"] == share["code"]


def test_the_rules_and_a_legend_are_at_hand_and_places_are_numbered_as_the_moves_count_them(seen):
    assert seen["rules"] == {"summary": "How to play Naishi", "legend": 1, "howTo": 1}
    assert seen["naishiLineNumbers"] == ["1", "2", "3", "4", "5"]
    # Hinode's proxies by position counted from 1, as its moves say "the proxy at position 4"
    positions = seen["hinode"]["positions"]
    assert [p.split(" · ")[0] for p in positions] == ["Position 1", "Position 2", "Position 3", "Position 4"]
    assert "Proxy 3" in positions[2] and "Proxy 4" in positions[3]
    assert "1st: Ann · 2nd: —" in seen["hinode"]["legend"] and "Hero" in seen["hinode"]["legend"]
    # A tribe's skill, in hinode.proto's words, shown where it counts: in the advanced rules, not in the basic game
    assert seen["hinode"]["skillsInBasicGame"] == 0
    assert any(skill.startswith(("With markers on 2 Areas", "Place a marker", "If you end 1st", "Take an unused"))
               for skill in seen["hinode"]["advancedSkills"]), seen["hinode"]["advancedSkills"]


def test_every_card_tells_its_effect_and_values_from_the_games_own_messages(seen):
    # Naishi's cards, as naishi.proto describes them
    assert any("Mountain" in row and "never in the River" in row for row in seen["naishiCards"])
    # Kung Fur Fight: the AP of each card in hand and its ability; the rulebook's spelling of the names
    hand = seen["kungfur"]["hand"]
    assert hand and all(" AP" in card for card in hand), hand
    assert any("As leader" in card or "no ability" in card for card in hand), hand
    assert any(row.startswith("Kōga Genin") and "Cats: no ability." in row for row in seen["kungfur"]["reference"])
    assert any(row.startswith("Siu-Yao") for row in seen["kungfur"]["reference"])


def test_kung_fur_fight_says_whose_sp_hit_0(seen):
    reason = seen["kungfur"]["endReason"]
    assert "'s SP" in reason and ("Cat AI" in reason or "Dog AI" in reason), reason
    assert "the opponent's" not in reason
