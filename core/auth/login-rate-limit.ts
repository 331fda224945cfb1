import { isIP } from 'node:net';
import type { RedisClient } from '../redis/client';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger';

/** Failed sign-ins allowed per client in one window; a person needs a handful, a token-guessing script many. */
export const LOGIN_ATTEMPTS_PER_WINDOW = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

export type LoginAttempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface LoginRateLimiter {
  /** Whether this client may try to sign in now; counts nothing. */
  check: (ip: string, log: Logger) => Promise<LoginAttempt>;
  /** Counts one failed sign-in (a refused token) against the client. */
  recordFailure: (ip: string, log: Logger) => Promise<void>;
}

/**
 * The key a client is counted under: its IPv4 address, or the /64 network of an IPv6 address (one subscriber
 * line or server usually holds a whole /64, so counting single addresses would let it rotate through 2^64 of
 * them).
 */
export function loginClientKey(ip: string): string {
  if (isIP(ip.replace(/%.*$/, '')) !== 6) return ip;
  const groups = expandIPv6(ip);
  // An IPv4 client on a dual-stack socket (::ffff:a.b.c.d) is counted as that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight hex groups of an IPv6 address. */
function expandIPv6(ip: string): string[] {
  // The URL parser writes any valid form (dotted tail, zone-less, upper case) as compressed lower-case hex.
  const canonical = new URL(`http://[${ip.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right];
}

/**
 * Counts failed sign-in attempts per client in Redis, so every api process shares one count. Successful
 * sign-ins are not counted: a whole office or campus behind one address can keep signing in while a script
 * guessing tokens is stopped. While Redis is unreachable the limiter lets sign-in through and logs it (fail
 * open, docs/decisions/hardening.md): a forged Google ID token fails verification anyway, and locking
 * every user out during a Redis outage would cost more than the lost limit.
 */
export function createLoginRateLimiter(redis: RedisClient, keyPrefix: string): LoginRateLimiter {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${keyPrefix}:login-ip`,
    points: LOGIN_ATTEMPTS_PER_WINDOW,
    duration: LOGIN_WINDOW_SECONDS,
    rejectIfRedisNotReady: true,
  });
  return {
    async check(ip, log) {
      let res: RateLimiterRes | null;
      try {
        res = await limiter.get(loginClientKey(ip));
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'sign-in rate limit unavailable (redis); letting the attempt through');
        return { allowed: true };
      }
      if (!res || res.consumedPoints < LOGIN_ATTEMPTS_PER_WINDOW) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    },
    async recordFailure(ip, log) {
      try {
        await limiter.consume(loginClientKey(ip));
      } catch (err) {
        // Past the limit is expected here (concurrent failures); anything else is Redis being away.
        if (!(err instanceof RateLimiterRes)) {
          log.warn({ err: (err as Error).message }, 'sign-in rate limit unavailable (redis); failure not counted');
        }
      }
    },
  };
}
