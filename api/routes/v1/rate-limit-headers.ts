import { createMiddleware } from 'hono/factory';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RedisClient } from '../../../core/redis/client';
import { userGetRateName, userRateKeyPrefix } from '../../middleware/user-rate-limit';
import type { AppEnv } from '../../deps';

const WINDOW_S = 60;

interface Policy {
  /** The policy's name in the headers. */
  name: string;
  perMinute: number;
  limiter: RateLimiterRedis;
  /** Whether a request draws on it. */
  applies: (method: string) => boolean;
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * `RateLimit-Policy` and `RateLimit` (the IETF httpapi ratelimit-headers draft) on every /v1 reply to a known
 * user: `per-user`, the per-minute budget (USER_RATE_PER_MINUTE) that searches, saving and running timers draw on;
 * on a GET also `per-user-get`, the budget of reads (USER_GETS_PER_MINUTE); what is left of each and in how many
 * seconds its window starts again. Read, never counted: the headers spend nothing.
 */
export function rateLimitHeaders(redis: RedisClient, options: { prefix: string; perMinute: number; getsPerMinute: number }) {
  const limiter = (keyPrefix: string, points: number) =>
    new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: WINDOW_S, rejectIfRedisNotReady: true });
  const policies: Policy[] = [
    {
      name: 'per-user',
      perMinute: options.perMinute,
      limiter: limiter(userRateKeyPrefix(options.prefix), options.perMinute),
      applies: () => true,
    },
    {
      name: 'per-user-get',
      perMinute: options.getsPerMinute,
      limiter: limiter(`${options.prefix}:${userGetRateName}`, options.getsPerMinute),
      applies: isRead,
    },
  ];
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const user = c.get('user');
    if (!user) return;
    const shown = policies.filter((p) => p.applies(c.req.method));
    // The headers inform; a reply is not failed for want of them while Redis is away.
    const states = await Promise.all(shown.map((p) => p.limiter.get(String(user.id)))).catch(() => undefined);
    if (states === undefined) return;
    const items = shown.map((p, i) => {
      const state = states[i];
      const remaining = Math.max(0, p.perMinute - (state?.consumedPoints ?? 0));
      const reset = state ? Math.max(0, Math.ceil(state.msBeforeNext / 1000)) : 0;
      return { policy: `"${p.name}";q=${p.perMinute};w=${WINDOW_S}`, left: `"${p.name}";r=${remaining};t=${reset}` };
    });
    c.header('RateLimit-Policy', items.map((i) => i.policy).join(', '));
    c.header('RateLimit', items.map((i) => i.left).join(', '));
  });
}
