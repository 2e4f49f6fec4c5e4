"""History and replays (ListFinishedGames, GetReplay): finished games read from the PostgreSQL archive
(docs/archive.md), never from Redis.

A player's finished games are the archived games with a seat bound to the player (`game_seats.player_id`), newest
first by end time, in pages. The caller's own list (by its signed identity) holds its private games too; anyone
else's list of a player holds that player's public games only. The page token carries the (end time in
microseconds, game id) of the page's last game and the filter it was made for: the next page starts strictly after
it, so archived games added meanwhile (newer ones) never shift a page.

A replay is the archived log stepped through the engine (tables.Replay), every event with its move revealed and
every seat's view after it. Who may have it: anyone, for a public game; for a private game, its seated players
only: a caller whose signed identity is bound to one of its seats, or who holds a seat token of the game while the
service still keeps the game in Redis (its retention after archiving: the archive keeps token hashes nowhere).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc

from games.base import Game, Score
from service import errors, paging, validation
from service.auth import Credentials
from service.identity import MAX_PLAYER_ID_LENGTH, PLAYER_ID
from service.store import Event, GameStore, SeatRecord, unpack_log
from service.tables import Replay, Tables, abandoned_score, final_score, names

POOL_WAIT_SECONDS = 5.0  # a call waits this long for a connection before it answers DATABASE_UNAVAILABLE

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def database_not_configured() -> errors.ServiceError:
    return errors.ServiceError(grpc.StatusCode.UNAVAILABLE, "DATABASE_NOT_CONFIGURED",
                               "this service has no database (TABLETOP_DATABASE_URL): finished games are not kept")


def database_unavailable(detail: str) -> errors.ServiceError:
    return errors.ServiceError(grpc.StatusCode.UNAVAILABLE, "DATABASE_UNAVAILABLE",
                               errors.bounded(f"the database did not answer: {detail}"), retry_delay=1.0)


def whose(caller: str | None, player_id: str, without: str) -> str:
    """The player a read is about: `player_id`, else the caller (`caller`: its verified player id, None without an
    identity: IDENTITY_REQUIRED, `without` saying what the call does without a player_id); a malformed player_id
    is INVALID_PLAYER_ID."""
    if not player_id:
        if caller is None:
            raise errors.unauthenticated("IDENTITY_REQUIRED", f"{without}: it needs the caller's signed identity "
                                                              "(authorization: Bearer <JWT>)")
        return caller
    if len(player_id) > MAX_PLAYER_ID_LENGTH or not PLAYER_ID.match(player_id):
        raise errors.invalid("INVALID_PLAYER_ID", f"player_id must be 1 to {MAX_PLAYER_ID_LENGTH} printable "
                                                  "characters, no spaces")
    return player_id


def micros(when: datetime | None) -> int:
    return (when - EPOCH) // timedelta(microseconds=1) if when is not None else 0


def millis(when: datetime | None) -> int:
    return micros(when) // 1000


@dataclass(frozen=True)
class FinishedSeat:
    seat: int
    kind: str
    name: str
    strength: str
    state: str
    total: int
    place: int
    player_id: str  # never sent out: who is whom stays the frontend's business


@dataclass(frozen=True)
class FinishedGame:
    game_id: str
    game_type: str
    seats: tuple[FinishedSeat, ...]
    player_seats: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    decided_by: str
    options: str  # JSON
    visibility: str
    created_ms: int
    started_ms: int
    ended_ms: int
    final_version: int
    resigned: tuple[int, ...]
    outcome: str = "finished"  # or "abandoned": no result (docs/archive.md, "Abandoned games")
    rated: bool = False  # a rated game (docs/ratings.md)


@dataclass(frozen=True)
class FinishedPage:
    games: list[FinishedGame]
    next_page_token: str


@dataclass(frozen=True)
class Step:
    """One event of a replay, revealed, and the game right after it."""

    event: Event
    seats: tuple[SeatRecord, ...]
    status: str
    to_act: list[int]
    views: list[Any]  # each seat's engine view (empty before the start)


@dataclass(frozen=True)
class GameReplay:
    game: FinishedGame
    engine: Game
    steps: list[Step]
    score: Score | None  # None for a game that ended before it started; an abandoned game's claims no result


def _tag(player_id: str) -> str:
    return hashlib.sha256(player_id.encode()).hexdigest()[:8]


def encode_token(player_id: str, game_type: str, public_only: bool, last: tuple[int, str]) -> str:
    return paging.encode_token(_tag(player_id), game_type, public_only, last[0], last[1])


def _valid(tag: Any, kind: Any, public: Any, when: Any, game_id: Any) -> bool:
    return (isinstance(tag, str) and isinstance(kind, str) and isinstance(public, bool) and type(when) is int
            and 0 <= when < 10**17 and isinstance(game_id, str) and bool(validation.GAME_ID.match(game_id)))


def decode_token(token: str, player_id: str, game_type: str, public_only: bool) -> tuple[int, str]:
    tag, kind, public, when, game_id = paging.decode_token(token, "ListFinishedGames", _valid)
    if (tag, kind, public) != (_tag(player_id), game_type, public_only):
        raise errors.invalid("INVALID_PAGE_TOKEN", "page_token was made for another player or filter: keep "
                                                   "player_id and game_type while paging")
    return when, game_id


GAME_COLUMNS = ("game_id, game_type, options, visibility, decided_by, ranking, final_version, created_at, started_at,"
                " ended_at, resigned, outcome, rated")
SEAT_COLUMNS = "game_id, seat, kind, name, ai_strength, final_state, total, place, player_id"


class History:
    """The archive's reads. `pool` is a psycopg AsyncConnectionPool, or None when the service has no database."""

    def __init__(self, pool: Any, tables: Tables):
        self.pool = pool
        self.tables = tables
        self.store: GameStore = tables.store
        self._opened = False
        self._opening = asyncio.Lock()

    async def _pool(self) -> Any:
        if self.pool is None:
            raise database_not_configured()
        if not self._opened:
            async with self._opening:
                if not self._opened:
                    await self.pool.open(wait=False)
                    self._opened = True
        return self.pool

    async def close(self) -> None:
        if self.pool is not None and self._opened:
            await self.pool.close()

    async def query(self, work) -> Any:
        """`await work(conn)` on a connection of the pool: the archive's reads (the history's, the ratings') go
        through here, which maps the database's failures to statuses (DATABASE_NOT_CONFIGURED, DATABASE_NOT_MIGRATED,
        DATABASE_UNAVAILABLE)."""
        pool = await self._pool()
        import psycopg  # the service needs psycopg only with a database
        import psycopg.errors
        import psycopg_pool

        try:
            async with pool.connection(timeout=POOL_WAIT_SECONDS) as conn:
                return await work(conn)
        except psycopg.errors.UndefinedTable:
            raise errors.ServiceError(
                grpc.StatusCode.UNAVAILABLE, "DATABASE_NOT_MIGRATED",
                "the database has no archive tables yet: run `tabletop archive-writer` (it migrates the schema when it "
                "starts) or `tabletop archive-writer --migrate-only`", retry_delay=5.0) from None
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise database_unavailable(type(exc).__name__) from None

    async def list_games(self, caller: str | None, player_id: str, game_type: str, page_size: int,
                         page_token: str) -> FinishedPage:
        """`caller`: the caller's verified player id (None: no identity); `player_id`: whose games ("" = the
        caller's)."""
        size = paging.page_size(page_size)
        if game_type:
            validation.engine(game_type)  # UNKNOWN_GAME_TYPE
        player_id = whose(caller, player_id, "ListFinishedGames without a player_id lists the caller's own games")
        public_only = player_id != caller
        cursor = decode_token(page_token, player_id, game_type, public_only) if page_token else None
        where = ["EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.game_id AND s.player_id = %(player)s)"]
        if public_only:
            where.append("g.visibility = 'public'")
        if game_type:
            where.append("g.game_type = %(type)s")
        if cursor:
            where.append("(g.ended_at, g.game_id) < (%(ended)s, %(after)s)")
        params = {"player": player_id, "type": game_type, "limit": size + 1,
                  "ended": EPOCH + timedelta(microseconds=cursor[0]) if cursor else None,
                  "after": cursor[1] if cursor else None}
        sql = (f"SELECT {GAME_COLUMNS} FROM games g WHERE {' AND '.join(where)} "
               "ORDER BY g.ended_at DESC, g.game_id DESC LIMIT %(limit)s")

        async def work(conn):
            rows = await (await conn.execute(sql, params)).fetchall()
            seats = await self._seats(conn, [r[0] for r in rows])
            return rows, seats

        rows, seats = await self.query(work)
        games = [self._game(row, seats.get(row[0], ()), player_id) for row in rows[:size]]
        token = ""
        if len(rows) > size:
            last = rows[size - 1]
            token = encode_token(player_id, game_type, public_only, (micros(last[9]), last[0]))
        return FinishedPage(games, token)

    @staticmethod
    async def _seats(conn, game_ids: list[str]) -> dict[str, tuple[FinishedSeat, ...]]:
        if not game_ids:
            return {}
        rows = await (await conn.execute(
            f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ANY(%s) ORDER BY game_id, seat",
            (game_ids,))).fetchall()
        found: dict[str, list[FinishedSeat]] = {}
        for game_id, seat, kind, name, strength, state, total, place, player in rows:
            found.setdefault(game_id, []).append(
                FinishedSeat(seat, kind, name, strength or "", state, total, place, player or ""))
        return {k: tuple(v) for k, v in found.items()}

    @staticmethod
    def _game(row: tuple, seats: tuple[FinishedSeat, ...], player_id: str) -> FinishedGame:
        (game_id, game_type, options, visibility, decided_by, ranking, final_version, created, started, ended,
         resigned, outcome, rated) = row
        return FinishedGame(
            game_id=game_id, game_type=game_type, seats=seats,
            player_seats=tuple(s.seat for s in seats if player_id and s.player_id == player_id),
            ranking=tuple(tuple(group) for group in ranking), decided_by=decided_by,
            options=json.dumps(options, separators=(",", ":")), visibility=visibility,
            created_ms=millis(created), started_ms=millis(started), ended_ms=millis(ended),
            final_version=final_version, resigned=tuple(resigned or ()), outcome=outcome, rated=rated,
        )

    async def replay(self, game_id: str, creds: Credentials) -> GameReplay:
        validation.check_game_id(game_id)

        async def work(conn):
            row = await (await conn.execute(f"SELECT {GAME_COLUMNS} FROM games g WHERE game_id = %s",
                                            (game_id,))).fetchone()
            if row is None:
                return None, (), None
            seats = (await self._seats(conn, [game_id])).get(game_id, ())
            log = await (await conn.execute("SELECT format, events FROM game_logs WHERE game_id = %s",
                                            (game_id,))).fetchone()
            return row, seats, log

        row, seats, log = await self.query(work)
        if row is None:
            if await self.store.exists(game_id):
                raise errors.precondition("GAME_NOT_ARCHIVED", "the game is not in the archive: it is still being "
                                                               "played, or it has just ended and is being archived")
            raise errors.game_not_found(game_id)
        game = self._game(row, seats, "")
        if game.visibility != "public":
            await self._check_player(game, creds)
        if log is None or log[0] != 1:
            raise errors.ServiceError(grpc.StatusCode.INTERNAL, "STORED_DATA_UNREADABLE",
                                      "the archived log is in a format this version does not read")
        engine = validation.engine(game.game_type)
        return GameReplay(game, engine, *self._steps(engine, unpack_log(bytes(log[1])), game))

    async def _check_player(self, game: FinishedGame, creds: Credentials) -> None:
        """A private game's replay is for its seated players: by identity, or by seat token while Redis keeps it."""
        if creds.player is not None and any(s.player_id == creds.player.player_id for s in game.seats):
            return
        if creds.token is not None:
            try:
                table = await self.tables.load(game.game_id)
            except errors.ServiceError as exc:
                if exc.code != grpc.StatusCode.NOT_FOUND:
                    raise
            else:
                caller = self.tables.identify(table.record, creds)
                if caller.role == "seat" and caller.seat is not None:
                    return
        raise errors.denied("PRIVATE_REPLAY", "the game was private: its replay is for its seated players only (their "
                                              "signed identity, or a seat token while the service keeps the game)")

    @staticmethod
    def _steps(engine: Game, events: list[Event], game: FinishedGame) -> tuple[list[Step], Score | None]:
        rebuilt = Replay(engine)
        steps = []
        for event in events:
            rebuilt.step(event)
            if event.get("kind") == "move":
                event = replace(event, fields={**event.fields, "pub": "1"})  # the game is over: every move shown
            state = rebuilt.state
            views = [engine.view(state, seat) for seat in range(len(rebuilt.seats))] if state is not None else []
            acting = sorted(engine.to_act(state)) if state is not None and rebuilt.status == "in_progress" else []
            steps.append(Step(event, rebuilt.seats, rebuilt.status, acting, views))
        score = None
        if rebuilt.state is not None and game.outcome == "abandoned":  # the standing when it stopped, nothing hidden
            score = abandoned_score(engine.score(rebuilt.state))
        elif rebuilt.state is not None:
            score = final_score(engine, rebuilt.state, None, "finished", game.resigned, names(rebuilt.seats))
        return steps, score
