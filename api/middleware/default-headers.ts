import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../deps';

/**
 * Adds headers to every reply that did not set its own, once the reply is made (as hono/secure-headers does with
 * `overwrite: false`): the one way headers are set, the same over Node and under app.request().
 */
export function defaultHeaders(headers: Readonly<Record<string, string>>) {
  const entries = Object.entries(headers);
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    for (const [name, value] of entries) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  });
}
