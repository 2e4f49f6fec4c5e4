"""Ratings (docs/ratings.md): a rated game updates its players' openskill ratings once, when the archive writer
inserts it, in the same transaction (service/archive/writer.py store_games): a game already archived is not
inserted again, so a stream entry delivered twice cannot rate twice. An abandoned game (outcome "abandoned": it
never reached its end) has no result and rates no one, rated or not.

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


def rated_seats(game: dict[str, Any], seats: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """The seats of a game that count for the ratings, with their keys: none for an unrated game, an abandoned one,
    one that ended before it started (no ranking), or one with fewer than two seats on the ladder."""
    if not game.get("rated") or game.get("outcome") != "finished" or game.get("ranking") in (None, "[]"):
        return []  # unrated, abandoned (no result), or ended before it started (no ranking)
    rated = [(s, key) for s in seats if (key := player_key(s)) is not None]
    return rated if len(rated) >= 2 else []


def rate_game(cur: psycopg.Cursor, game: dict[str, Any], seats: list[dict[str, Any]]) -> int:
    """Update the ratings of a rated game's players (the caller holds the transaction); the seats rated."""
    return rate_games(cur, [(game, seats)])


def rate_games(cur: psycopg.Cursor, games: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> int:
    """Update the ratings of the players of these games (rated or not), in their order (the caller holds the
    transaction): each game starts from the ratings the games before it left. A few round trips for all of them,
    under RATINGS_LOCK: the ratings of every key read once, the games rated in memory, each key's new rating and
    every seat's change written once. The seats rated."""
    todo = [(game, rated) for game, seats in games if (rated := rated_seats(game, seats))]
    if not todo:
        return 0
    cur.execute("SELECT pg_advisory_xact_lock(%s)", (RATINGS_LOCK,))
    keys: dict[str, set[str]] = {}
    for game, rated in todo:
        keys.setdefault(game["game_type"], set()).update(key for _, key in rated)
    known: dict[tuple[str, str], tuple[float, float]] = {}
    for game_type, wanted in sorted(keys.items()):
        known.update({(game_type, key): value for key, value in current(cur, game_type, sorted(wanted)).items()})
    counted: dict[tuple[str, str], tuple[int, Any]] = {}  # (type, key) -> (games counted now, the last one's end)
    changes = []
    for game, rated in todo:
        game_type = game["game_type"]
        prior = {key: known[(game_type, key)] for _, key in rated if (game_type, key) in known}
        before, after, merged = update(prior, [(key, s["place"]) for s, key in rated])
        for key, value in merged.items():
            known[(game_type, key)] = value
            counted[(game_type, key)] = (counted.get((game_type, key), (0, None))[0] + 1, game["ended_at"])
        changes += [(game["game_id"], seat["seat"], key, game_type, seat["place"], *before[n], *after[n])
                    for n, (seat, key) in enumerate(rated)]
    cur.executemany(
        "INSERT INTO ratings (player_key, game_type, mu, sigma, games, updated_at) VALUES (%s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (player_key, game_type) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " games = ratings.games + excluded.games, updated_at = excluded.updated_at",
        [(key, game_type, *known[(game_type, key)], games, when)
         for (game_type, key), (games, when) in sorted(counted.items())])
    cur.executemany(
        "INSERT INTO rating_changes (game_id, seat, player_key, game_type, place, mu_before, sigma_before, mu_after,"
        " sigma_after) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", changes)
    return len(changes)


def current(cur: psycopg.Cursor, game_type: str, keys: list[str]) -> dict[str, tuple[float, float]]:
    """The stored (mu, sigma) of those keys that have a rating in `game_type`."""
    cur.execute("SELECT player_key, mu, sigma FROM ratings WHERE game_type = %s AND player_key = ANY(%s)",
                (game_type, sorted(set(keys))))
    return {row[0]: (row[1], row[2]) for row in cur.fetchall()}


def update(prior: dict[str, tuple[float, float]], seats: list[tuple[str, int]]
           ) -> tuple[list[tuple[float, float]], list[tuple[float, float]], dict[str, tuple[float, float]]]:
    """One game's update: `seats` (key, place) in seat order, `prior` the keys' ratings (a key without one is new).
    Each seat's (mu, sigma) before and after, and each key's new rating (the mean over its seats)."""
    fresh = MODEL.rating()
    before = [prior.get(key, (fresh.mu, fresh.sigma)) for key, _ in seats]
    result = MODEL.rate([[MODEL.rating(mu, sigma)] for mu, sigma in before], ranks=[place for _, place in seats])
    after = [(team[0].mu, team[0].sigma) for team in result]
    per_key: dict[str, list[tuple[float, float]]] = {}
    for (key, _), value in zip(seats, after, strict=True):
        per_key.setdefault(key, []).append(value)
    merged = {key: (sum(v[0] for v in values) / len(values), sum(v[1] for v in values) / len(values))
              for key, values in per_key.items()}
    return before, after, merged


def store(cur: psycopg.Cursor, game_type: str, ratings: dict[str, tuple[float, float]], games: dict[str, int],
          when: Any) -> None:
    """Write the keys' new ratings, each counting `games[key]` more games (the caller holds RATINGS_LOCK)."""
    for key in sorted(ratings):
        mu, sigma = ratings[key]
        cur.execute(
            "INSERT INTO ratings (player_key, game_type, mu, sigma, games, updated_at) VALUES (%s, %s, %s, %s, %s,"
            " %s) ON CONFLICT (player_key, game_type) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = ratings.games + excluded.games, updated_at = excluded.updated_at",
            (key, game_type, mu, sigma, games[key], when))
