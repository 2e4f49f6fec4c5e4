"""The Redis store of games: per game a small hash, its engine state, its event stream (compacted into one
compressed log when the game finishes), recent request answers; and the AI job streams.

The keys of a game (docs/api.md, "Storage"): `game:{id}` a hash of small fields only, so that Redis keeps it in its
compact listpack encoding (a field over 64 bytes would turn the whole hash into a hashtable): the engine state lives
in `game:{id}:state` and each seat in a field of its own. `game:{id}:events` is the live event stream; the commit
that finishes a game writes every event into `game:{id}:log` (zlib of JSON) and leaves the stream to expire
STREAM_LINGER_SECONDS later (long enough for live watchers to read the last event), since a stream node alone
takes 4 KB. `game:{id}:requests` maps request ids to the version their move made, as long as a retry can arrive.

Every key of a game carries the hash tag `{game_id}`. Every write is one Lua script (commit.lua) that
compare-and-sets on the game's version, so no change is lost or applied twice, whichever replica runs it.
The script also enqueues AI jobs on the game's job shard and tracks the shard's active games: a game's id is
minted so that it hashes to its shard's Redis Cluster slot (tabletop/job_shards.py), so every key the script
touches is in one slot and it runs on Redis Cluster as on a single Redis.
"""

from __future__ import annotations

import json
import secrets
import time
import zlib
from binascii import crc_hqx
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

import redis.asyncio as aioredis
import redis.exceptions
from redis.commands.core import AsyncScript

from service import errors, metrics
from service.pipelined import PipelinedConnection
from tabletop import redis_client
from tabletop.job_shards import bulk_stream, job_stream, shard_slot, shard_tag

T = TypeVar("T")
STREAM_LINGER_SECONDS = 30  # a finished game's stream outlives its last event this long (see the module's doc)


@dataclass(frozen=True)
class SeatRecord:
    kind: str  # "human", "ai" or "open"
    name: str
    strength: str = ""
    token_hash: str | None = None
    state: str = ""  # "" (its holder plays it), "away", "left" or "resigned" (the AI plays a human seat then)
    misses: int = 0  # turn timeouts in a row
    player_id: str = ""  # the signed-in player the seat is bound to (service/identity.py); "" for anonymous seats

    @property
    def played_by_ai(self) -> bool:
        return self.kind == "ai" or self.state in ("away", "left", "resigned")

    def to_json(self) -> dict[str, Any]:
        doc = {"kind": self.kind, "name": self.name, "strength": self.strength, "token_hash": self.token_hash}
        if self.state:
            doc["state"] = self.state
        if self.misses:
            doc["misses"] = self.misses
        if self.player_id:
            doc["player_id"] = self.player_id
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> SeatRecord:
        return cls(doc["kind"], doc["name"], doc.get("strength", ""), doc.get("token_hash"), doc.get("state", ""),
                   doc.get("misses", 0), doc.get("player_id", ""))


@dataclass(frozen=True)
class Timer:
    """A game's turn timer: seconds per decision, what a timeout does ("ai" moves, or "forfeit"), the strength of
    an AI move made for a late seat, and the timeouts in a row that make a seat away."""

    turn_seconds: int
    on_timeout: str = "ai"
    strength: str = "easy"
    away_after: int = 2

    def to_json(self) -> str:
        return json.dumps([self.turn_seconds, self.on_timeout, self.strength, self.away_after])

    @classmethod
    def from_json(cls, raw: str) -> Timer:
        return cls(*json.loads(raw))


def seats_json(seats: list[SeatRecord] | tuple[SeatRecord, ...]) -> str:
    return json.dumps([s.to_json() for s in seats], separators=(",", ":"))


def seats_from_json(raw: str | bytes) -> tuple[SeatRecord, ...]:
    return tuple(SeatRecord.from_json(d) for d in json.loads(raw))


