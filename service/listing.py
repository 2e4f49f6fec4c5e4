"""The lobby's list: public games not started yet, oldest first, in pages (ListGames, AIP-158).

Where they are: each job shard B has a sorted set `tabletop:lobby:{jB}` (store.lobby_key) of its public games
that have not started, member "<type>|<created ms, 13 digits>|<game id>" (store.lobby_member), all with score 0,
so that the set orders them by bytes: by type, then by creation time, then by id. The commit script adds a
member when a public game is created and removes it when the game starts, atomically with the game's change.

A page merges the streams (one per shard and game type asked for, read with ZRANGE ... BYLEX LIMIT) by
(creation ms, game id), reads each candidate's record (one pipelined HMGET per page round) and keeps those still
waiting with enough open seats. The page token carries the (creation ms, game id) of the page's last game and
the filter it was made for: the next page starts strictly after it. Keys never change and the cursor only moves
forward, so no game is listed twice, and a game listed when the paging began that stays listed and matches is
listed exactly once, whatever is created, joined or started meanwhile.

A game created while a caller pages is listed when its key falls after the caller's cursor. Its key is the
creation time read on the creating replica just before its commit, so it normally sorts after every page
already given; but a replica whose clock lags, or a commit that lands late (a slow Redis), can give it a key
behind a cursor that has passed, and that pager will not see it (its next first page will). This is the choice:
a strict order a token can name in a few bytes, no repeats ever, and no promise for games newer than the paging
(AIP-158 makes none either) rather than tokens carrying sets of ids or a global sequence number that would tie
every shard's commit to one Redis Cluster slot.

One call looks at no more than MAX_EXAMINED candidates: past them (a long run of games that do not match the
filter, or of stale entries) it returns a shorter page, even an empty one, whose token names the last game looked
at.

Entries whose game expired or has started (belt and braces: the commit script unlists at the start) are removed
lazily, when a page meets them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import registry
from service import errors, paging, validation
from service.store import GameStore, SeatRecord, Timer, game_key, lobby_key, seats_from_fields

MAX_BATCH = 1000  # members read from one stream in one round
MAX_EXAMINED = 2000  # candidates one call looks at before it returns a shorter page (with a next token)


@dataclass(frozen=True)
class GameSummary:
    """A public game waiting for players, as the lobby lists it (no tokens, no hashes)."""

    game_id: str
    game_type: str
    seats: tuple[SeatRecord, ...]
    open_seats: int
    created_ms: int
    options: str  # JSON
    timer: Timer | None
    rated: bool = False  # docs/ratings.md: its open seats are joined only with an identity


@dataclass(frozen=True)
class Listed:
    games: list[GameSummary]
    next_page_token: str  # "" on the last page


Key = tuple[int, str]  # (created ms, game id): the order of the list


def encode_token(game_type: str, min_open_seats: int, last: Key) -> str:
    return paging.encode_token(game_type, min_open_seats, last[0], last[1])


def _valid(kind: Any, seats: Any, created_ms: Any, game_id: Any) -> bool:
    return (isinstance(kind, str) and type(seats) is int and type(created_ms) is int and 0 <= created_ms < 10**13
            and isinstance(game_id, str) and bool(validation.GAME_ID.match(game_id)))


def decode_token(token: str, game_type: str, min_open_seats: int) -> Key:
    """The key after which the next page starts; INVALID_PAGE_TOKEN if the token is malformed or was made for
    another filter."""
    kind, seats, created_ms, game_id = paging.decode_token(token, "ListGames", _valid)
    if (kind, seats) != (game_type, min_open_seats):
        raise errors.invalid(
            "INVALID_PAGE_TOKEN",
            "page_token was made for another filter: keep game_type and min_open_seats while paging",
        )
    return created_ms, game_id


def parse_member(member: bytes | str) -> tuple[str, Key]:
    """(game type, key) of a lobby member "<type>|<created ms>|<id>"."""
    text = member.decode() if isinstance(member, bytes) else member
    game_type, created, game_id = text.rsplit("|", 2)
    return game_type, (int(created), game_id)


def member_of(game_type: str, key: Key) -> str:
    return f"{game_type}|{key[0]:013d}|{key[1]}"


class Listing:
    def __init__(self, store: GameStore, min_batch: int = 8, max_examined: int = MAX_EXAMINED):
        self.store = store
        self.min_batch = min_batch  # the fewest members read from one stream in a page's first round
        self.max_examined = max_examined

    async def list_games(self, game_type: str, min_open_seats: int, page_size: int, page_token: str) -> Listed:
        if game_type:
            validation.engine(game_type)  # UNKNOWN_GAME_TYPE
        types = [game_type] if game_type else list(registry.names())
        if min_open_seats < 0:
            raise errors.invalid("INVALID_MIN_OPEN_SEATS", "min_open_seats must not be negative")
        size = paging.page_size(page_size)
        cursor = decode_token(page_token, game_type, min_open_seats) if page_token else None
        wanted = max(1, min_open_seats)
        streams = [(t, shard) for t in types for shard in range(self.store.job_shards)]
        # Enough per stream for one round when the games are spread evenly; doubled each further round.
        batch = min(MAX_BATCH, max(self.min_batch, 2 * (size + 1) // max(1, len(streams)) + 1))
        found: list[GameSummary] = []
        examined, least = 0, 8  # candidates read this call; the fewest read in one round trip (doubling)
        while True:
            rows = await self._read(streams, cursor, batch)
            # Every member up to `bound` is known: the smallest last member of the streams that filled the batch
            # (the others were read to their end).
            ends = [row[-1][0] for row in rows if len(row) == batch]
            bound = min(ends) if ends else None
            candidates = sorted(c for row in rows for c in row if bound is None or c[0] <= bound)
            done = 0
            while done < len(candidates) and len(found) <= size:
                chunk = candidates[done:done + max(least, size + 1 - len(found))]
                least = min(least * 2, 256)
                stale: list[tuple[int, str]] = []
                docs = await self._records([key[1] for key, _, _ in chunk])
                for candidate, doc in zip(chunk, docs, strict=True):
                    done += 1
                    summary = self._summary(candidate, doc, stale)
                    if summary is not None and summary.open_seats >= wanted:
                        found.append(summary)
                        if len(found) > size:  # one more than the page: there is a next page
                            break
                await self._unlist(stale)
                examined += len(chunk)
                if len(found) <= size and examined >= self.max_examined and (done < len(candidates) or bound):
                    # Work bounded per call (a long run of games that do not match, or of stale entries): a
                    # shorter page, its token at the last game looked at.
                    return Listed(found, encode_token(game_type, min_open_seats, candidates[done - 1][0]))
            if len(found) > size:
                last = found[size - 1]
                return Listed(found[:size], encode_token(game_type, min_open_seats, (last.created_ms, last.game_id)))
            if bound is None:
                return Listed(found, "")
            cursor = bound
            batch = min(MAX_BATCH, batch * 2)

    @staticmethod
    def _summary(candidate: tuple[Key, str, int], doc: dict[bytes, bytes], stale: list[tuple[int, str]]
                 ) -> GameSummary | None:
        """The candidate as listed, or None (and its member in `stale` when it should leave the lobby: its game
        expired, or started)."""
        key, kind, shard = candidate
        fields = {name: doc.get(name.encode()) for name in ("status", "visibility", "options", "timer", "rated")}
        if fields["status"] != b"waiting" or fields["visibility"] != b"public":
            stale.append((shard, member_of(kind, key)))
            return None
        seats = seats_from_fields(doc)
        raw_timer = (fields["timer"] or b"").decode()
        return GameSummary(
            game_id=key[1],
            game_type=kind,
            seats=seats,
            open_seats=sum(1 for s in seats if s.kind == "open"),
            created_ms=key[0],
            options=(fields["options"] or b"{}").decode(),
            timer=Timer.from_json(raw_timer) if raw_timer else None,
            rated=fields["rated"] == b"1",
        )

    async def _read(self, streams: list[tuple[str, int]], cursor: Key | None, batch: int
                    ) -> list[list[tuple[Key, str, int]]]:
        """Up to `batch` entries (key, type, shard) of each stream (a type on a shard) after `cursor`, in order."""
        redis = self.store.redis

        async def call() -> list[Any]:
            pipe = redis.pipeline(transaction=False)  # on Cluster: split by node
            for kind, shard in streams:
                start = f"({member_of(kind, cursor)}" if cursor else f"[{kind}|"
                # Every member of the type starts with "<type>|", and "}" is the byte after "|".
                pipe.zrange(lobby_key(shard), start, f"({kind}}}", bylex=True, offset=0, num=batch)
            return await pipe.execute()

        rows = await self.store._timed("lobby_range", call)
        return [[(key, kind, shard) for kind, key in map(parse_member, row)]
                for (_, shard), row in zip(streams, rows, strict=True)]

    async def _records(self, game_ids: list[str]) -> list[dict[bytes, bytes]]:
        if not game_ids:
            return []
        redis = self.store.redis

        async def call() -> list[Any]:
            pipe = redis.pipeline(transaction=False)
            for game_id in game_ids:
                pipe.hgetall(game_key(game_id))  # small: a waiting game has no state, and no events in its hash
            return await pipe.execute()

        return await self.store._timed("lobby_records", call)

    async def _unlist(self, stale: list[tuple[int, str]]) -> None:
        if not stale:
            return
        redis = self.store.redis

        async def call() -> list[Any]:
            pipe = redis.pipeline(transaction=False)
            for shard, member in stale:
                pipe.zrem(lobby_key(shard), member)
            return await pipe.execute()

        await self.store._timed("lobby_unlist", call)
