import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { ServiceUnavailableError, viaRedis } from '../../core/unavailable';
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
// rate takes no search slot; an admitted one learns whether its user is marked. An ask whose keys Redis refuses
// (a key of another type) fails alone, as {-1}: the others of the script are still admitted.
const ADMIT = redisScript(`
local function admit(i)
  local rate, mark = KEYS[3 * i - 2], KEYS[3 * i]
  redis.call('SET', rate, 0, 'EX', ARGV[1], 'NX')
  local used = redis.call('INCRBY', rate, 1)
  local ttl = redis.call('PTTL', rate)
  if ttl == -1 then
    redis.call('EXPIRE', rate, ARGV[1])
    ttl = 1000 * ARGV[1]
  end
  if used > tonumber(ARGV[2]) then return {0, ttl} end
${slotTakeLua({ set: 'KEYS[3 * i - 1]', now: 'ARGV[3]', max: 'ARGV[4]', expiry: 'ARGV[5]', ttl: 'ARGV[6]', token: 'ARGV[6 + i]' })}
  return {1, slot, redis.call('EXISTS', mark)}
end
local out = {}
for i = 1, #KEYS / 3 do
  local ok, admitted = pcall(admit, i)
  out[i] = ok and admitted or {-1}
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

/** An ask's admission, or null when Redis refused its keys. */
type Admitted = Admission | null;

/**
 * One Redis round trip before an ask, shared by the asks that reach it in the same turn of the event loop
 * (db/turn-batch.ts): counts each against its user's request rate and, within it, takes one of the user's
 * search slots (user-slots.ts) and reads the user's credit hint (out-of-credit.ts). Throws
 * ServiceUnavailableError when Redis cannot be reached, or refuses an ask's keys (that ask alone). A script whose
 * reply was lost may have admitted its asks (their slots expire), so it fails them all and is never sent again
 * (only a statement Postgres refused is).
 */
export function askAdmission(redis: RedisClient, options: { prefix: string; perMinute: number; maxSearches: number }) {
  const rateKey = (userId: number) => `${userRateKeyPrefix(options.prefix)}:${userId}`;
  const admitMany = async (asks: AdmissionAsk[]): Promise<Admitted[]> => {
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
    return replies.map(([within, value, marked], i): Admitted => {
      if (within === -1) return null;
      if (within === 0) return { kind: 'too_fast', msBeforeNext: value };
      return value === 1 ? { kind: 'admitted', token: asks[i]!.token, creditLikely: marked !== 1 } : { kind: 'busy' };
    });
  };
  const admit = turnBatch<AdmissionAsk, Admitted>({
    one: async (ask) => (await admitMany([ask]))[0]!,
    many: admitMany,
    // One ask alone is admitted at once; the asks of a burst that come meanwhile go together at the end of the turn.
    atOnceWhenIdle: true,
  });
  return {
    async admit(userId: number): Promise<Admission> {
      const admission = await admit({ userId, token: randomUUID() });
      if (!admission)
        throw new ServiceUnavailableError('redis', { cause: new Error(`Redis refused the admission keys of user ${userId}`) });
      return admission;
    },
  };
}