@dataclass(frozen=True)
class GameRecord:
    """A game as stored: metadata, seats and (once started) the engine state's JSON."""

    game_id: str
    game_type: str
    status: str  # "waiting", "in_progress" or "finished"
    version: int
    options: str  # JSON of the resolved options
    seats: tuple[SeatRecord, ...]
    creator_hash: str
    join_hash: str
    state: bytes | None
    created_ms: int
    seed: int | None = None  # a creator-chosen seed (all-AI games only); never shown to a client
    shard: int = 0  # the AI job shard, fixed at creation
    visibility: str = "private"  # or "public": listed in the lobby until it starts
    timer: Timer | None = None
    deadlines: dict[int, int] = field(default_factory=dict)  # seat -> when it must have decided (ms), timer games
    resigned: tuple[int, ...] = ()  # the seats that resigned, in order
    creator_player: str = ""  # the player id of a creator that sent an identity: it may start the game too
    rated: bool = False  # a rated game (docs/ratings.md): every human seat is bound to a player
    outcome: str = ""  # how a finished game ended: "" by its rules or resignations, "abandoned" (service/timekeeper.py)

    stamp: str = ""  # random, new at every commit: with the version, names the stored content exactly
    # What each seat last saw change: "<version>:<seat 0's seen version>,<seat 1's>,...", written by a commit that
    # some seat could not see (service/play.py, seen_versions); from any other commit it is left as it was, and
    # its version, now older than the game's, says that every seat saw the game at its version.
    seen: str = ""

    @classmethod
    def from_hash(cls, game_id: str, doc: dict[bytes, bytes], state: bytes | None = None) -> GameRecord:
        """The record of a game's hash, and its stored state (the `game:{id}:state` key's bytes)."""
        def text(name: str) -> str:
            return doc.get(name.encode(), b"").decode()

        return cls(
            game_id=game_id,
            game_type=text("type"),
            status=text("status"),
            version=int(text("version") or 0),
            options=text("options") or "{}",
            seats=seats_from_fields(doc),
            creator_hash=text("creator_hash"),
            join_hash=text("join_hash"),
            state=unpack_state(state) or None,
            created_ms=int(text("created_ms") or 0),
            seed=int(text("seed")) if text("seed") else None,
            shard=int(text("shard") or 0),
            visibility=text("visibility") or "private",
            timer=Timer.from_json(text("timer")) if text("timer") else None,
            deadlines={int(k): v for k, v in json.loads(text("deadlines") or "{}").items()},
            resigned=tuple(json.loads(text("resigned") or "[]")),
            creator_player=text("creator_player"),
            rated=text("rated") == "1",
            outcome=text("outcome"),
            stamp=text("stamp"),
            seen=text("seen"),
        )


def seat_fields(seats: tuple[SeatRecord, ...]) -> dict[str, str]:
    """A game's seats as hash fields, each small: `seat<i>` [kind, name, strength, state, misses], `token<i>`
    the hash of its token (none for a seat without one) and `player<i>` the player id it is bound to (none for an
    anonymous seat)."""
    fields = {}
    for i, s in enumerate(seats):
        fields[f"seat{i}"] = json.dumps([s.kind, s.name, s.strength, s.state, s.misses], separators=(",", ":"))
        if s.token_hash:
            fields[f"token{i}"] = s.token_hash
        if s.player_id:
            fields[f"player{i}"] = s.player_id
    return fields


def seats_from_fields(doc: dict[bytes, bytes]) -> tuple[SeatRecord, ...]:
    seats = []
    while (raw := doc.get(f"seat{len(seats)}".encode())) is not None:
        token = doc.get(f"token{len(seats)}".encode())
        player = doc.get(f"player{len(seats)}".encode())
        kind, name, strength, state, misses = json.loads(raw)
        seats.append(SeatRecord(kind, name, strength, token.decode() if token else None, state, misses,
                                player.decode() if player else ""))
    return tuple(seats)


