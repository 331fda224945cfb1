import type { RedisClient } from '../../core/redis/client';
import { createMiddleware } from 'hono/factory';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ServiceUnavailableError } from '../../core/unavailable';
import type { AppEnv } from '../deps';
import { ApiError } from '../errors';

/** The 429 of a user past USER_RATE_PER_MINUTE; `msBeforeNext` is what is left of the counting window. */
export function tooFast(perMinute: number, msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(
    429,
    `You are sending requests too quickly (more than ${perMinute} a minute). Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/** The Redis keys of the per-user rate (`<prefix>:user-rate:<id>`): under the queue prefix, a Cluster hash tag. */
export const userRateKeyPrefix = (prefix: string) => `${prefix}:user-rate`;

/**
 * Limits how many requests one signed-in user sends per minute, counted in Redis so every api process shares
 * the count: one budget for every route that costs work (a search, saving a timer, running one by hand), each
 * limiter made here drawing on the same keys. It runs before the route reads the body, so a refused request
 * writes nothing and fetches nothing. Signed-out requests pass through: the route answers them 401.
 */
export function userRateLimit(redis: RedisClient, options: { prefix: string; perMinute: number }) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: userRateKeyPrefix(options.prefix),
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
      throw tooFast(options.perMinute, res.msBeforeNext);
    }
    return next();
  });
}

/**
 * A per-user rate of its own for one kind of request (`<prefix>:<name>:<id>` in Redis, shared by every api
 * process), on top of the shared budget above: `points` requests per `seconds`, then `refusal` (a 429 with a
 * sentence). Signed-out requests pass through: the route answers them 401.
 */
export function ownUserRate(
  redis: RedisClient,
  options: { prefix: string; name: string; points: number; seconds: number; refusal: (msBeforeNext: number) => ApiError },
) {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${options.prefix}:${options.name}`,
    points: options.points,
    duration: options.seconds,
    rejectIfRedisNotReady: true,
  });
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get('user');
    if (!user) return next();
    try {
      await limiter.consume(String(user.id));
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw new ServiceUnavailableError('redis', { cause: res });
      throw options.refusal(res.msBeforeNext);
    }
    return next();
  });
}

/** The Redis keys of the per-user rate on reads (`<prefix>:user-get-rate:<id>`), shared by /api and /v1. */
export const userGetRateName = 'user-get-rate';

/**
 * The per-user rate on reads (USER_GETS_PER_MINUTE): one budget for a user's GETs, on /api (the session check and
 * logout aside) and /v1 alike, as reading a search's stored events costs too. Beyond it a 429 with a sentence.
 */
export function userGetRate(redis: RedisClient, options: { prefix: string; perMinute: number }) {
  return ownUserRate(redis, {
    prefix: options.prefix,
    name: userGetRateName,
    points: options.perMinute,
    seconds: 60,
    refusal: (ms) => tooFast(options.perMinute, ms),
  });
}
