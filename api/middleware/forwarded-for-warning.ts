import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../core/logger';
import type { AppEnv } from '../deps';

/**
 * Warns once per process when a request carries X-Forwarded-For while TRUSTED_PROXY_HOPS is 0: that usually
 * means a load balancer in front of the api, so every client shares the balancer's address and the sign-in
 * limit per IP would count the whole site as one client.
 */
export function forwardedForWarning(trustedProxyHops: number, logger: Logger) {
  let warned = false;
  return createMiddleware<AppEnv>((c, next) => {
    if (!warned && trustedProxyHops === 0 && c.req.header('x-forwarded-for') !== undefined) {
      warned = true;
      logger.warn(
        'requests arrive with X-Forwarded-For but TRUSTED_PROXY_HOPS is 0: behind a load balancer or reverse proxy, set TRUSTED_PROXY_HOPS to the number of proxies, or every client shares one sign-in rate limit',
      );
    }
    return next();
  });
}
