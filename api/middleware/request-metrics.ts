import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import type { Context } from 'hono';
import { countRequest } from '../../core/metrics';
import type { AppEnv } from '../deps';

const CATCH_ALL = new Set(['*', '/*']);

/**
 * The route pattern that answered (`/api/timers`, `/admin/queues/*`), never the raw path: ids and probes of
 * unknown paths would otherwise make a new time series each. A request refused by a middleware is still
 * counted under the route it was meant for.
 */
function routeLabel(c: Context<AppEnv>): string {
  let handler: string | undefined;
  let narrowest: string | undefined;
  for (const route of matchedRoutes(c)) {
    if (route.method !== 'ALL') handler = route.path;
    else if (!CATCH_ALL.has(route.path)) narrowest = route.path;
  }
  return handler ?? narrowest ?? 'unmatched';
}

/** Counts every request by method, route and status, and times it until its headers are ready. */
export function requestMetrics() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const start = performance.now();
    await next();
    countRequest(c.req.method, routeLabel(c), c.res.status, (performance.now() - start) / 1000);
  });
}
