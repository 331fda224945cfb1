import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis';
import { viaRedis } from '../unavailable';

// A sorted-set semaphore: members are slot tokens scored by their expiry time. Expired members are dropped
// before counting, so a process that dies mid-search frees its slot after the TTL instead of never.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0`;

export interface UserSlots {
  /**
   * A token when a slot was free, else null; release it when the search ends. Throws ServiceUnavailableError
   * when Redis cannot be reached, so the route answers 503 'try again' rather than 500.
   */
  acquire(userId: number): Promise<string | null>;
  release(userId: number, token: string): Promise<void>;
}

/** Per-user limit of searches running at once, shared by every api process through Redis. */
export function userSlots(redis: RedisClient, options: { prefix: string; max: number; ttlMs?: number }): UserSlots {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const key = (userId: number) => `${options.prefix}:search-slots:${userId}`;
  return {
    async acquire(userId) {
      const token = randomUUID();
      const now = Date.now();
      const ok = await viaRedis(() => redis.eval(ACQUIRE, 1, key(userId), now, options.max, now + ttlMs, token, ttlMs));
      return ok === 1 ? token : null;
    },
    async release(userId, token) {
      await viaRedis(() => redis.zrem(key(userId), token));
    },
  };
}
