import type { RedisClient } from '../../core/redis';
import { createMiddleware } from 'hono/factory';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ServiceUnavailableError } from '../../core/unavailable';
import type { AppEnv } from '../deps';
import { ApiError } from '../errors';

/**
 * Limits how many requests one signed-in user sends per minute, counted in Redis so every api process shares
 * the count. It runs before the route reads the body, so a refused request writes nothing and fetches nothing.
 * Signed-out requests pass through: the route answers them 401.
 */
export function userRateLimit(redis: RedisClient, options: { prefix: string; perMinute: number }) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}:user-rate`,
    points: options.perMinute,
    duration: 60,
    // Fail at once while Redis is away instead of queueing the command.
    rejectIfRedisNotReady: true,
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user || c.req.method !== 'POST') return next();
    try {
      await limiter.consume(String(user.id));
    } catch (res) {
      // The library rejects with a RateLimiterRes when the limit is hit and with an Error when Redis fails.
      if (!(res instanceof RateLimiterRes)) throw new ServiceUnavailableError('redis', { cause: res });
      const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new ApiError(
        429,
        `You are sending requests too quickly (more than ${options.perMinute} a minute). Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
        { headers: { 'Retry-After': String(seconds) } },
      );
    }
    return next();
  });
}
