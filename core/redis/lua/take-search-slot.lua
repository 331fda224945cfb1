-- Takes one of a user's search slots, and reads whether the user is marked out of credit.
-- KEYS[1]: the user's slots, a sorted set of slot tokens scored by their expiry (ms); expired ones are dropped
--          first, so a process that dies mid-search frees its slot after the ttl instead of never.
-- KEYS[2]: the user's out-of-credit mark (api/admission/user-slots.ts).
-- KEYS[3]: the user's given-up tokens, scored by their expiry (give-up-search-slot.lua): a take its caller gave
--          up on (no reply in time) may still reach Redis later, and then takes nothing.
-- ARGV[1]: now (ms); ARGV[2]: the most slots a user holds; ARGV[3]: the new slot's token; ARGV[4]: its ttl (ms).
-- Returns {1, marked} with the slot taken (marked: 1 or 0), {0} when every slot is in use or the token was given up.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[3], ARGV[3]) then
  return {0}
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return {0}
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[4]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, redis.call('EXISTS', KEYS[2])}
