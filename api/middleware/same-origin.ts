import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../deps';
import { ApiError } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another origin. hono/csrf only looks at form
 * content types, and a JSON fetch is just as dangerous. Browsers send Origin on every cross-origin POST and
 * Sec-Fetch-Site on every request, so a request with neither did not come from a browser page.
 */
export function sameOrigin(appOrigin: string, exempt: (path: string) => boolean) {
  return createMiddleware<AppEnv>((c, next) => {
    if (SAFE_METHODS.has(c.req.method) || exempt(c.req.path)) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const badOrigin = origin !== undefined && origin !== appOrigin;
    const badSite = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (badOrigin || badSite) {
      throw new ApiError(403, 'This request came from another site and was refused. Reload the page and try again.');
    }
    return next();
  });
}
