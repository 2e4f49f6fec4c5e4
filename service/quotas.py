"""Caller identity and quotas, kept in Redis so that every replica enforces the same limits.

A caller is named by its API key (metadata `x-api-key`; the keys are configured as sha256 hashes, each with a
name and an optional quota multiplier) or, without a key, by its IP address (the default quota). The AI service
credential is exempt. Each limit is configuration (0 = unlimited):

- games created per window (TABLETOP_QUOTA_CREATE_RATE per TABLETOP_QUOTA_CREATE_WINDOW_SECONDS): a counter per
  window, `tabletop:quota:{<caller>}:created:<window number>`, that expires with its window;
- open games (TABLETOP_QUOTA_OPEN_GAMES): a zset of the caller's game ids scored by when they would be abandoned,
  `tabletop:quota:{<caller>}:open`, pruned of finished and expired games when it reaches the limit;
- concurrent WatchGame streams and SuggestMove calls (TABLETOP_QUOTA_WATCH_STREAMS, TABLETOP_QUOTA_SUGGESTIONS):
  a zset of lease ids scored by expiry, `tabletop:quota:{<caller>}:watch` / `:suggest`; a lease is refreshed
  while its call lives and removed at its end, so the leases of a replica that died run out by themselves.

Every key of a caller shares the hash tag `{<caller>}` (one Redis Cluster slot), and each check-and-take is one Lua
script, so two replicas can never both take the last unit. Over a limit the answer is RESOURCE_EXHAUSTED with an
ErrorInfo reason (QUOTA_*) and a google.rpc.RetryInfo.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc

from service import errors
from service.logs import log
from service.store import GameStore, game_key

if TYPE_CHECKING:
    from service.config import Config

API_KEY_HEADER = "x-api-key"
# The gRPC-Web gateway (gateway/) forwards the browser's address in x-forwarded-for, trusted only beside the secret
# shared through TABLETOP_GATEWAY_FORWARD_SECRET (anyone else could claim any address).
FORWARDED_FOR_HEADER = "x-forwarded-for"
FORWARD_SECRET_HEADER = "x-tabletop-forward-secret"
MAX_API_KEY_LENGTH = 256
KEY_NAME = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
SHA256_HEX = re.compile(r"^[0-9a-f]{64}$")
KEYS_FILE_CHECK_SECONDS = 10.0  # a mounted Secret changes in place: its file is read again when its mtime moves
RESERVATION_MS = 60_000  # an open-game slot taken for a CreateGame still running

# KEYS[1] the window's counter, KEYS[2] the open-games zset. ARGV: rate limit, window ms, open limit, reservation
# member, reservation ms. Returns {"OK"}, {"RATE", retry ms} or {"OPEN", open count}.
TAKE_CREATE = """#!lua
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate, open = tonumber(ARGV[1]), tonumber(ARGV[3])
if rate > 0 then
  local used = tonumber(redis.call('GET', KEYS[1]) or '0')
  if used >= rate then
    local left = redis.call('PTTL', KEYS[1])
    if left < 0 then left = tonumber(ARGV[2]) end
    return {'RATE', left}
  end
end
if open > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  local n = redis.call('ZCARD', KEYS[2])
  if n >= open then return {'OPEN', n} end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[5]), ARGV[4])
  redis.call('PEXPIRE', KEYS[2], math.max(redis.call('PTTL', KEYS[2]), tonumber(ARGV[5])))
end
if rate > 0 then
  if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2])) end
