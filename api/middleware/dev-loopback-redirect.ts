import { createMiddleware } from 'hono/factory';
import type { Config } from '../../core/config';
import type { AppEnv } from '../deps';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Development only (`make dev`): the page opened as http://127.0.0.1:8080 while APP_URL is
 * http://localhost:8080 (or the other way round) renders, but sign-in and every other POST are refused as
 * cross-origin, and Stripe returns to APP_URL, where that session cookie does not exist. So the page request
 * on another loopback name of the same port is sent to APP_URL instead. Nothing changes in production.
 */
export function devLoopbackRedirect(config: Pick<Config, 'env' | 'appUrl'>) {
  const app = new URL(config.appUrl);
  const active = config.env === 'development' && LOOPBACK.has(app.hostname);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!active || c.req.path !== '/' || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
    const url = new URL(c.req.url);
    if (url.hostname === app.hostname || !LOOPBACK.has(url.hostname) || url.port !== app.port) return next();
    return c.redirect(`${app.origin}/${url.search}`, 302);
  });
}
