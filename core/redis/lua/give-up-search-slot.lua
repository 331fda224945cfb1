-- Gives up a search slot whose take or release got no reply in time: frees it if it was taken, and keeps its
-- token for the slot's ttl, so a take still on its way to Redis takes nothing when it arrives.
-- KEYS[1]: the user's slots (take-search-slot.lua); KEYS[2]: the user's given-up tokens, scored by their expiry.
-- ARGV[1]: now (ms); ARGV[2]: the token; ARGV[3]: the slot's ttl (ms).
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
redis.call('ZADD', KEYS[2], tonumber(ARGV[1]) + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
