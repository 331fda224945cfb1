import type { RedisClient } from '../redis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Sign-in attempts allowed per client IP in one window; a person needs a handful, a token-guessing script many. */
export const LOGIN_ATTEMPTS_PER_WINDOW = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

export type LoginAttempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type LoginRateLimiter = (ip: string) => Promise<LoginAttempt>;

/**
 * Counts sign-in attempts per IP in Redis, so every api process shares one count. `keyPrefix` puts the keys
 * under the deployment's Redis namespace.
 */
export function createLoginRateLimiter(redis: RedisClient, keyPrefix: string): LoginRateLimiter {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${keyPrefix}:login-ip`,
    points: LOGIN_ATTEMPTS_PER_WINDOW,
    duration: LOGIN_WINDOW_SECONDS,
  });
  return async (ip) => {
    try {
      await limiter.consume(ip);
      return { allowed: true };
    } catch (res) {
      // The library rejects with a RateLimiterRes when the limit is hit and with an Error when Redis fails.
      if (res instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
      }
      throw res;
    }
  };
}
