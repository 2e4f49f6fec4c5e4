"""A signed-in player's games ("my games", ListMyGames): the games in which a seat is bound to the player, newest
first, in pages.

Where they are: per player a sorted set `tabletop:player:{<hash of the player id>}:games` (member: game id, score:
when the player took the seat, ms). It lives in its own Redis Cluster slot, not the game's, so the commit script
cannot write it: the entry is added just before the commit that binds the seat. An entry whose commit did not
happen (a lost race for the seat, a replica dying between the two writes) is never shown: a page reads each
game's record and lists a game only when one of its seats is bound to the player, and drops entries whose game
has expired, or that are unbound and older than STALE_AFTER_MS (a commit still on its way is younger). So a page
shows exactly the games the player holds a seat in, and no bound seat is ever missing from the list.

The set expires a game's lifetime after the player last took a seat or listed it (retention + abandoned games'
time), and keeps at most MAX_ENTRIES games (the newest). The page token carries the (ms, game id) of the page's
last game and a hash of the player id it was made for: the next page starts strictly after it.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from service import errors, paging, validation
from service.store import GameStore, SeatRecord, Timer, game_key, now_ms, seats_from_fields

MAX_ENTRIES = 1000
MAX_EXAMINED = 1000  # entries one call looks at before it returns a shorter page (with a next token)
STALE_AFTER_MS = 5 * 60 * 1000


def player_tag(player_id: str) -> str:
    return hashlib.sha256(player_id.encode()).hexdigest()[:24]


def player_games_key(player_id: str) -> str:
    return f"tabletop:player:{{{player_tag(player_id)}}}:games"


@dataclass(frozen=True)
class PlayerGame:
    """One game of the player's list (no tokens, no other players' ids)."""

    game_id: str
    game_type: str
    status: str  # "waiting", "in_progress" or "finished"
    seat: int  # the player's seat
    seats: tuple[SeatRecord, ...]
    joined_ms: int  # when the player took the seat
    created_ms: int
    options: str  # JSON
    timer: Timer | None
    visibility: str
    rated: bool


@dataclass(frozen=True)
class MyGames:
    games: list[PlayerGame]
    next_page_token: str  # "" on the last page


Key = tuple[int, str]  # (ms, game id), listed in descending order


def encode_token(player_id: str, last: Key) -> str:
    return paging.encode_token(player_tag(player_id)[:8], last[0], last[1])


def _valid(tag: Any, ms: Any, game_id: Any) -> bool:
    return (isinstance(tag, str) and type(ms) is int and 0 <= ms < 10**13 and isinstance(game_id, str)
            and bool(validation.GAME_ID.match(game_id)))


def decode_token(token: str, player_id: str) -> Key:
    tag, ms, game_id = paging.decode_token(token, "ListMyGames", _valid)
    if tag != player_tag(player_id)[:8]:
        raise errors.invalid("INVALID_PAGE_TOKEN", "page_token was made for another player")
    return ms, game_id


class PlayerGames:
    def __init__(self, store: GameStore, max_examined: int = MAX_EXAMINED):
        self.store = store
        self.max_examined = max_examined

    @property
    def ttl(self) -> int:
        return self.store.retention_seconds + self.store.abandoned_seconds

    async def add(self, player_id: str, game_id: str, ms: int) -> None:
        """Note that the player takes a seat of the game (before the commit that binds it)."""
        key = player_games_key(player_id)
        redis = self.store.redis

        async def call() -> list[Any]:
            pipe = redis.pipeline(transaction=False)
            pipe.zadd(key, {game_id: ms})
            pipe.zremrangebyrank(key, 0, -MAX_ENTRIES - 1)
            pipe.expire(key, self.ttl)
            return await pipe.execute()

        await self.store._timed("player_games_add", call)

    async def list(self, player_id: str, page_size: int, page_token: str) -> MyGames:
        size = paging.page_size(page_size)
        cursor = decode_token(page_token, player_id) if page_token else None
        key = player_games_key(player_id)
        redis = self.store.redis
        found: list[PlayerGame] = []
        examined = 0
        offset = 0
        batch = size + 1 + 8
        now = now_ms()
        while True:
            top = cursor[0] if cursor else "+inf"
            rows = await self.store._timed("player_games_read", functools.partial(
                redis.zrevrangebyscore, key, top, "-inf", start=offset, num=batch, withscores=True))
            offset += len(rows)
            entries = [((int(score), m.decode() if isinstance(m, bytes) else m)) for m, score in rows]
            if cursor:  # equal times come in descending id order: skip those at or before the cursor
                entries = [e for e in entries if e[0] < cursor[0] or e[1] < cursor[1]]
            docs = await self._records([game_id for _, game_id in entries])
            stale = []
            for (ms, game_id), doc in zip(entries, docs, strict=True):
                examined += 1
                game = self._game(player_id, game_id, ms, doc)
                if game is None:
                    if not doc or now - ms > STALE_AFTER_MS:
                        stale.append(game_id)
                    continue
                found.append(game)
                if len(found) > size:
                    break
            if stale:
                await self.store._timed("player_games_drop", functools.partial(redis.zrem, key, *stale))
                offset -= len(stale)
            if len(found) > size:
                last = found[size - 1]
                return MyGames(found[:size], encode_token(player_id, (last.joined_ms, last.game_id)))
            if len(rows) < batch:
                if found or rows or cursor is None:
                    await self.store._timed("player_games_read", lambda: redis.expire(key, self.ttl))
                return MyGames(found, "")
            if examined >= self.max_examined:  # bounded work per call: a shorter page
                last_ms, last_id = entries[-1] if entries else cursor
                return MyGames(found, encode_token(player_id, (last_ms, last_id)))
            batch = min(batch * 2, 500)

    @staticmethod
    def _game(player_id: str, game_id: str, ms: int, doc: dict[bytes, bytes]) -> PlayerGame | None:
        if not doc:
            return None
        seats = seats_from_fields(doc)
        mine = [i for i, s in enumerate(seats) if s.player_id == player_id]
        if not mine:
            return None

        def text(name: str) -> str:
            return (doc.get(name.encode()) or b"").decode()

        raw_timer = text("timer")
        return PlayerGame(
            game_id=game_id, game_type=text("type"), status=text("status"), seat=mine[0], seats=seats,
            joined_ms=ms, created_ms=int(text("created_ms") or 0), options=text("options") or "{}",
            timer=Timer.from_json(raw_timer) if raw_timer else None, visibility=text("visibility") or "private",
            rated=text("rated") == "1",
        )

    async def _records(self, game_ids: list[str]) -> list[dict[bytes, bytes]]:
        if not game_ids:
            return []
        redis = self.store.redis

        async def call() -> list[Any]:
            pipe = redis.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hgetall(game_key(game_id))
            return await pipe.execute()

        return await self.store._timed("player_games_read", call)
