"""Ratings reads (GetRatings, GetLeaderboard; docs/ratings.md): the `ratings` table the archive writer updates
(service/archive/ratings.py), read from PostgreSQL through the history's pool and its error mapping.

The leaderboard is ordered by ordinal (descending), then player key; its page token carries the game type, the
last row's (ordinal, key) and its rank: the next page starts strictly after that row. A rating that changes
between two pages may move a player across the cut (seen twice or not at all): a leaderboard is a live ranking,
not a snapshot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from service import errors, paging, validation
from service.history import History, millis, whose
from service.identity import PLAYER_ID

AI_PREFIX = "ai:"


@dataclass(frozen=True)
class Rating:
    player_key: str
    game_type: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    updated_ms: int
    rank: int = 0

    @property
    def ai_strength(self) -> str:
        return self.player_key[len(AI_PREFIX):] if self.player_key.startswith(AI_PREFIX) else ""


@dataclass(frozen=True)
class Leaderboard:
    ratings: list[Rating]
    next_page_token: str


COLUMNS = "player_key, game_type, mu, sigma, ordinal, games, updated_at"


def _rating(row: tuple, rank: int = 0) -> Rating:
    key, game_type, mu, sigma, ordinal, games, updated = row
    return Rating(key, game_type, mu, sigma, ordinal, games, millis(updated) if isinstance(updated, datetime) else 0,
                  rank)


def encode_token(game_type: str, ordinal: float, key: str, rank: int) -> str:
    return paging.encode_token(game_type, ordinal, key, rank)


def _valid(kind: Any, ordinal: Any, key: Any, rank: Any) -> bool:
    return (isinstance(kind, str) and type(ordinal) in (int, float) and math.isfinite(ordinal)
            and isinstance(key, str) and bool(PLAYER_ID.match(key)) and type(rank) is int and 0 < rank < 2**31)


def decode_token(token: str, game_type: str) -> tuple[float, str, int]:
    kind, ordinal, key, rank = paging.decode_token(token, "GetLeaderboard", _valid)
    if kind != game_type:
        raise errors.invalid("INVALID_PAGE_TOKEN", "page_token was made for another game type: keep game_type while "
                                                   "paging")
    return float(ordinal), key, rank


class Ratings:
    def __init__(self, history: History):
        self.history = history

    async def player(self, caller: str | None, player_id: str) -> list[Rating]:
        player_id = whose(caller, player_id, "GetRatings without a player_id reads the caller's own ratings")

        async def work(conn):
            return await (await conn.execute(
                f"SELECT {COLUMNS} FROM ratings WHERE player_key = %s ORDER BY game_type", (player_id,))).fetchall()

        return [_rating(row) for row in await self.history.query(work)]

    async def leaderboard(self, game_type: str, page_size: int, page_token: str) -> Leaderboard:
        if not game_type:
            raise errors.invalid("GAME_TYPE_REQUIRED", "GetLeaderboard needs a game_type: a leaderboard is per game")
        validation.engine(game_type)  # UNKNOWN_GAME_TYPE
        size = paging.page_size(page_size)
        cursor = decode_token(page_token, game_type) if page_token else None
        where = "game_type = %(type)s"
        if cursor:
            where += " AND (ordinal < %(ordinal)s OR (ordinal = %(ordinal)s AND player_key > %(key)s))"
        params = {"type": game_type, "limit": size + 1, "ordinal": cursor[0] if cursor else None,
                  "key": cursor[1] if cursor else None}

        async def work(conn):
            return await (await conn.execute(
                f"SELECT {COLUMNS} FROM ratings WHERE {where} ORDER BY ordinal DESC, player_key LIMIT %(limit)s",
                params)).fetchall()

        rows = await self.history.query(work)
        before = cursor[2] if cursor else 0
        ratings = [_rating(row, before + n + 1) for n, row in enumerate(rows[:size])]
        token = ""
        if len(rows) > size:
            last = ratings[-1]
            token = encode_token(game_type, last.ordinal, last.player_key, last.rank)
        return Leaderboard(ratings, token)
