import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { RedisClient } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { viaRedis } from '../../core/unavailable';

/** How long a slot outlives a process that died holding it. */
export const SLOT_TTL_MS = 5 * 60_000;

/** The Redis key of one user's running searches; under the queue prefix, a Cluster hash tag. */
export const slotKey = (prefix: string, userId: number) => `${prefix}:search-slots:${userId}`;

/** The Redis key of one user's given-up slot tokens (see giveUp). */
const givenUpKey = (prefix: string, userId: number) => `${prefix}:search-slots-given-up:${userId}`;

const TAKE = redisScript('take-search-slot', 3);
const GIVE_UP = redisScript('give-up-search-slot', 2);

/** The first wait before a slot is given up again, doubled each time, while Redis does not answer. */
const GIVE_UP_FIRST_WAIT_MS = 500;

/**
 * A taken slot, with the credit hint read beside it (`creditLikely`: the user has no out-of-credit mark,
 * below), or every slot of the user in use.
 */
export type SlotTake = { kind: 'taken'; token: string; creditLikely: boolean } | { kind: 'busy' };

export interface UserSlots {
  /** Takes one of the user's slots in one script. Throws ServiceUnavailableError when Redis cannot be reached. */
  take(userId: number): Promise<SlotTake>;
  /** Gives a taken slot back when its search ends. Throws ServiceUnavailableError when Redis cannot be reached. */
  release(userId: number, token: string): Promise<void>;
}

/**
 * Per-user limit of searches running at once (`max`), shared by every api process through Redis: a sorted-set
 * semaphore whose members are slot tokens scored by their expiry (core/redis/lua/take-search-slot.lua).
 *
 * A take or release that gets no reply in time (a Redis that hangs) may still run once Redis answers again, or
 * may never have arrived: the slot is then given up in the background (core/redis/lua/give-up-search-slot.lua),
 * tried again with growing waits until Redis answers, within the slot's own expiry. So a Redis that hung never
 * holds a user's slot past its recovery, and a take that reaches Redis after its give-up takes nothing.
 */
export function userSlots(redis: RedisClient, options: { prefix: string; max: number }): UserSlots {
  const giveUp = async (userId: number, token: string) => {
    const keys = [slotKey(options.prefix, userId), givenUpKey(options.prefix, userId)];
    const until = Date.now() + SLOT_TTL_MS;
    for (let wait = GIVE_UP_FIRST_WAIT_MS; Date.now() < until; wait *= 2) {
      try {
        await GIVE_UP(redis, keys, [Date.now(), token, SLOT_TTL_MS]);
        return;
      } catch {
        // Redis still does not answer: the slot's expiry frees it if it never does.
        await delay(Math.min(wait, Math.max(0, until - Date.now())), undefined, { ref: false });
      }
    }
  };
  const givenUp = (userId: number, token: string) => void giveUp(userId, token);
  return {
    async take(userId) {
      const token = randomUUID();
      const keys = [slotKey(options.prefix, userId), outOfCreditKey(options.prefix, userId), givenUpKey(options.prefix, userId)];
      try {
        const [taken, marked] = (await viaRedis(() => TAKE(redis, keys, [Date.now(), options.max, token, SLOT_TTL_MS]))) as number[];
        return taken === 1 ? { kind: 'taken', token, creditLikely: marked !== 1 } : { kind: 'busy' };
      } catch (err) {
        givenUp(userId, token);
        throw err;
      }
    },
    async release(userId, token) {
      try {
        await viaRedis(() => redis.zrem(slotKey(options.prefix, userId), token));
      } catch (err) {
        givenUp(userId, token);
        throw err;
      }
    },
  };
}

/**
 * The credit hint, kept in Redis so that an admitted ask asks Gemini with no Postgres query first: a user whose
 * ask was refused for want of searches is marked for a while, and only a marked user's ask checks its credit in
 * Postgres before Gemini is asked (core/search/charged-search.ts). An unmarked user's ask asks Gemini while its
 * credit is taken, and drops the request if the take is refused. A mark is a hint, never a refusal: it only
 * costs the head start, so a user who upgrades meanwhile is served at once, and their next answer clears it.
 */
const outOfCreditKey = (prefix: string, userId: number) => `${prefix}:out-of-credit:${userId}`;

/** Long enough to spare Gemini the asks of a user who keeps trying; short enough that a stale mark fades. */
const MARK_TTL_S = 10 * 60;

export function outOfCreditMarks(redis: RedisClient, prefix: string) {
  return {
    mark: (userId: number) => redis.set(outOfCreditKey(prefix, userId), '1', 'EX', MARK_TTL_S).then(() => undefined),
    clear: (userId: number) => redis.del(outOfCreditKey(prefix, userId)).then(() => undefined),
  };
}
