"""Turn timers: the worker finds the games whose turn deadline has passed and acts for the late seats.

The game service keeps each game's earliest turn deadline in the shard's sorted set `tabletop:deadlines:{jB}`
(score: ms since the epoch), in the same commit as the change that set it. A worker claims a due game by moving
its score a lease into the future (one Lua script: two workers never claim the same game at once; a worker that
dies mid-way leaves the game due again when the lease runs out). It then reads the game as a spectator to see
which seats are late, and for each one, with the AI service credential (the service lets it act for a seat only
once that seat's deadline has passed): makes the AI's move (expected_version, request_id `timeout:...`, so the
move goes through the same compare-and-set as the player's own and is never applied twice), or resigns the seat
when the game's timer forfeits. The service's commit of that change sets the game's next deadline.
"""

from __future__ import annotations

import time

import grpc
import structlog

from ai.worker_metrics import TURN_TIMEOUTS
from tabletop.job_shards import deadlines_key
from tabletop.v1 import game_service_pb2 as pb

log = structlog.get_logger("tabletop.ai")

LEASE_MS = 10_000  # a claimed game is due again after this long, unless its deadline moved meanwhile
BATCH = 20

# KEYS[1] the deadlines zset; ARGV[1] now (ms), ARGV[2] the lease's end (ms), ARGV[3] at most this many.
# Returns the claimed game ids: due ones, whose score is now the lease's end.
CLAIM = """
local due = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "LIMIT", 0, tonumber(ARGV[3]))
for _, game in ipairs(due) do
  redis.call("ZADD", KEYS[1], ARGV[2], game)
end
return due
"""

# KEYS[1] the deadlines zset; ARGV[1] game id, ARGV[2] the lease's end we set, ARGV[3] the real next deadline.
# Puts back a game claimed too early (no seat was late yet), unless a commit moved its deadline meanwhile.
RELEASE = """
if redis.call("ZSCORE", KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call("ZADD", KEYS[1], ARGV[3], ARGV[1])
end
return 0
"""


class Timekeeper:
    """Acts for late seats; `sweep` is called from the job consumer's loop."""

    def __init__(self, consumer):
        self.consumer = consumer
        self.redis = consumer.redis
        self.keys = [deadlines_key(b) for b in range(consumer.config.job_shards)]
        self._claim = self.redis.register_script(CLAIM)
        self._release = self.redis.register_script(RELEASE)

    def sweep(self) -> int:
        """Handle every game now due on every shard; return how many were handled."""
        handled = 0
        for key in self.keys:
            now = int(time.time() * 1000)
            for game_id in self._claim(keys=[key], args=[now, now + LEASE_MS, BATCH]):
                lease_end = now + LEASE_MS
                with structlog.contextvars.bound_contextvars(game_id=game_id):
                    try:
                        self.late(game_id, key, lease_end)
                    except Exception as exc:  # noqa: BLE001 - the lease brings it back; another sweep retries
                        TURN_TIMEOUTS.labels("failed").inc()
                        log.error("turn timeout failed", error=f"{type(exc).__name__}: {exc}")
                handled += 1
        return handled

    def late(self, game_id: str, key: str, lease_end: int) -> None:
        stub, call = self.consumer.stub, self.consumer._call
        try:
            state = call(stub.GetState, pb.GetStateRequest(game_id=game_id), ()).state
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:  # expired: forget its deadline
                self.redis.zrem(key, game_id)
                return
            raise
        if state.status != pb.GAME_STATUS_IN_PROGRESS:
            self.redis.zrem(key, game_id)
            return
        now = int(time.time() * 1000)
        late = [s.seat for s in state.seats if s.HasField("deadline_unix_ms") and s.deadline_unix_ms <= now]
        if not late:  # claimed a little early (clocks): put the real deadline back
            pending = [s.deadline_unix_ms for s in state.seats if s.HasField("deadline_unix_ms")]
            if pending:
                self._release(keys=[key], args=[game_id, lease_end, min(pending)])
            else:
                self.redis.zrem(key, game_id)
            return
        for seat in late:
            if state.timer.on_timeout == pb.TIMEOUT_POLICY_FORFEIT:
                self.forfeit(game_id, seat)
            else:
                outcome = self.consumer.play({
                    "game_id": game_id, "game_type": state.game_type, "seat": str(seat),
                    "version": str(state.version), "job_id": f"timeout:{game_id}:{state.version}:{seat}",
                })
                TURN_TIMEOUTS.labels(outcome).inc()
                log.info("turn timeout", seat=seat, outcome=outcome)
                if outcome == "moved":
                    return  # the game moved on: its next deadlines are the service's to set

    def forfeit(self, game_id: str, seat: int) -> None:
        metadata = self.consumer.metadata(seat)
        try:
            self.consumer._call(self.consumer.stub.Resign, pb.ResignRequest(game_id=game_id), metadata)
            TURN_TIMEOUTS.labels("forfeited").inc()
            log.info("turn timeout: seat forfeited", seat=seat)
        except grpc.RpcError as exc:
            if exc.code() not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.PERMISSION_DENIED):
                raise
            log.info("turn timeout: nothing to forfeit", seat=seat, reason=exc.details())