@dataclass(frozen=True)
class Event:
    version: int
    fields: dict[str, str]

    def get(self, name: str, default: str = "") -> str:
        return self.fields.get(name, default)


def event_key(game_id: str, event: Event) -> tuple:
    """What names one committed event, for the caches built from it: its version and its time (after a Redis that
    lost its last writes, a version may be committed again, differently and later)."""
    return game_id, event.version, event.get("at")


@dataclass(frozen=True)
class CommitResult:
    outcome: str  # "OK", "CONFLICT" or "DUPLICATE"
    version: int = 0  # OK: the new version; CONFLICT: the current one
    answer: bytes = b""  # DUPLICATE: the first answer
    stamp: str = ""  # OK: the new stamp (GameRecord.stamp)


def now_ms() -> int:
    return int(time.time() * 1000)


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


# game_key's own text around the id, so that its inverse and its SCAN pattern follow it.
_GAME_KEY_HEAD, _, _GAME_KEY_TAIL = game_key("\0").partition("\0")


def game_id_of_key(key: str | bytes) -> str:
    """The game id whose game_key is `key` (its inverse); ValueError for a key no game_key has."""
    text = key.decode() if isinstance(key, bytes) else key
    if len(text) <= len(_GAME_KEY_HEAD) + len(_GAME_KEY_TAIL) or not (
            text.startswith(_GAME_KEY_HEAD) and text.endswith(_GAME_KEY_TAIL)):
        raise ValueError(f"not a game's hash key: {text!r}")
    return text[len(_GAME_KEY_HEAD):len(text) - len(_GAME_KEY_TAIL)]


GAME_KEYS = game_key("*")  # every game's hash, as a SCAN MATCH pattern (a game id holds no glob character)


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def requests_key(game_id: str) -> str:
    """The game's request-id answers: one hash, field request_field(seat, request id) -> the version its move
    made, kept for the request window after the last request (GameStore.request_seconds)."""
    return f"game:{{{game_id}}}:requests"


def state_key(game_id: str) -> str:
    """The engine state (pack_state bytes) once the game has started."""
    return f"game:{{{game_id}}}:state"


def log_key(game_id: str) -> str:
    """Every event of a finished game, compressed (pack_log)."""
    return f"game:{{{game_id}}}:log"


def archive_stream(shard: int) -> str:
    """Finished games waiting for the archive writer (service/archive/), one entry {"game": id} per game, added by
    the commit that finishes it; in the shard's slot, so commit.lua may touch it."""
    return f"tabletop:archive:{{{shard_tag(shard)}}}"


def abandon_key(shard: int) -> str:
    """With a database: the started, unfinished games of one shard (member: game id, score: when the game is
    abandoned, ms: its last change + abandoned_seconds), written by every commit of the game (commit.lua) and read by
    the timekeeper, which ends each game due with an "abandoned" end commit (service/timekeeper.py)."""
    return f"tabletop:abandon:{{{shard_tag(shard)}}}"


def request_field(seat: int, request_id: str) -> str:
    return f"{seat}:{request_id}"


def active_key(shard: int, game_type: str) -> str:
    """The started, unfinished games of a type on one shard (in the shard's slot, so commit.lua may touch it)."""
    return f"tabletop:games_active:{{{shard_tag(shard)}}}:{game_type}"


def lobby_key(shard: int) -> str:
    """The public games of one shard that have not started (members: lobby_member)."""
    return f"tabletop:lobby:{{{shard_tag(shard)}}}"


def deadlines_key(shard: int) -> str:
    """The games of one shard with a pending turn deadline (member: game id, score: the earliest deadline, ms),
    written by the commits and read by the timekeeper (service/timekeeper.py)."""
    return f"tabletop:deadlines:{{{shard_tag(shard)}}}"


def timekeeper_key(shard: int) -> str:
    """The lease of the replica that keeps one shard's turn deadlines (its value: the replica's name)."""
    return f"tabletop:timekeeper:{{{shard_tag(shard)}}}"


