import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { createMiddleware } from 'hono/factory';
import type { AppDeps, AppEnv } from '../../deps';
import { bearerUser, requireScope } from '../../middleware/bearer';
import { defaultHeaders } from '../../middleware/default-headers';
import { userGetRate, userRateLimit } from '../../middleware/user-rate-limit';
import { ALLOWANCES } from '../../../core/plans';
import { getBilling } from '../../../db/accounts';
import { ApiError } from '../../errors';
import { requireUser } from '../../middleware/session';
import { billingReply } from '../billing';
import { getSearchHandlers, searchHistoryHandlers, searchSuggestionsHandlers } from '../searches';
import { replyFieldNames } from './field-names';
import { idempotency } from './idempotency';
import { noRoute } from './method-guard';
import { rateLimitHeaders } from './rate-limit-headers';
import { v1SearchRoutes } from './search';
import { v1TimerEventRoutes } from './timer-events';
import { v1TimerRoutes } from './timers';

// What a page on another origin may send and read (CORS): never cookies, so no credentials.
const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Idempotency-Key', 'If-None-Match'];
const CORS_EXPOSED_HEADERS = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Search-Id', 'WWW-Authenticate', 'Allow'];

// A client may keep a reply, but must ask again before using it; the ETag makes asking again cheap (304).
const REVALIDATE = { 'Cache-Control': 'private, no-cache' };

// A body sent as a form (curl -d without a Content-Type) would read as an empty object: say what to send instead.
const jsonOnly = createMiddleware<AppEnv>(async (c, next) => {
  const hasBody = Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
  if (hasBody && !/^application\/([\w.-]+\+)?json\b/i.test(c.req.header('content-type') ?? '')) {
    throw new ApiError(415, 'Send the request body as JSON, with the header Content-Type: application/json.');
  }
  await next();
});

/**
 * The versioned public API (docs/decisions/public-api-and-mcp.md): the page's own use cases behind a personal API token. Every
 * /v1 call names its user by `Authorization: Bearer` alone; GET replies carry an ETag and answer a matching
 * If-None-Match with 304. Its OpenAPI document is api/openapi/document.ts, checked against these routes by
 * test/api-v1.test.ts. CORS preflights are answered before the token is looked at; errors are problem details
 * (./problem.ts); a POST may carry an Idempotency-Key (./idempotency.ts).
 */
export function v1Routes(deps: AppDeps) {
  const { config } = deps;
  const app = new Hono<AppEnv>();
  const origins = config.apiCorsOrigins;
  app.use(
    '/v1/*',
    cors({
      origin: origins === '*' ? '*' : [...origins],
      credentials: false,
      allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
      allowHeaders: CORS_REQUEST_HEADERS,
      exposeHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    }),
  );
  // With a list of origins the reply depends on the request's Origin, so caches must keep them apart.
  if (origins !== '*')
    app.use(
      '/v1/*',
      createMiddleware<AppEnv>((c, next) => next().then(() => c.header('Vary', 'Origin', { append: true }))),
    );
  app.use('/v1/*', bearerUser(deps.sql));
  app.use(
    '/v1/*',
    rateLimitHeaders(deps.redis, {
      prefix: config.queuePrefix,
      perMinute: config.userRatePerMinute,
      getsPerMinute: config.userGetsPerMinute,
    }),
  );
  app.use('/v1/*', defaultHeaders(REVALIDATE));
  app.use('/v1/*', etag());
  app.use('/v1/*', jsonOnly);
  app.use('/v1/*', replyFieldNames);
  // Before the rate limit and the search's admission: a replay counts and charges nothing.
  app.use('/v1/*', idempotency(deps.redis, config.queuePrefix));
  // Saving and running timers draw on the same per-user budget as the page (a search counts in its admission).
  const perUser = userRateLimit(deps.redis, { prefix: deps.config.queuePrefix, perMinute: deps.config.userRatePerMinute });
  app.use('/v1/timers', perUser);
  app.use('/v1/timers/describe', perUser);
  app.use('/v1/timers/:id/run', perUser);
  // Reads draw on the user's budget of GETs, the one the page's /api GETs draw on (a search's events weigh megabytes).
  const perUserGets = userGetRate(deps.redis, { prefix: config.queuePrefix, perMinute: config.userGetsPerMinute });
  app.use('/v1/*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? perUserGets(c, next) : next()));

  app.route('/', v1SearchRoutes(deps));
  app.get('/v1/searches', requireScope('read'), ...searchHistoryHandlers(deps));
  app.get('/v1/searches/:id', requireScope('read'), ...getSearchHandlers(deps));
  app.get('/v1/searches/:id/suggestions', requireScope('read'), ...searchSuggestionsHandlers(deps));
  app.get('/v1/account', requireScope('read'), async (c) => {
    const billing = await getBilling(deps.sql, requireUser(c).id, ALLOWANCES);
    if (!billing) throw new ApiError(404, 'Your account was not found. Make a new token on the plans page.');
    return c.json(billingReply(billing));
  });
  app.route('/', v1TimerRoutes(deps));
  app.route('/', v1TimerEventRoutes(deps));
  // Last: a request no route above took is a wrong method on a known path (405) or an unknown path (404).
  app.all('/v1/*', (c) => {
    throw noRoute(c.req.method, c.req.path);
  });
  return app;
}
