"""The timekeeper: the game service's replicas act for the seats whose turn deadline has passed, AI workers or not.

Every game's earliest turn deadline is in its job shard's sorted set (store.deadlines_key; score: ms since the
epoch), written by the same commit as the change that set it. Each replica runs a Timekeeper task. One replica at
a time keeps a shard's time, under a lease in Redis (store.timekeeper_key), renewed at every sweep: when its
holder dies, another replica takes the shard over within LEASE_MS or so; a replica that stops hands its leases
back at once. The holder claims each due game by moving its score CLAIM_MS into the future, in the script that
checks the lease (a replica that lost its lease claims nothing; one that dies mid-way leaves the game due again
when the claim runs out), reads the game, and for each seat whose deadline has passed:

- the timer forfeits: the seat resigns (Seats.forfeit), one compare-and-set commit like a player's own Resign;
- the AI moves: an AI job for the seat at the game's version goes on the shard's job stream, as an AI seat's does,
  with `timeout:` before its id, and the game's next deadline goes back in the set, in one script that first
  checks that the game is still at that version. A worker makes the move with `expected_version` and the job id
  as its request id, so it goes through the same compare-and-set as the player's own and is never applied twice
  (the service lets the AI credential act for a seat once its deadline has passed); that commit counts the
  seat's missed turn and marks it away after `away_after` of them (Play.make_move). With no worker running the
  job waits in its stream, as an AI seat's does, and the player may still move meanwhile.

Any commit of the game sets its next deadline. Why in the service's replicas and not in a process of its own:
docs/resilience.md, "Turn timers".

With a database (the archive), the same sweep ends abandoned games. Every commit of a started, unfinished game
scores it in its shard's abandonment set (store.abandon_key) by when it is abandoned: that commit's time +
abandoned_seconds; such a game's keys do not expire meanwhile (commit.lua). Without a database the set stays empty
and unfinished games expire as they always did. The lease holder claims each game due as it claims deadlines (in
the same script call), reads it, and when its last change (its last event's time) is that old, ends it: one end
commit, a compare-and-set on the version and stamp it read, with the event "abandoned" and the hash field outcome =
"abandoned", which puts it on the archive stream like any end (docs/archive.md, "Abandoned games"). A change racing
it (a move, another replica's end) wins or loses as a whole, so a game is ended once; a game changed since it was
scored goes back in the set at its new time; a replica that dies after its claim leaves the game due again when the
claim runs out.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import time
from collections.abc import Callable

from service import errors, logs, metrics
from service.logs import log
from service.seats import Seats
from service.store import abandon_key, deadlines_key, game_key, now_ms, timekeeper_key
from service.tables import COMMIT_ATTEMPTS, RECENT_EVENTS, Tables, ai_job, is_late
from tabletop.job_shards import job_stream

LEASE_MS = 5_000  # a shard's lease outlives its holder's last sweep by this long
CLAIM_MS = 10_000  # a claimed game is due again after this long, unless a commit moved its deadline meanwhile
SWEEP_SECONDS = 0.25  # how often the holder looks for due games: a late seat is acted for about this late at most
BATCH = 20  # games claimed by one call of the script

# KEYS[1] the shard's timekeeper lease, KEYS[2] the shard's deadlines, KEYS[3] the shard's abandonment set;
# ARGV[1] this replica's name, ARGV[2] the lease's length (ms), ARGV[3] now (ms), ARGV[4] the claim's end (ms),
# ARGV[5] at most this many games of each set. Returns false (nil) when another replica holds the lease, else the
# claimed games of each set, {late, abandoned}: due ones, now scored the claim's end.
CLAIM = """
local holder = redis.call("GET", KEYS[1])
if holder and holder ~= ARGV[1] then
  return false
end
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
local function claim(set)
  local due = redis.call("ZRANGEBYSCORE", set, "-inf", ARGV[3], "LIMIT", 0, tonumber(ARGV[5]))
  for _, game in ipairs(due) do
    redis.call("ZADD", set, ARGV[4], game)
  end
  return due
