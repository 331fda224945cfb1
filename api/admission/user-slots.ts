import type { RedisClient } from '../../core/redis/client';
import { viaRedis } from '../../core/unavailable';

/** The Lua expressions one slot take reads: the user's set, and the take's now, max, expiry, token and ttl. */
export interface SlotTakeLua {
  set: string;
  now: string;
  max: string;
  expiry: string;
  token: string;
  ttl: string;
}

/**
 * A sorted-set semaphore: members are slot tokens scored by their expiry time. Expired members are dropped
 * before counting, so a process that dies mid-search frees its slot after the TTL instead of never.
 * A Lua fragment over the given expressions (the ask's admission, ask-admission.ts, runs it in its own script).
 * Sets the local `slot` to 1 or 0.
 */
export function slotTakeLua(e: SlotTakeLua): string {
  return `
redis.call('ZREMRANGEBYSCORE', ${e.set}, '-inf', ${e.now})
local slot = 0
if redis.call('ZCARD', ${e.set}) < tonumber(${e.max}) then
  redis.call('ZADD', ${e.set}, ${e.expiry}, ${e.token})
  redis.call('PEXPIRE', ${e.set}, ${e.ttl})
  slot = 1
end`;
}

export const DEFAULT_SLOT_TTL_MS = 5 * 60_000;

/** The Redis key of one user's running searches; under the queue prefix, a Cluster hash tag. */
export const slotKey = (prefix: string, userId: number) => `${prefix}:search-slots:${userId}`;

export interface UserSlots {
  /**
   * Gives back a slot the ask's admission took (ask-admission.ts) when its search ends. Throws
   * ServiceUnavailableError when Redis cannot be reached.
   */
  release(userId: number, token: string): Promise<void>;
}

/** Per-user limit of searches running at once, shared by every api process through Redis. */
export function userSlots(redis: RedisClient, options: { prefix: string }): UserSlots {
  return {
    async release(userId, token) {
      await viaRedis(() => redis.zrem(slotKey(options.prefix, userId), token));
    },
  };
}
