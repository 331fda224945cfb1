import type { RedisClient } from '../../core/redis/client';

/**
 * The credit hint, kept in Redis so that an admitted ask asks Gemini with no Postgres query first: a user whose
 * ask was refused for want of searches is marked for a while, and only a marked user's ask checks its credit in
 * Postgres before Gemini is asked (core/search/charged-search.ts). An unmarked user's ask asks Gemini while its
 * credit is taken, and drops the request if the take is refused. A mark is a hint, never a refusal: it only
 * costs the head start, so a user who upgrades meanwhile is served at once, and their next answer clears it.
 */
export const outOfCreditKey = (prefix: string, userId: number) => `${prefix}:out-of-credit:${userId}`;

/** Long enough to spare Gemini the asks of a user who keeps trying; short enough that a stale mark fades. */
const MARK_TTL_S = 10 * 60;

export function outOfCreditMarks(redis: RedisClient, prefix: string) {
  return {
    mark: (userId: number) => redis.set(outOfCreditKey(prefix, userId), '1', 'EX', MARK_TTL_S).then(() => undefined),
    clear: (userId: number) => redis.del(outOfCreditKey(prefix, userId)).then(() => undefined),
  };
}
