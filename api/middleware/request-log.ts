import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../core/logger';
import type { AppEnv } from '../deps';

// A feed's or an unsubscribe link's token is the whole of its secret: whoever reads it in a log can read the
// feed or unsubscribe its owner. The log keeps which route was asked (and a feed's format), never the token.
const SECRET_PATHS: [RegExp, string][] = [
  [/^\/feeds\/[^/]*?(\.[a-z]+)?$/i, '/feeds/[token]$1'],
  [/^\/unsubscribe\/[^/]+/, '/unsubscribe/[token]'],
];

/** The request path as the log may keep it: with the secret tokens of feed and unsubscribe links redacted. */
export function loggedPath(path: string): string {
  for (const [pattern, replacement] of SECRET_PATHS) if (pattern.test(path)) return path.replace(pattern, replacement);
  return path;
}

/**
 * Gives each request a logger whose lines carry its id (a pino child; the id is hono/request-id's, which runs
 * first), and logs one line when it ends, at info: above that level the line costs nothing.
 */
export function requestLog(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const requestId = c.get('requestId');
    c.set('log', logger.child({ requestId }));
    if (!logger.isLevelEnabled('info')) return next();
    const startedAt = performance.now();
    await next();
    const userId = c.get('user')?.id;
    logger.info(
      {
        requestId,
        method: c.req.method,
        path: loggedPath(c.req.path),
        status: c.res.status,
        ms: Math.round((performance.now() - startedAt) * 10) / 10,
        ...(userId !== undefined ? { userId } : {}),
      },
      'request',
    );
  });
}
