#!lua
-- The shebang line above (Redis 7 script flags; none given, so this is a script that may write, and not allow-oom)
-- makes Redis check its memory before the script runs: when used memory is past `maxmemory` (noeviction) the
-- whole call is refused with an OOM error (the service's RESOURCE_EXHAUSTED, STORE_FULL) and nothing is written,
-- whatever the script would have done. Without the shebang Redis would check only when the script calls its first
-- write (refused then, the script has written nothing; a script that already wrote is never stopped): safe as the
-- script stands, since its first write is the game hash's HSET, but a later edit that put a write Redis does not
-- check (EXPIRE, ZREM, DEL) first would let it run unchecked past the limit. With the shebang the rule holds for the
-- script as a whole. The price: a retried request (DUPLICATE below) on a full store is also refused until there is
-- room again, and Redis 7 is needed (docs/deploy.md asks for Redis 7; Redis 6 cannot load this script).
--
-- Commit one change to a game, atomically: compare-and-set on the version, write the new fields, bump the
-- version, append the event, store the request id's answer, enqueue AI jobs, set expiries, track activity.
-- A game's keys live and go together: hash, state, events and log get the same expiry at every commit, except the
-- stream of a finished game (its events are then in the log; the stream lingers ARGV[21] seconds for live watchers)
-- and the request answers (kept ARGV[18] seconds after the last request: as long as a retry can arrive).
--
-- KEYS[1] game hash            game:{id}
-- KEYS[2] event stream         game:{id}:events   (entry id = "<version>-1")
-- KEYS[3] request answers      game:{id}:requests  (hash: "<seat>:<request id>" -> answer)
-- KEYS[4] active-games zset    tabletop:games_active:{jB}:<type>  (member = game id, score = expiry in ms)
-- KEYS[5] AI job stream        ai:jobs:{jB}
-- KEYS[6] lobby zset           tabletop:lobby:{jB}  (public games not started; member "<type>|<created ms>|<id>")
-- KEYS[7] deadlines zset       tabletop:deadlines:{jB}  (member = game id, score = its earliest turn deadline, ms)
-- KEYS[8] AI bulk job stream   ai:bulk:{jB}  (jobs of games only the AI plays; KEYS[5] has those a person waits on)
-- B is the game's job shard: the game id is minted to hash to the slot of `jB`, so every key of this script shares one
-- Redis Cluster slot (service/store.py mint_game_id).
-- KEYS[9] engine state         game:{id}:state  (zlib bytes of the packed state)
-- KEYS[10] finished game's log game:{id}:log  (zlib of every event, written by the commit that finishes the game)
-- KEYS[11] archive stream      tabletop:archive:{jB}  (finished games for the archive writer, service/archive/)
-- KEYS[12] abandonment zset    tabletop:abandon:{jB}  (with a database: started, unfinished games; member = game id,
--                              score = when the game is abandoned, ms: its last change + TABLETOP_ABANDONED_SECONDS)
-- ARGV[1] expected version (the version the change was computed from)
-- ARGV[2] JSON object of hash fields to set
-- ARGV[3] JSON array of the event's fields and values, alternating (one order for every event of a kind, so that
--         Redis stores the field names once per stream node)
-- ARGV[4] request answer's field "<seat>:<request id>" ("" = no request id)
-- ARGV[5] request answer
-- ARGV[6] TTL of the game's keys, seconds
-- ARGV[7] "active" (keep in the active set until ARGV[8] ms) or "inactive" (not in it: waiting, finished, or only
--         players who left)
-- ARGV[8] expiry in ms since the epoch, for the active set
-- ARGV[9] game id
-- ARGV[10] JSON array of AI jobs (objects of fields; "queue": "bulk" sends one to KEYS[8], else KEYS[5])
-- ARGV[11] the engine state for the hash's "state" field, zlib bytes ("" = unchanged; binary, so not in ARGV[2])
-- ARGV[12] the engine state the event carries, zlib bytes ("" = none)
-- ARGV[13] the lobby: "" (unchanged), "+<member>" (list the game) or "-<member>" (unlist it)
-- ARGV[14] the game's deadline: "" (unchanged), "-" (none now) or the earliest deadline in ms
-- ARGV[15] the oldest job id to keep, "<ms>-0": a job stream is trimmed by age as jobs are added (a job older
--          than that is long stale: its game has moved on, or expired)
-- ARGV[16] expected stamp ("" = check the version only): the stamp of the record the change was computed from
-- ARGV[17] the new stamp (random): version and stamp together name the stored content, even after a Redis that
--          lost its last writes committed a version twice
-- ARGV[18] seconds a request answer is kept after the last request
-- ARGV[19] the log of every event, this one included ("" = the game does not finish: append to the stream only)
-- ARGV[20] with a log: the number of stream entries it was built from (else CONFLICT: build it again)
-- ARGV[21] with a log: seconds the stream is kept for live watchers
-- ARGV[22] "1": a database is configured (the archive); "" = none (finished games expire after ARGV[6] seconds)
-- ARGV[23] with a database: when the game is abandoned if this is its last change (ms since the epoch)
-- Returns {"OK", new version} | {"CONFLICT", current version} | {"DUPLICATE", first answer}

