-- The archive writer has stored a game in PostgreSQL (service/archive/writer.py): acknowledge its entry on the
-- archive stream, delete the entry, and only then let the game's keys expire, atomically.
-- KEYS[1] archive stream  tabletop:archive:{jB}
-- KEYS[2] game hash       game:{id}
-- KEYS[3] engine state    game:{id}:state
-- KEYS[4] log             game:{id}:log
-- ARGV[1] consumer group, ARGV[2] entry id, ARGV[3] seconds the game's keys are kept now
-- Returns the number of entries acknowledged (0: another writer did it first)
local acked = redis.call("XACK", KEYS[1], ARGV[1], ARGV[2])
redis.call("XDEL", KEYS[1], ARGV[2])
if redis.call("HGET", KEYS[2], "archive") == "pending" then
  redis.call("HSET", KEYS[2], "archive", "done")
  local ttl = tonumber(ARGV[3])
  redis.call("EXPIRE", KEYS[2], ttl)
  redis.call("EXPIRE", KEYS[3], ttl)
  redis.call("EXPIRE", KEYS[4], ttl)
end
return acked
