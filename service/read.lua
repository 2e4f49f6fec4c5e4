#!lua flags=no-writes
-- Read a game in one round trip, or only learn that it has not changed.
--
-- KEYS[1] game hash  KEYS[2] engine state  KEYS[3] event stream  KEYS[4] finished game's log (see commit.lua)
-- ARGV[1] the version the caller holds ("" = none), ARGV[2] its stamp
-- ARGV[3] how many of the latest events to return (0 = none)
-- Returns "NONE" (no such game) | "SAME" (still at that version and stamp) |
--         {hash fields and values, state ("" before the start), latest events newest first, log ("" unless the
--          stream holds fewer events than asked for)}

local head = redis.call("HMGET", KEYS[1], "version", "stamp")
if not head[1] then
  return "NONE"
end
if head[1] == ARGV[1] and head[2] == ARGV[2] then
  return "SAME"
end
local count = tonumber(ARGV[3])
local recent = {}
if count > 0 then
  recent = redis.call("XREVRANGE", KEYS[3], "+", "-", "COUNT", count)
end
local log = ""
if #recent < count then
  log = redis.call("GET", KEYS[4]) or ""
end
return {redis.call("HGETALL", KEYS[1]), redis.call("GET", KEYS[2]) or "", recent, log}
