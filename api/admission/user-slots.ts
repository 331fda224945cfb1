import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../core/redis/client';
import { redisScript } from '../../core/redis/script';
import { viaRedis } from '../../core/unavailable';
import { outOfCreditKey } from './out-of-credit';

/** How long a slot outlives a process that died holding it. */
export const SLOT_TTL_MS = 5 * 60_000;

/** The Redis key of one user's running searches; under the queue prefix, a Cluster hash tag. */
export const slotKey = (prefix: string, userId: number) => `${prefix}:search-slots:${userId}`;

const TAKE = redisScript('take-search-slot', 2);

/**
 * A taken slot, with the credit hint read beside it (`creditLikely`: the user has no out-of-credit mark,
 * out-of-credit.ts), or every slot of the user in use.
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
 */
export function userSlots(redis: RedisClient, options: { prefix: string; max: number }): UserSlots {
  return {
    async take(userId) {
      const token = randomUUID();
      const keys = [slotKey(options.prefix, userId), outOfCreditKey(options.prefix, userId)];
      const [taken, marked] = (await viaRedis(() => TAKE(redis, keys, [Date.now(), options.max, token, SLOT_TTL_MS]))) as number[];
      return taken === 1 ? { kind: 'taken', token, creditLikely: marked !== 1 } : { kind: 'busy' };
    },
    async release(userId, token) {
      await viaRedis(() => redis.zrem(slotKey(options.prefix, userId), token));
    },
  };
}
