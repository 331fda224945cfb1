import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { viaRedis } from '../../core/unavailable';
import { turnBatch } from '../../db/turn-batch';
import { outOfCreditKey } from './out-of-credit';
import { DEFAULT_SLOT_TTL_MS, slotKey, slotTakeLua } from './user-slots';

/**
 * The per-user request rate, a fixed one-minute window counted in Redis. The key and the counting are those of
 * rate-limiter-flexible's RateLimiterRedis (`<prefix>:user-rate:<id>`, SET NX EX, INCRBY, PTTL), which
 * POST /api/schedule's middleware uses, so both routes draw on one budget.
 */
export const userRateKeyPrefix = (prefix: string) => `${prefix}:user-rate`;
const RATE_WINDOW_S = 60;

// Every ask that reached its admission in one turn of the event loop, in one script (a burst's asks are admitted by
// one round trip instead of as many): KEYS three an ask, its rate window, its user's slots and its user's
// out-of-credit mark (out-of-credit.ts), all under the queue prefix's hash tag, so one Cluster slot. ARGV[1] the
// rate window (s), ARGV[2] the rate, ARGV[3..6] the slot take's now, max, expiry and ttl, ARGV[6 + i] ask i's
// token. Asks are taken in order, so a user's second ask sees the first one's count and slot. A request over the
// rate takes no search slot; an admitted one learns whether its user is marked.
const ADMIT = redisScript(`
local out = {}
for i = 1, #KEYS / 3 do
  local rate, mark = KEYS[3 * i - 2], KEYS[3 * i]
  redis.call('SET', rate, 0, 'EX', ARGV[1], 'NX')
  local used = redis.call('INCRBY', rate, 1)
  local ttl = redis.call('PTTL', rate)
  if ttl == -1 then
    redis.call('EXPIRE', rate, ARGV[1])
    ttl = 1000 * ARGV[1]
  end
  if used > tonumber(ARGV[2]) then
    out[i] = {0, ttl}
  else
${slotTakeLua({ set: 'KEYS[3 * i - 1]', now: 'ARGV[3]', max: 'ARGV[4]', expiry: 'ARGV[5]', ttl: 'ARGV[6]', token: 'ARGV[6 + i]' })}
    out[i] = {1, slot, redis.call('EXISTS', mark)}
  end
end
return out`);

export type Admission =
  | { kind: 'too_fast'; msBeforeNext: number }
  | { kind: 'busy' }
  /** `creditLikely`: the user has no out-of-credit mark, so Gemini is asked while the credit is taken. */
  | { kind: 'admitted'; token: string; creditLikely: boolean };

interface AdmissionAsk {
  userId: number;
  token: string;
}

/**
 * One Redis round trip before an ask, shared by the asks that reach it in the same turn of the event loop
 * (db/turn-batch.ts): counts each against its user's request rate and, within it, takes one of the user's
 * search slots (user-slots.ts) and reads the user's credit hint (out-of-credit.ts). Throws
 * ServiceUnavailableError when Redis cannot be reached. A failed script may have admitted some of its asks (their
 * slots expire), so it fails them all and is never sent again (only a statement Postgres refused is).
 */
export function askAdmission(redis: RedisClient, options: { prefix: string; perMinute: number; maxSearches: number }) {
  const rateKey = (userId: number) => `${userRateKeyPrefix(options.prefix)}:${userId}`;
  const admitMany = async (asks: AdmissionAsk[]): Promise<Admission[]> => {
    const now = Date.now();
    const keys = asks.flatMap(({ userId }) => [rateKey(userId), slotKey(options.prefix, userId), outOfCreditKey(options.prefix, userId)]);
    const args = [
      RATE_WINDOW_S,
      options.perMinute,
      now,
      options.maxSearches,
      now + DEFAULT_SLOT_TTL_MS,
      DEFAULT_SLOT_TTL_MS,
      ...asks.map((a) => a.token),
    ];
    const replies = (await viaRedis(() => ADMIT(redis, keys, args))) as [number, number, number?][];
    return replies.map(([within, value, marked], i): Admission => {
      if (within === 0) return { kind: 'too_fast', msBeforeNext: value };
      return value === 1 ? { kind: 'admitted', token: asks[i]!.token, creditLikely: marked !== 1 } : { kind: 'busy' };
    });
  };
  const admit = turnBatch<AdmissionAsk, Admission>({
    one: async (ask) => (await admitMany([ask]))[0]!,
    many: admitMany,
    // One ask alone is admitted at once; the asks of a burst that come meanwhile go together at the end of the turn.
    atOnceWhenIdle: true,
  });
  return {
    admit: (userId: number): Promise<Admission> => admit({ userId, token: randomUUID() }),
  };
}
