"""Ratings (docs/ratings.md): a rated game updates its players' openskill ratings once, when the archive writer
inserts it, in the same transaction (service/archive/writer.py store_games): a game already archived is not
inserted again, so a stream entry delivered twice cannot rate twice.

The model is openskill's PlackettLuce with its defaults (mu 25, sigma 25/3; the displayed rating is the ordinal
mu - 3 sigma). Each seat is a team of one; seats that tie share a place, and openskill counts equal ranks as a
tie. A seat's player on the ladder (its key) is its bound player id, or `ai:<strength>` for an AI seat (an open
seat filled by the AI at the start included). A seat with neither (not possible in a rated game created through
the service) is left out and the others are rated among themselves; with fewer than two rated seats nothing
changes. A key that holds several seats (two AI seats of one strength) is rated per seat from the same prior and
gets the mean of its seats' results.
"""

from __future__ import annotations

from typing import Any

import psycopg
from openskill.models import PlackettLuce

# pg_advisory_xact_lock key: rating updates are serialized across writers ("ratings" in ASCII, as a bigint), so
# two writers rating games of the same players neither lose an update nor deadlock.
RATINGS_LOCK = 0x726174696E6773
MODEL = PlackettLuce()


def player_key(seat: dict[str, Any]) -> str | None:
    if seat.get("player_id"):
        return seat["player_id"]
    if seat.get("kind") == "ai" and seat.get("ai_strength"):
        return f"ai:{seat['ai_strength']}"
    return None


def rate_game(cur: psycopg.Cursor, game: dict[str, Any], seats: list[dict[str, Any]]) -> int:
    """Update the ratings of a rated game's players (the caller holds the transaction); the seats rated."""
    if not game.get("rated") or game.get("ranking") in (None, "[]"):
        return 0  # unrated, or ended before it started (no ranking)
    rated = [(s, key) for s in seats if (key := player_key(s)) is not None]
    if len(rated) < 2:
        return 0
    game_type = game["game_type"]
    cur.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))
    keys = sorted({key for _, key in rated})
    cur.execute("SELECT player_key, mu, sigma FROM ratings WHERE game_type = %s AND player_key = ANY(%s)",
                (game_type, keys))
    prior = {row[0]: (row[1], row[2]) for row in cur.fetchall()}
    fresh = MODEL.rating()
    teams = [[MODEL.rating(*prior.get(key, (fresh.mu, fresh.sigma)))] for _, key in rated]
    before = [(t[0].mu, t[0].sigma) for t in teams]
    result = MODEL.rate(teams, ranks=[s["place"] for s, _ in rated])
    after: dict[str, list[tuple[float, float]]] = {}
    for (_, key), team in zip(rated, result, strict=True):
        after.setdefault(key, []).append((team[0].mu, team[0].sigma))
    for key in keys:
        values = after[key]
        mu = sum(v[0] for v in values) / len(values)
        sigma = sum(v[1] for v in values) / len(values)
        cur.execute(
            "INSERT INTO ratings (player_key, game_type, mu, sigma, games, updated_at) VALUES (%s, %s, %s, %s, 1,"
            " %s) ON CONFLICT (player_key, game_type) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = ratings.games + 1, updated_at = excluded.updated_at",
            (key, game_type, mu, sigma, game["ended_at"]))
    cur.executemany(
        "INSERT INTO rating_changes (game_id, seat, player_key, game_type, place, mu_before, sigma_before, mu_after,"
        " sigma_after) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [(game["game_id"], seat["seat"], key, game_type, seat["place"], before[n][0], before[n][1], team[0].mu,
          team[0].sigma)
         for n, ((seat, key), team) in enumerate(zip(rated, result, strict=True))])
    return len(rated)
