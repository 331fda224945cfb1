import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../deps';

/**
 * Marks every reply `Cache-Control: no-store` unless the route chose otherwise: these replies carry a user's
 * data (timers, credits, answers), which no browser cache or shared proxy may keep for the next person.
 */
export function noStore() {
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    if (!c.res.headers.has('cache-control')) c.res.headers.set('Cache-Control', 'no-store');
  });
}