if ARGV[4] ~= "" then
  local first = redis.call("HGET", KEYS[3], ARGV[4])
  if first then
    return {"DUPLICATE", first}
  end
end

local head = redis.call("HMGET", KEYS[1], "version", "stamp")
local current = tonumber(head[1] or "0")
if current ~= tonumber(ARGV[1]) or (ARGV[16] ~= "" and head[2] ~= ARGV[16])
    or (ARGV[19] ~= "" and redis.call("XLEN", KEYS[2]) ~= tonumber(ARGV[20])) then
  return {"CONFLICT", tostring(current)}
end
local version = current + 1

local fields = {"version", tostring(version), "stamp", ARGV[17]}
for name, value in pairs(cjson.decode(ARGV[2])) do
  fields[#fields + 1] = name
  fields[#fields + 1] = value
end
redis.call("HSET", KEYS[1], unpack(fields))
local ttl = tonumber(ARGV[6])
if ARGV[11] ~= "" then
  redis.call("SET", KEYS[9], ARGV[11], "EX", ttl)
else
  redis.call("EXPIRE", KEYS[9], ttl)  -- no-op before the start
end

local event = cjson.decode(ARGV[3])
if ARGV[12] ~= "" then
  event[#event + 1] = "state"
  event[#event + 1] = ARGV[12]
end
redis.call("XADD", KEYS[2], tostring(version) .. "-1", unpack(event))

redis.call("EXPIRE", KEYS[1], ttl)
if ARGV[19] ~= "" then
  redis.call("SET", KEYS[10], ARGV[19], "EX", ttl)
  redis.call("EXPIRE", KEYS[2], tonumber(ARGV[21]))
else
  redis.call("EXPIRE", KEYS[2], ttl)
  redis.call("EXPIRE", KEYS[10], ttl)  -- no-op unless the game finished before (a seat leaving it afterwards)
end

if ARGV[4] ~= "" then
  redis.call("HSET", KEYS[3], ARGV[4], ARGV[5])
  redis.call("EXPIRE", KEYS[3], tonumber(ARGV[18]))
end

if ARGV[7] == "active" then
  redis.call("ZADD", KEYS[4], ARGV[8], ARGV[9])
else
  redis.call("ZREM", KEYS[4], ARGV[9])
end

local lobby = ARGV[13]
if lobby ~= "" then
  if string.sub(lobby, 1, 1) == "+" then
    redis.call("ZADD", KEYS[6], 0, string.sub(lobby, 2))
  else
    redis.call("ZREM", KEYS[6], string.sub(lobby, 2))
  end
end

if ARGV[14] == "-" then
  redis.call("ZREM", KEYS[7], ARGV[9])
elseif ARGV[14] ~= "" then
  redis.call("ZADD", KEYS[7], ARGV[14], ARGV[9])
end

for _, job in ipairs(cjson.decode(ARGV[10])) do
  local entry = {}
  for name, value in pairs(job) do
    if name ~= "queue" then
      entry[#entry + 1] = name
      entry[#entry + 1] = value
    end
  end
  local stream = KEYS[5]
  if job["queue"] == "bulk" then
    stream = KEYS[8]
  end
  redis.call("XADD", stream, "MINID", ARGV[15], "*", unpack(entry))
end

-- The archive (service/archive/, docs/archive.md). The commit that finishes a game (it writes the log) puts the
-- game on the archive stream, atomically with its end, and marks it "archive" = "pending"; while it is pending its
-- hash, state and log do not expire (this or any later commit), so a game cannot expire before the writer has
-- stored it in PostgreSQL. The writer (archived.lua) acknowledges the entry and then lets the keys expire.
-- A started game that has not finished does not expire either: it is in the shard's abandonment set, scored by when
-- it is abandoned (this commit's time + TABLETOP_ABANDONED_SECONDS), and the timekeeper ends it then, with an end
-- commit of its own ("abandoned"), which takes the same path. Every other commit (waiting, finished) leaves the set.
if ARGV[22] == "1" then
  if ARGV[19] ~= "" then
    redis.call("HSET", KEYS[1], "archive", "pending")
    redis.call("XADD", KEYS[11], "*", "game", ARGV[9])
  end
  if redis.call("HGET", KEYS[1], "status") == "in_progress" then
    redis.call("ZADD", KEYS[12], ARGV[23], ARGV[9])
    redis.call("PERSIST", KEYS[1])
    redis.call("PERSIST", KEYS[9])
    redis.call("PERSIST", KEYS[2])
  else
    redis.call("ZREM", KEYS[12], ARGV[9])
  end
  if redis.call("HGET", KEYS[1], "archive") == "pending" then
    redis.call("PERSIST", KEYS[1])
    redis.call("PERSIST", KEYS[9])
    redis.call("PERSIST", KEYS[10])
  end
end

return {"OK", tostring(version)}