def lobby_member(game_type: str, created_ms: int, game_id: str) -> str:
    """A lobby entry, ordered (as the zset orders equal scores: by bytes) by type, then creation, then id."""
    return f"{game_type}|{created_ms:013d}|{game_id}"


ID_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
SLOT_MASK = 0x3FFF  # a Redis Cluster slot is CRC16(hash tag) mod 16384
# Two-character id endings by the slot bits of their CRC16: 4096 endings cover about a quarter of the slots.
_ENDINGS: dict[int, list[bytes]] = {}
for _a in ID_ALPHABET:
    for _b in ID_ALPHABET:
        _ENDINGS.setdefault(crc_hqx(bytes((_a, _b)), 0) & SLOT_MASK, []).append(bytes((_a, _b)))


def mint_game_id(shard: int) -> str:
    """A fresh random game id (72 random bits + 2 characters) whose keys hash to the slot of `shard`.

    Drawing whole ids until one lands in the slot takes 16384/N draws (3 ms of CPU for N = 16); instead the last
    two characters are computed: CRC16 with a zero start is linear, so crc(prefix + ending) =
    crc(prefix + "\\0\\0") ^ crc(ending), and the ending whose CRC supplies the missing bits is looked up. About one
    prefix in four has such an ending; the others are drawn again."""
    target = shard_slot(shard)
    while True:
        prefix = secrets.token_urlsafe(9).encode()
        if prefix.startswith(b"-"):  # `tabletop watch -3vG...` would read the id as an option
            continue
        endings = _ENDINGS.get((crc_hqx(prefix + b"\0\0", 0) ^ target) & SLOT_MASK)
        if endings:
            return (prefix + secrets.choice(endings)).decode()


def pack_state(state: str) -> bytes:
    """An engine state as stored: its packed JSON deflated (games.codec.pack), as raw zlib bytes (the
    commit script gets them as an argument of their own, and the store's Redis client reads bytes)."""
    return zlib.compress(state.encode(), 1)  # level 6 saves 80 of ~500 bytes at 2.5x the CPU, at every move


def unpack_state(raw: bytes | None) -> bytes | None:
    """A stored state's JSON (see pack_state)."""
    return zlib.decompress(raw) if raw else raw


def event_from_entry(entry_id: bytes, raw: dict[bytes, bytes] | list[bytes]) -> Event:
    """An event as XRANGE gives it (a stored state unpacked); also as a script returns it (a flat list)."""
    if isinstance(raw, list):
        raw = dict(zip(raw[::2], raw[1::2], strict=True))
    fields = {k.decode(): (unpack_state(v) if k == b"state" else v).decode() for k, v in raw.items()}
    return Event(int(entry_id.split(b"-")[0]), fields)


def pack_log(events: list[Event]) -> bytes:
    """A finished game's events as one record: zlib of the JSON list of [version, fields] (a started event's
    state as its text)."""
    doc = [[e.version, e.fields] for e in events]
    return zlib.compress(json.dumps(doc, separators=(",", ":")).encode(), 9)


def unpack_log(raw: bytes | None) -> list[Event]:
    if not raw:
        return []
    return [Event(version, fields) for version, fields in json.loads(zlib.decompress(raw))]


def merged_events(log: list[Event], stream: list[Event], after_version: int = 0) -> list[Event]:
    """The events of a game's log and then of its stream (which repeats the log's last ones until it expires)
    after `after_version`, oldest first, each once."""
    last = log[-1].version if log else 0
    return [e for e in log if e.version > after_version] + [
        e for e in stream if e.version > max(last, after_version)
    ]


def read_stored(client: Any, game_id: str) -> tuple[GameRecord | None, list[Event]]:
    """A game as stored, read with a blocking Redis client: its record and every event (for tools and tests)."""
    pipe = client.pipeline(transaction=False)
    pipe.hgetall(game_key(game_id))
    pipe.get(state_key(game_id))
    pipe.get(log_key(game_id))
    pipe.xrange(events_key(game_id))
    doc, state, log, entries = pipe.execute()
    record = GameRecord.from_hash(game_id, doc, state) if doc else None
    return record, merged_events(unpack_log(log), [event_from_entry(i, f) for i, f in entries])


