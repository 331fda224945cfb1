import { createMiddleware } from 'hono/factory';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClient } from '../../../core/redis/client';
import { userRateKeyPrefix } from '../../middleware/user-rate-limit';
import type { AppEnv } from '../../deps';

/** The policy's name in the headers: the per-user budget every search and timer change draws on. */
const POLICY = 'per-user';
const WINDOW_S = 60;

/**
 * `RateLimit-Policy` and `RateLimit` (the IETF httpapi ratelimit-headers draft) on every /v1 reply to a known
 * user: the per-minute budget (USER_RATE_PER_MINUTE) that searches, saving and running timers draw on, what is
 * left of it and in how many seconds the window starts again. Read, never counted: reading does not spend it.
 */
export function rateLimitHeaders(redis: RedisClient, options: { prefix: string; perMinute: number }) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: userRateKeyPrefix(options.prefix),
    points: options.perMinute,
    duration: WINDOW_S,
    rejectIfRedisNotReady: true,
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const user = c.get('user');
    if (!user) return;
    // The headers inform; a reply is not failed for want of them while Redis is away.
    const state = await limiter.get(String(user.id)).catch(() => undefined);
    if (state === undefined) return;
    const remaining = Math.max(0, options.perMinute - (state?.consumedPoints ?? 0));
    const reset = state ? Math.max(0, Math.ceil(state.msBeforeNext / 1000)) : 0;
    c.header('RateLimit-Policy', `"${POLICY}";q=${options.perMinute};w=${WINDOW_S}`);
    c.header('RateLimit', `"${POLICY}";r=${remaining};t=${reset}`);
  });
}
