import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../core/redis/client';
import { viaRedis } from '../../core/unavailable';

/**
 * A sorted-set semaphore: members are slot tokens scored by their expiry time. Expired members are dropped
 * before counting, so a process that dies mid-search frees its slot after the TTL instead of never.
 * A Lua fragment over KEYS[k] (the user's set) and ARGV[a..a+4] (now, max, expiry, token, ttl), so the ask's
 * admission (ask-admission.ts) runs the very same take in its own script. Sets `slot` to 1 or 0.
 */
export function slotTakeLua(k: number, a: number): string {
  return `
redis.call('ZREMRANGEBYSCORE', KEYS[${k}], '-inf', ARGV[${a}])
local slot = 0
if redis.call('ZCARD', KEYS[${k}]) < tonumber(ARGV[${a + 1}]) then
  redis.call('ZADD', KEYS[${k}], ARGV[${a + 2}], ARGV[${a + 3}])
  redis.call('PEXPIRE', KEYS[${k}], ARGV[${a + 4}])
  slot = 1
end`;
}

export const DEFAULT_SLOT_TTL_MS = 5 * 60_000;

/** The Redis key of one user's running searches; under the queue prefix, a Cluster hash tag. */
export const slotKey = (prefix: string, userId: number) => `${prefix}:search-slots:${userId}`;

/** The ARGV of one slot take (see slotTakeLua), with a fresh token. */
export function slotTakeArgs(max: number, ttlMs: number): { token: string; args: (string | number)[] } {
  const token = randomUUID();
  const now = Date.now();
  return { token, args: [now, max, now + ttlMs, token, ttlMs] };
}

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