class GameStore:
    def __init__(self, client: Any, *, retention_seconds: int, abandoned_seconds: int, job_shards: int,
                 job_retention_seconds: int = 86_400, request_seconds: int = 600, archive: bool = False):
        self.redis = client
        self.retention_seconds = retention_seconds
        self.abandoned_seconds = abandoned_seconds
        self.job_shards = job_shards
        self.job_retention_seconds = job_retention_seconds  # AI jobs older than this are trimmed from the streams
        # A request id's answer is kept this long after the game's last request: a client retries within seconds
        # (a lost answer, a reconnect), not hours later.
        self.request_seconds = request_seconds
        # A database is configured: the commit that finishes a game puts it on the archive stream and keeps its
        # keys until the archive writer has stored it (then they expire after retention_seconds); a started game
        # does not expire before it finishes, or is ended as abandoned abandoned_seconds after its last change.
        self.archive = archive
        self._commit = client.register_script(resources.files("service").joinpath("commit.lua").read_text())
        self._read = client.register_script(resources.files("service").joinpath("read.lua").read_text())
        # The two scripts of every GetState and MakeMove share one pipelined connection (service/pipelined.py);
        # on a Redis Cluster they go through the cluster client, which routes each to its slot's master.
        self._pipelined = None
        if isinstance(client, aioredis.Redis):
            pool = client.connection_pool
            self._pipelined = PipelinedConnection(pool, pool.connection_kwargs.get("socket_timeout") or 5.0)

    @classmethod
    def from_url(cls, url: str, *, cluster: bool = False, max_connections: int = 48, **kwargs: int) -> GameStore:
        # A blocking pool: past `max_connections` a call waits (up to 5 s) for one instead of opening another, so
        # a burst of callers cannot take the Redis server's connections; the watch feed holds at most one per job
        # shard. (On Cluster: per node, and past them it fails.)
        client = redis_client.connect_async(url, cluster=cluster, max_connections=max_connections, socket_timeout=5,
                                            socket_connect_timeout=2, health_check_interval=10)
        return cls(client, **kwargs)

    async def close(self) -> None:
        if self._pipelined is not None:
            await self._pipelined.close()
        await redis_client.close_async(self.redis)

    async def _run(self, script: AsyncScript, keys: list[str], args: list[Any]) -> Any:
        """Run one of the store's scripts (EVALSHA; loaded again if Redis has lost it, after a restart)."""
        pipelined = self._pipelined
        if pipelined is None:
            return await script(keys=keys, args=args)
        try:
            return await pipelined.execute("EVALSHA", script.sha, len(keys), *keys, *args)
        except redis.exceptions.NoScriptError:
            await pipelined.execute("SCRIPT", "LOAD", script.script)
            return await pipelined.execute("EVALSHA", script.sha, len(keys), *keys, *args)

    def script(self, source: str) -> Callable[[list[str], list[Any]], Awaitable[Any]]:
        """A Lua script of another module (the timekeeper's), run as the store runs its own: over the pipelined
        connection, and loaded again if Redis has lost it."""
        script = self.redis.register_script(source)
        return lambda keys, args: self._run(script, keys, args)

    def new_game_id(self) -> tuple[str, int]:
        """A fresh game id on a random job shard, and that shard."""
        shard = secrets.randbelow(self.job_shards)
        return mint_game_id(shard), shard

    async def _timed(self, op: str, call: Callable[[], Awaitable[T]]) -> T:
        """Run one Redis call, timing it; an unreachable Redis becomes UNAVAILABLE (REDIS_UNAVAILABLE), a full one
        (used memory past `maxmemory`, policy noeviction: "OOM command not allowed ...") RESOURCE_EXHAUSTED
        (STORE_FULL). A refused commit wrote nothing: see the top of commit.lua."""
        started = time.perf_counter()
        try:
            return await call()
        except (*redis_client.UNAVAILABLE, OSError) as exc:
            raise errors.redis_unavailable(type(exc).__name__) from None
        except redis.exceptions.ResponseError as exc:  # OutOfMemoryError, or an "OOM ..." error another way
            if isinstance(exc, redis.exceptions.OutOfMemoryError) or str(exc).startswith("OOM"):
                raise errors.store_full() from None
            raise
        finally:
            metrics.child(metrics.REDIS_DURATION, op).observe(time.perf_counter() - started)

    async def ping(self) -> bool:
        try:
            return bool(await self._timed("ping", self.redis.ping))
        except (errors.ServiceError, redis.exceptions.RedisError):
            return False

    async def load(self, game_id: str, recent_events: int = 0, known: GameRecord | None = None
                   ) -> tuple[GameRecord | None, list[Event]] | None:
        """The game and its last `recent_events` events (oldest first), in one round trip (read.lua); None when
        the game is still exactly `known` (same version and stamp): then nothing else is read or parsed."""
        keys = [game_key(game_id), state_key(game_id), events_key(game_id), log_key(game_id)]
        args = [known.version if known else "", known.stamp if known else "", recent_events]
        reply = await self._timed("load", lambda: self._run(self._read, keys, args))
        if reply == b"SAME":
            return None
        if reply == b"NONE":
            return None, []
        flat, state, entries, log = reply
        record = GameRecord.from_hash(game_id, dict(zip(flat[::2], flat[1::2], strict=True)), state)
        stream = [event_from_entry(i, f) for i, f in reversed(entries)]
        events = merged_events(unpack_log(log), stream)[-recent_events:] if recent_events else []
        return record, events

    async def request_answer(self, game_id: str, seat: int, request_id: str) -> bytes | None:
        """The stored answer to a seat's request id, if that request went through."""

        return await self._timed(
            "request_answer", lambda: self.redis.hget(requests_key(game_id), request_field(seat, request_id))
        )

    async def events(self, game_id: str, after_version: int = 0) -> list[Event]:
        """Every event after `after_version`, oldest first (from the log of a finished game, and the stream)."""
        log, entries = await self._timed("events", lambda: self._log_and_stream(game_id, after_version))
        return merged_events(unpack_log(log), [event_from_entry(i, f) for i, f in entries], after_version)

    async def _log_and_stream(self, game_id: str, after_version: int = 0) -> list[Any]:
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(log_key(game_id))
        pipe.xrange(events_key(game_id), f"({after_version}-1" if after_version else "-", "+")
        return await pipe.execute()

    async def read_events(self, after: dict[str, int], block_ms: int) -> dict[str, list[Event]]:
        """New events of several games (game id -> the version read up to), in one XREAD that waits up to
        `block_ms` for any. On a Redis Cluster the games must share a slot (the games of one job shard do)."""
        streams = {events_key(game_id): f"{version}-1" for game_id, version in after.items()}
        games = {events_key(game_id): game_id for game_id in after}
        reply = await self._timed("wait_events", lambda: self.redis.xread(streams, block=block_ms, count=100))
        found: dict[str, list[Event]] = {}
        for stream, entries in reply or ():
            key = stream.decode() if isinstance(stream, bytes) else stream
            found[games[key]] = [event_from_entry(i, f) for i, f in entries]
        return found

    async def exists(self, game_id: str) -> bool:
        return bool(await self._timed("exists", lambda: self.redis.exists(game_key(game_id))))

    async def commit(
        self,
        game_id: str,
        game_type: str,
        expected_version: int,
        fields: dict[str, str],
        event: dict[str, str],
        *,
        finished: bool = False,
        playing: bool = False,
        request: tuple[int, str, bytes] | None = None,
        jobs: list[dict[str, str]] = (),
        shard: int = 0,
        lobby: str = "",
        deadline: int | None | str = "",
        stamp: str = "",
    ) -> CommitResult:
        """Apply one change if the game is still at `expected_version` (see commit.lua); `shard` is the game's
        job shard (GameRecord.shard), whose slot its id hashes to. `lobby`: "+member" lists a public game in
        the shard's lobby, "-member" unlists it (see lobby_member). `deadline`: the game's earliest turn deadline
        in ms, None when no seat has one any more, "" to leave it as it is. `stamp`: the stamp of the record the
        change was computed from (GameRecord.stamp), checked with the version; "" checks the version only.
        `fields` may hold "seats" (seats_json): it is stored as seat_fields. A change that finishes the game
        also compacts its events into the game's log (one more read before the commit, once per game)."""
        ttl = self.retention_seconds if finished else self.abandoned_seconds
        fields = dict(fields)
        if "seats" in fields:
            fields.update(seat_fields(seats_from_json(fields.pop("seats"))))
        log, stream_length = b"", 0
        if finished:
            raw_log, entries = await self._timed("compact_read", lambda: self._log_and_stream(game_id))
            stream = [event_from_entry(i, f) for i, f in entries]
            new = Event(expected_version + 1, dict(event))
            log, stream_length = pack_log([*merged_events(unpack_log(raw_log), stream), new]), len(stream)
        seat, request_id, answer = request if request else (0, "", b"")
        new_stamp = secrets.token_urlsafe(6)
        now = now_ms()
        keys = [
            game_key(game_id),
            events_key(game_id),
            requests_key(game_id),
            active_key(shard, game_type),
            job_stream(shard),
            lobby_key(shard),
            deadlines_key(shard),
            bulk_stream(shard),
            state_key(game_id),
            log_key(game_id),
            archive_stream(shard),
            abandon_key(shard),
        ]
        args = [
            expected_version,
            json.dumps({name: value for name, value in fields.items() if name != "state"}),
            json.dumps([x for name, value in event.items() if name != "state" for x in (name, value)]),
            request_field(seat, request_id) if request else "",
            answer,
            ttl,
            "active" if playing and not finished else "inactive",
            now + ttl * 1000,
            game_id,
            json.dumps(list(jobs)),
            pack_state(fields["state"]) if "state" in fields else b"",
            pack_state(event["state"]) if "state" in event else b"",
            lobby,
            "-" if deadline is None else str(deadline),
            self.oldest_job_id(),
            stamp,
            new_stamp,
            min(self.request_seconds, ttl),
            log,
            stream_length,
            min(STREAM_LINGER_SECONDS, ttl),
            "1" if self.archive else "",
            now + self.abandoned_seconds * 1000,
        ]
        outcome, value = await self._timed("commit", lambda: self._run(self._commit, keys, args))
        outcome = outcome.decode()
        if outcome == "DUPLICATE":
            return CommitResult(outcome, answer=value)
        return CommitResult(outcome, version=int(value), stamp=new_stamp if outcome == "OK" else "")

    def oldest_job_id(self) -> str:
        """The oldest AI job id to keep, "<ms>-0": a job stream is trimmed by age as jobs are added (a job older
        than the retention is long stale: its game has moved on, or expired)."""
        return f"{now_ms() - self.job_retention_seconds * 1000}-0"

    async def active_games(self, game_type: str) -> int:
        """Games of a type started, not finished and not expired, summed over the shards (the sets are shared by
        every replica)."""
        now = now_ms()

        async def call():
            pipe = self.redis.pipeline(transaction=False)  # on Cluster: split by node, one command per key
            for shard in range(self.job_shards):
                pipe.zremrangebyscore(active_key(shard, game_type), "-inf", now)
                pipe.zcard(active_key(shard, game_type))
            return await pipe.execute()

        return sum(int(n) for n in (await self._timed("active_games", call))[1::2])