end
return {claim(KEYS[2]), claim(KEYS[3])}
"""

# KEYS[1] the shard's deadlines (or its abandonment set, without jobs), KEYS[2] the game's hash, KEYS[3] the shard's
# job stream (games a person plays in);
# ARGV[1] game id, ARGV[2] the claim's end, ARGV[3] the game's next time in the set ("": none), ARGV[4] the version the
# jobs are for ("": no jobs), ARGV[5] the oldest job id to keep, ARGV[6...] the jobs, JSON objects of fields.
# Enqueues the jobs if the game is still at that version, then puts its next deadline in place of the claim, unless
# a commit has set the deadline meanwhile. Returns 0 when the game had moved on (nothing done), else 1.
SETTLE = """
if ARGV[4] ~= "" then
  if redis.call("HGET", KEYS[2], "version") ~= ARGV[4] then
    return 0
  end
  for i = 6, #ARGV do
    local entry = {}
    for name, value in pairs(cjson.decode(ARGV[i])) do
      if name ~= "queue" then
        entry[#entry + 1] = name
        entry[#entry + 1] = value
      end
    end
    redis.call("XADD", KEYS[3], "MINID", ARGV[5], "*", unpack(entry))
  end
end
if redis.call("ZSCORE", KEYS[1], ARGV[1]) == ARGV[2] then
  if ARGV[3] == "" then
    redis.call("ZREM", KEYS[1], ARGV[1])
  else
    redis.call("ZADD", KEYS[1], ARGV[3], ARGV[1])
  end
end
return 1
"""

# KEYS[1] a shard's timekeeper lease; ARGV[1] this replica's name. Gives the lease back if this replica holds it.
LET_GO = """
if redis.call("GET", KEYS[1]) == ARGV[1] then
  redis.call("DEL", KEYS[1])
end
return 0
"""


class Timekeeper:
    """Acts for late seats, and ends abandoned games (with a database), on the shards whose lease this replica
    holds; `run` is the replica's background task."""

    def __init__(self, tables: Tables, seats: Seats, shards: int, clock: Callable[[], int] = now_ms,
                 lease_ms: int = LEASE_MS):
        self.tables = tables
        self.seats = seats
        self.store = tables.store
        self.shards = shards
        self.clock = clock  # ms since the epoch, as the commits that set the deadlines read it
        self.lease_ms = lease_ms
        # Unique per process: a replica restarted with the same pid must not take its predecessor's lease for its own.
        self.name = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.held: set[int] = set()
        self._ask_again = [0.0] * shards  # monotonic time after which a shard held by another replica is asked for
        self._claim = self.store.script(CLAIM)
        self._settle = self.store.script(SETTLE)
        self._let_go = self.store.script(LET_GO)

    async def run(self) -> None:
        """Sweep until cancelled, then hand the leases back."""
        try:
            while True:
                try:
                    await self.sweep()
                except Exception as exc:  # noqa: BLE001 - Redis down, say: the next sweep tries again
                    log.warning("timekeeper sweep failed", error=f"{type(exc).__name__}: {exc}")
                await asyncio.sleep(SWEEP_SECONDS)
        finally:
            await self.let_go()

    async def sweep(self) -> int:
        """Act for the late seats of every game due now on the shards this replica keeps the time of (taking the
        lease of any shard no replica holds), and end the games abandoned by now (with a database); return how many
        games were handled."""
        handled = 0
        shards = [shard for shard in range(self.shards) if time.monotonic() >= self._ask_again[shard]]
        while shards:
            now = self.clock()
            claim_end = now + CLAIM_MS
            # Every shard's claim at once: the calls go out together on the store's pipelined connection, so an
            # idle sweep costs one round trip, not one per shard.
            claims = await asyncio.gather(*(
                self._claim([timekeeper_key(shard), deadlines_key(shard), abandon_key(shard)],
                            [self.name, self.lease_ms, now, claim_end, BATCH])
                for shard in shards
            ))
            full = []
            for shard, claimed in zip(shards, claims, strict=True):
                if claimed is None:  # another replica keeps this shard's time
                    self.held.discard(shard)
                    self._ask_again[shard] = time.monotonic() + self.lease_ms / 2000
                    continue
                self.held.add(shard)
                due, idle = claimed
                for game_id in due:
                    await self._handle(shard, game_id.decode(), now, claim_end)
                for game_id in idle:
                    await self._handle_idle(shard, game_id.decode(), now, claim_end)
                handled += len(due) + len(idle)
                if BATCH in (len(due), len(idle)):  # more may be due: claimed again at once
                    full.append(shard)
            shards = full
        metrics.TIMEKEEPER_SHARDS.set(len(self.held))
        return handled

    async def let_go(self) -> None:
        """Hand back the leases this replica holds, so that another replica keeps their time at once."""
        for shard in sorted(self.held):
            try:
                await self._let_go([timekeeper_key(shard)], [self.name])
            except Exception as exc:  # noqa: BLE001 - Redis gone: the lease runs out by itself
                log.warning("timekeeper lease not handed back", shard=shard, error=f"{type(exc).__name__}: {exc}")
        self.held.clear()
        metrics.TIMEKEEPER_SHARDS.set(0)

    async def _handle(self, shard: int, game_id: str, now: int, claim_end: int) -> None:
        logs.new_call()  # this game's fields on its log lines, and none of the game before
        logs.bind(game_id=game_id)
        try:
            await self.late(shard, game_id, now, claim_end)
        except Exception as exc:  # noqa: BLE001 - the claim runs out and the game is due again: tried again then
            metrics.TURN_TIMEOUTS.labels("failed").inc()
            log.error("turn timeout failed", error=f"{type(exc).__name__}: {exc}")

    async def _handle_idle(self, shard: int, game_id: str, now: int, claim_end: int) -> None:
        logs.new_call()
        logs.bind(game_id=game_id)
        try:
            await self.abandon(shard, game_id, now, claim_end)
        except Exception as exc:  # noqa: BLE001 - the claim runs out and the game is due again: tried again then
            log.error("abandoning a game failed", error=f"{type(exc).__name__}: {exc}")

    async def abandon(self, shard: int, game_id: str, now: int, claim_end: int) -> str:
        """End a claimed game of the abandonment set if nothing has changed in it for the store's abandoned_seconds
        at `now`: "abandoned" (this call ended it), "active" (changed since it was scored: back in the set at its
        new time), "over" (finished or gone meanwhile: out of the set)."""
        idle_ms = self.store.abandoned_seconds * 1000
        for _ in range(COMMIT_ATTEMPTS):
            try:
                table = await self.tables.load(game_id, RECENT_EVENTS)
            except errors.ServiceError as exc:
                if exc.reason != "GAME_NOT_FOUND":
                    raise
                await self._settle_idle(shard, game_id, claim_end, None)
                return "over"
            record = table.record
            if record.status != "in_progress":  # ended by another replica, or by its players, since its claim
                await self._settle_idle(shard, game_id, claim_end, None)
                return "over"
            # Its last change: the last event's time (every commit appends one), not the set's score, which a
            # replica of an older release may not have moved.
            last = int(table.events[-1].get("at") or 0) if table.events else record.created_ms
            if last + idle_ms > now:
                await self._settle_idle(shard, game_id, claim_end, last + idle_ms)
                return "active"
            fields = {"status": "finished", "outcome": "abandoned"}
            event = {"kind": "abandoned", "at": str(now_ms()), "over": "1"}
            if record.timer is not None:  # no seat has a clock any more
                fields["deadlines"] = event["deadlines"] = "{}"
            result = await self.store.commit(game_id, record.game_type, record.version, fields, event,
                                             finished=True, shard=record.shard, deadline=None, stamp=record.stamp)
            if result.outcome == "OK":  # the commit took it out of the set and put it on the archive stream
                if not self.store.archive:  # a database turned off since: the commit left the set alone
                    await self._settle_idle(shard, game_id, claim_end, None)
                metrics.GAMES_ABANDONED.labels(record.game_type).inc()
                log.info("game abandoned", last_change_ms=last, version=result.version)
                return "abandoned"
            metrics.VERSION_CONFLICTS.inc()  # it changed meanwhile: read again
        raise errors.contended()

    async def late(self, shard: int, game_id: str, now: int, claim_end: int) -> None:
        """Act for the seats of a claimed game whose deadline had passed at `now`."""
        try:
            table = await self.tables.load(game_id)
        except errors.ServiceError as exc:
            if exc.reason != "GAME_NOT_FOUND":
                raise
            await self._settle_deadline(shard, game_id, claim_end, None)  # expired: forget its deadline
            return
        record = table.record
        deadlines = record.deadlines if record.status == "in_progress" else {}
        late = sorted(seat for seat in deadlines if is_late(record, seat, now))
        upcoming = min((deadlines[seat] for seat in deadlines if seat not in late), default=None)
        if not late:  # changed since the claim (its commit set the deadline), or finished: nothing to do
            await self._settle_deadline(shard, game_id, claim_end, upcoming)
            return
        if record.timer.on_timeout == "forfeit":
            for seat in late:  # each resignation's commit sets the game's next deadline
                outcome = "forfeited" if await self.seats.forfeit(game_id, seat, now) else "stale"
                metrics.TURN_TIMEOUTS.labels(outcome).inc()
                log.info("turn timeout", seat=seat, outcome=outcome)
            return
        jobs = [ai_job(record, record.version, seat, "human", cause="timeout") for seat in late]
        outcome = "ai_job" if await self._settle_deadline(shard, game_id, claim_end, upcoming, record.version, jobs) \
            else "stale"
        metrics.TURN_TIMEOUTS.labels(outcome).inc(len(late))
        log.info("turn timeout", seats=late, outcome=outcome)

    async def _settle_deadline(self, shard: int, game_id: str, claim_end: int, upcoming: int | None,
                               version: int | None = None, jobs: list[dict[str, str]] = ()) -> bool:
        """Put the game's next deadline in place of the claim (unless a commit set it meanwhile), after enqueuing
        `jobs` for `version`; False, and nothing done, if the game has moved on from `version`."""
        args = [game_id, claim_end, "" if upcoming is None else upcoming, "" if version is None else version,
                self.store.oldest_job_id(), *(json.dumps(job) for job in jobs)]
        keys = [deadlines_key(shard), game_key(game_id), job_stream(shard)]
        return bool(await self._settle(keys, args))

    async def _settle_idle(self, shard: int, game_id: str, claim_end: int, due: int | None) -> None:
        """Put a game of the abandonment set back at `due` (None: take it out) in place of the claim, unless a
        commit has scored it meanwhile."""
        args = [game_id, claim_end, "" if due is None else due, "", ""]
        await self._settle([abandon_key(shard), game_key(game_id), job_stream(shard)], args)
