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
  const routes = matchedRoutes(c);
  const handler = routes.filter((r) => r.method !== 'ALL').at(-1) ?? routes.filter((r) => !CATCH_ALL.has(r.path)).at(-1);
  return handler?.path ?? 'unmatched';
}

/** Counts every request by method, route and status, and times it until its headers are ready. */
export function requestMetrics() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const start = performance.now();
    await next();
    countRequest(c.req.method, routeLabel(c), c.res.status, (performance.now() - start) / 1000);
  });
}
