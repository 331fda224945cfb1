import type { RedisClient } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { viaRedis } from '../../core/unavailable';
import { outOfCreditKey } from './out-of-credit';
import { DEFAULT_SLOT_TTL_MS, slotKey, slotTakeArgs, slotTakeLua } from './user-slots';

/**
 * The per-user request rate, a fixed one-minute window counted in Redis. The key and the counting are those of
 * rate-limiter-flexible's RateLimiterRedis (`<prefix>:user-rate:<id>`, SET NX EX, INCRBY, PTTL), which
 * POST /api/schedule's middleware uses, so both routes draw on one budget.
 */
export const userRateKeyPrefix = (prefix: string) => `${prefix}:user-rate`;
const RATE_WINDOW_S = 60;

// KEYS[1] the rate window, KEYS[2] the user's slots, KEYS[3] the user's out-of-credit mark (out-of-credit.ts); all
// under the queue prefix's hash tag, so one Cluster slot. A request over the rate takes no search slot (as when
// the rate limit ran as a middleware before it). An admitted request learns whether its user is marked.
const ADMIT = redisScript(
  `
redis.call('SET', KEYS[1], 0, 'EX', ARGV[1], 'NX')
local used = redis.call('INCRBY', KEYS[1], 1)
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
  ttl = 1000 * ARGV[1]
end
if used > tonumber(ARGV[2]) then return {0, ttl} end
${slotTakeLua(2, 3)}
return {1, slot, redis.call('EXISTS', KEYS[3])}`,
  3,
);

export type Admission =
  | { kind: 'too_fast'; msBeforeNext: number }
  | { kind: 'busy' }
  /** `creditLikely`: the user has no out-of-credit mark, so Gemini is asked while the credit is taken. */
  | { kind: 'admitted'; token: string; creditLikely: boolean };

/**
 * One Redis round trip before an ask: counts it against the user's request rate and, within it, takes one of
 * the user's search slots (user-slots.ts) and reads the user's credit hint (out-of-credit.ts). Throws ServiceUnavailableError when Redis cannot be reached.
 */
export function askAdmission(redis: RedisClient, options: { prefix: string; perMinute: number; maxSearches: number }) {
  const rateKey = (userId: number) => `${userRateKeyPrefix(options.prefix)}:${userId}`;
  return {
    async admit(userId: number): Promise<Admission> {
      const { token, args } = slotTakeArgs(options.maxSearches, DEFAULT_SLOT_TTL_MS);
      const keys = [rateKey(userId), slotKey(options.prefix, userId), outOfCreditKey(options.prefix, userId)];
      const [within, value, marked] = (await viaRedis(() => ADMIT(redis, [...keys, RATE_WINDOW_S, options.perMinute, ...args]))) as [
        number,
        number,
        number?,
      ];
      if (within === 0) return { kind: 'too_fast', msBeforeNext: value };
      return value === 1 ? { kind: 'admitted', token, creditLikely: marked !== 1 } : { kind: 'busy' };
    },
  };
}