end
return {'OK', 0}
"""

# KEYS[1] the open-games zset. ARGV: reservation member, game id ('' when the creation failed), ms to keep it.
SETTLE_CREATE = """#!lua
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3])) end
end
return 0
"""

# KEYS[1] a lease zset. ARGV: limit, lease id, lease ms. Returns {1, 0} (taken) or {0, retry ms}.
TAKE_LEASE = """#!lua
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.max(0, math.min(lease, tonumber(first[2]) - now))}
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
redis.call('PEXPIRE', KEYS[1], lease)
return {1, 0}
"""

REFRESH_BATCH = 1000  # leases refreshed in one pipeline (Quotas._keep)


@dataclass(frozen=True)
class ApiKey:
    name: str
    multiplier: int = 1


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def parse_api_keys(text: str, source: str = "TABLETOP_API_KEYS") -> dict[str, ApiKey]:
    """`name:sha256hex[:multiplier]` entries, separated by commas or new lines (`#` starts a comment line):
    the sha256 hex digest of each key -> its name and quota multiplier. A malformed entry is a ConfigError."""
    from service.config import ConfigError

    keys: dict[str, ApiKey] = {}
    for line in text.splitlines():
        if line.strip().startswith("#"):
            continue
        for entry in filter(None, (e.strip() for e in line.split(","))):
            parts = entry.split(":")
            if len(parts) not in (2, 3) or not KEY_NAME.match(parts[0]) or not SHA256_HEX.match(parts[1].lower()):
                raise ConfigError(f"{source}: an entry is not name:sha256hex[:multiplier] (name of 1-64 "
                                  f"A-Z a-z 0-9 _ . @ -, 64 hex digits): {entry[:80]!r}")
            multiplier = 1
            if len(parts) == 3:
                try:
                    multiplier = int(parts[2])
                except ValueError:
                    multiplier = 0
                if multiplier < 1:
                    raise ConfigError(f"{source}: the multiplier of {parts[0]!r} is not a whole number >= 1")
            keys[parts[1].lower()] = ApiKey(parts[0], multiplier)
    return keys


def load_api_keys(config: Config) -> dict[str, ApiKey]:
    """The keys of TABLETOP_API_KEYS or of the file TABLETOP_API_KEYS_FILE (not both)."""
    from service.config import ConfigError

    if config.api_keys and config.api_keys_file:
        raise ConfigError("set TABLETOP_API_KEYS or TABLETOP_API_KEYS_FILE, not both")
    if config.api_keys_file:
        try:
            text = open(config.api_keys_file, encoding="utf-8").read()  # noqa: SIM115 - read at once
        except FileNotFoundError:
            # An optional Secret not created (yet): no keys, every caller is anonymous; the file is looked for
            # again every KEYS_FILE_CHECK_SECONDS.
            log.warning("api keys file not found: no API keys", path=config.api_keys_file)
            return {}
        except OSError as exc:
            raise ConfigError(f"TABLETOP_API_KEYS_FILE={config.api_keys_file!r} cannot be read: {exc}") from None
        return parse_api_keys(text, "TABLETOP_API_KEYS_FILE")
    return parse_api_keys(config.api_keys)


@dataclass(frozen=True)
class Identity:
    """Who the caller is for its quotas: `caller` names its Redis keys; None = exempt (the AI credential)."""

    caller: str | None
    multiplier: int = 1

    def limit(self, base: int) -> int:
        return base * self.multiplier


EXEMPT = Identity(None)


def peer_address(peer: str | None) -> str:
    """The IP address of a gRPC peer (`ipv4:1.2.3.4:5678`, `ipv6:[::1]:5678`), else the peer string."""
    peer = peer or "unknown"
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rpartition(":")[0] or rest
    if kind == "ipv6":
        return rest.rpartition("]")[0].lstrip("[") or rest
    return peer


def _tag(caller: str) -> str:
    return re.sub(r"[{}\s]", "_", caller)[:128]


def quota_key(caller: str, what: str) -> str:
    return f"tabletop:quota:{{{_tag(caller)}}}:{what}"


def exhausted(reason: str, message: str, retry_ms: int) -> errors.ServiceError:
    retry = max(1.0, retry_ms / 1000)
    return errors.ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, reason, f"{message}; retry in {retry:g} s",
                               retry_delay=retry)


class Quotas:
    def __init__(self, store: GameStore, config: Config, clock: Callable[[], float] = time.time):
        self.store = store
        self.config = config
        self.clock = clock  # wall-clock seconds, which number the creation windows
        self._keys = load_api_keys(config)
        self._keys_checked = time.monotonic()
        self._keys_mtime = self._mtime()
        redis = store.redis
        self._take_create = redis.register_script(TAKE_CREATE)
        self._settle_create = redis.register_script(SETTLE_CREATE)
        self._take_lease = redis.register_script(TAKE_LEASE)
        # The leases this replica holds, (key, lease id), all kept alive by one task (`_keep`), not one task each.
        self._held: dict[tuple[str, str], None] = {}
        self._keeper: asyncio.Task | None = None

    def _mtime(self) -> float | None:
        if not self.config.api_keys_file:
            return None
        with contextlib.suppress(OSError):
            return os.stat(self.config.api_keys_file).st_mtime
        return None

    def _api_keys(self) -> dict[str, ApiKey]:
        """The configured keys; a keys file is read again once it changed (a Secret's keys rotate in place)."""
        if self.config.api_keys_file and time.monotonic() - self._keys_checked > KEYS_FILE_CHECK_SECONDS:
            self._keys_checked = time.monotonic()
            mtime = self._mtime()
            if mtime != self._keys_mtime:
                try:
                    self._keys = load_api_keys(self.config)
                    self._keys_mtime = mtime
                except ValueError as exc:  # keep the keys we had
                    log.error("api keys file unreadable", error=str(exc))
        return self._keys

    def identify(self, metadata: Iterable[tuple[str, Any]] | None, peer: str | None) -> Identity:
        """The caller of a call: its API key's name, the AI service (exempt), or its IP address. An unknown or
        malformed key is UNAUTHENTICATED (INVALID_API_KEY)."""
        api_key = None
        bearer = None
        forwarded_for = forward_secret = None
        for key, value in metadata or ():
            if isinstance(value, bytes):
                continue
            if key == API_KEY_HEADER:
                api_key = value.strip()
            elif key == "authorization":
                bearer = value.strip().partition(" ")[2].strip()
            elif key == FORWARDED_FOR_HEADER:
                forwarded_for = value.strip()
            elif key == FORWARD_SECRET_HEADER:
                forward_secret = value
        token = self.config.ai_service_token
        if token and bearer and secrets.compare_digest(bearer.encode(), token.encode()):
            return EXEMPT
        if api_key is not None:
            known = self._api_keys().get(key_hash(api_key)) if 0 < len(api_key) <= MAX_API_KEY_LENGTH else None
            if known is None:
                raise errors.unauthenticated("INVALID_API_KEY", f"the {API_KEY_HEADER} metadata is not a known key")
            return Identity(f"key:{known.name}", known.multiplier)
        secret = self.config.gateway_forward_secret
        if secret and forwarded_for and forward_secret and \
                secrets.compare_digest(forward_secret.encode(), secret.encode()):
            return Identity(f"ip:{forwarded_for[:64]}")  # a browser's address, vouched for by our gateway
        return Identity(f"ip:{peer_address(peer)}")

    @contextlib.asynccontextmanager
    async def creating(self, who: Identity) -> AsyncIterator[Creation]:
        """Take one game creation (rate and open games) for the block; the block reports the new game's id with
        `creation.done(game_id)`. A block that fails gives the open-game slot back (the rate unit stays used)."""
        rate = who.limit(self.config.quota_create_rate)
        open_limit = who.limit(self.config.quota_open_games)
        creation = Creation()
        if who.caller is None or not (rate or open_limit):
            yield creation
            return
        window_ms = max(1, int(self.config.quota_create_window_seconds * 1000))
        window = int(self.clock() * 1000) // window_ms
        rate_key = quota_key(who.caller, f"created:{window}")
        open_key = quota_key(who.caller, "open")
        reservation = "reserved:" + secrets.token_hex(8)
        for attempt in range(2):
            outcome, value = await self.store._timed("quota_create", lambda: self._take_create(
                keys=[rate_key, open_key], args=[rate, window_ms, open_limit, reservation, RESERVATION_MS]))
            outcome = outcome.decode() if isinstance(outcome, bytes) else outcome
            if outcome == "RATE":
                raise exhausted("QUOTA_CREATE_RATE", f"at most {rate} games may be created per "
                                f"{self.config.quota_create_window_seconds:g} s", int(value))
            if outcome == "OK":
                break
            if attempt == 0 and await self._prune_open(open_key):
                continue
            raise exhausted("QUOTA_OPEN_GAMES", f"at most {open_limit} unfinished games may be open at once: "
                            "finish, resign or abandon one", int(self.config.quota_create_window_seconds * 1000))
        game_id = ""
        try:
            yield creation
            game_id = creation.game_id
        finally:
            if open_limit:
                keep_ms = self.config.abandoned_seconds * 1000
                with contextlib.suppress(errors.ServiceError):  # a reservation left behind runs out by itself
                    await self.store._timed("quota_settle", lambda: self._settle_create(
                        keys=[open_key], args=[reservation, game_id, keep_ms]))

    async def _prune_open(self, open_key: str) -> bool:
        """Drop the games of an open-games zset that finished or expired; whether any was dropped."""
        members = [m.decode() for m in await self.store._timed("quota_open", lambda: self.store.redis.zrange(
            open_key, 0, -1))]
        games = [m for m in members if not m.startswith("reserved:")]
        if not games:
            return False

        async def statuses():
            pipe = self.store.redis.pipeline(transaction=False)  # on Cluster: split by node
            for game_id in games:
                pipe.hget(game_key(game_id), "status")
            return await pipe.execute()

        done = [g for g, status in zip(games, await self.store._timed("quota_open", statuses), strict=True)
                if status in (None, b"finished")]
        if done:
            await self.store._timed("quota_open", lambda: self.store.redis.zrem(open_key, *done))
        return bool(done)

    @contextlib.asynccontextmanager
    async def lease(self, who: Identity, kind: str) -> AsyncIterator[None]:
        """Hold one of the caller's concurrent `kind` ("watch" or "suggest") slots for the block."""
        base = self.config.quota_watch_streams if kind == "watch" else self.config.quota_suggestions
        limit = who.limit(base)
        if who.caller is None or not limit:
            yield
            return
        key = quota_key(who.caller, kind)
        lease_id = secrets.token_hex(8)
        lease_ms = max(1000, int(self.config.quota_lease_seconds * 1000))
        taken, retry_ms = await self.store._timed("quota_lease", lambda: self._take_lease(
            keys=[key], args=[limit, lease_id, lease_ms]))
        if not int(taken):
            if kind == "watch":
                raise exhausted("QUOTA_WATCH_STREAMS", f"at most {limit} WatchGame streams may be open at once",
                                int(retry_ms))
            raise exhausted("QUOTA_SUGGESTIONS", f"at most {limit} SuggestMove calls may run at once", int(retry_ms))
        held = (key, lease_id)
        self._held[held] = None
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep(lease_ms))
        try:
            yield
        finally:
            del self._held[held]
            if not self._held and self._keeper is not None:
                self._keeper.cancel()
                self._keeper = None
            with contextlib.suppress(errors.ServiceError, Exception):  # an unremoved lease runs out by itself
                await self.store._timed("quota_release", lambda: self.store.redis.zrem(key, lease_id))

    async def _keep(self, lease_ms: int) -> None:
        """Keep every lease this replica holds alive: each third of a lease, all of them in pipelines of
        REFRESH_BATCH, at Redis's clock (as they were taken). One task and a round trip per batch, where a task
        each would give 5,000 streams 5,000 timers and 500 Redis calls a second (at the default 30 s lease)."""
        while True:
            await asyncio.sleep(lease_ms / 3000)
            held = list(self._held)
            try:
                await self.store._timed("quota_refresh", lambda held=held: self._refresh(held, lease_ms))
            except Exception as exc:  # noqa: BLE001 - Redis away for a while: the next refresh may do
                log.warning("quota leases not refreshed", leases=len(held), error=type(exc).__name__)

    async def _refresh(self, held: list[tuple[str, str]], lease_ms: int) -> None:
        redis = self.store.redis
        seconds, micros = await redis.time()
        until = int(seconds) * 1000 + int(micros) // 1000 + lease_ms
        for start in range(0, len(held), REFRESH_BATCH):
            pipe = redis.pipeline(transaction=False)  # on Cluster: split by node
            for key, lease_id in held[start:start + REFRESH_BATCH]:
                pipe.zadd(key, {lease_id: until}, xx=True)  # only a lease still there: a released one stays gone
                pipe.pexpire(key, lease_ms)
            await pipe.execute()


class Creation:
    """What a CreateGame under a quota reports: the id of the game it made."""

    def __init__(self) -> None:
        self.game_id = ""

    def done(self, game_id: str) -> None:
        self.game_id = game_id
