import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { AppDeps, AppEnv } from './deps';
import { unavailableService } from '../core/unavailable';
import { errorPage } from './error-page';
import { notFoundPage } from './not-found-page';
import { ApiError, TEXT_ERROR_ROUTES } from './errors';
import { FORM_BODY_MAX_BYTES, limitBody, WEBHOOK_BODY_MAX_BYTES } from './middleware/body-limit';
import { devLoopbackRedirect } from './middleware/dev-loopback-redirect';
import { forwardedForWarning } from './middleware/forwarded-for-warning';
import { noStore } from './middleware/no-store';
import { requestLog } from './middleware/request-log';
import { requestMetrics } from './middleware/request-metrics';
import { sameOrigin } from './middleware/same-origin';
import { securityHeaders } from './middleware/security-headers';
import { loadSession } from './middleware/session';
import { userGetRate, userRateLimit } from './middleware/user-rate-limit';
import { ADMIN_BASE_PATH, adminRoutes } from './routes/admin';
import { apiTokenRoutes } from './routes/api-tokens';
import { askRoutes } from './routes/ask';
import { mcpRoutes } from './routes/mcp';
import { openApiRoutes } from './routes/openapi';
import { v1Routes } from './routes/v1/index';
import { isV1Path, problemReply } from './routes/v1/problem';
import { authRoutes } from './routes/auth';
import { billingRoutes } from './routes/billing';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { pageRoutes } from './routes/page';
import { feedRoutes } from './routes/feeds';
import { searchRoutes } from './routes/searches';
import { timerRunRoutes } from './routes/timer-runs';
import { accountRoutes } from './routes/account';
import { timerSettingsRoutes } from './routes/timer-settings';
import { testDeliveryRoutes } from './routes/test-delivery';
import { timerChannelRoutes } from './routes/timer-channels';
import { describeRoutes } from './routes/describe';
import { runMapRoutes } from './routes/run-map';
import { timerRoutes } from './routes/timers';
import { unsubscribeRoutes } from './routes/unsubscribe';
import { webhookRoutes } from './routes/webhook';

const UNAVAILABLE_RETRY_AFTER_S = 30;
const REQUEST_ID_MAX_LENGTH = 64;
const UNAVAILABLE = {
  postgres: 'Event Finder cannot reach its database right now. Please try again in a minute.',
  redis: 'Event Finder cannot reach its queue and rate-limit store right now. Please try again in a minute.',
} as const;

/** The public API's paths (/v1, /mcp): a bearer token names the user there, never the session cookie. */
const isTokenPath = (path: string) => path.startsWith('/v1/') || path === '/mcp';

/** Paths whose every reply is JSON, errors included. */
const isJsonPath = (path: string) => path.startsWith('/api/') || isTokenPath(path);

/** A browser navigation to a page (not an API call, asset or webhook). */
function isPageRequest(req: Request, path: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (isJsonPath(path)) return false;
  return path === '/' || (req.headers.get('accept') ?? '').includes('text/html');
}

/** Builds the whole HTTP app from its dependencies; no side effects, so tests call app.request(). */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const { config } = deps;
  app.use(requestMetrics());
  // A trusted proxy's X-Request-Id is kept when it is a plain token; otherwise each request gets a new UUID.
  app.use(requestId({ limitLength: REQUEST_ID_MAX_LENGTH }));
  app.use(requestLog(deps.logger));
  app.use(securityHeaders(config, { adminPath: ADMIN_BASE_PATH }));
  // Bodies are bounded before anything reads them; Stripe's events get more room than a form.
  const webhookBody = limitBody(WEBHOOK_BODY_MAX_BYTES);
  const formBody = limitBody(FORM_BODY_MAX_BYTES);
  app.use((c, next) => (c.req.path === '/webhook' ? webhookBody : formBody)(c, next));
  app.use(forwardedForWarning(config.trustedProxyHops, deps.logger));
  // It only ever redirects the page itself.
  app.use('/', devLoopbackRedirect(config));
  // Stripe signs webhooks; they carry no Origin and no session. Unsubscribe links are RFC 8058 one-click
  // POSTs from mail clients and providers (any origin, no session): the token in the path is the secret.
  // /v1 and /mcp take a bearer token, which a browser never adds by itself, and never read the cookie.
  app.use(sameOrigin(config.appOrigin, (path) => path === '/webhook' || path.startsWith('/unsubscribe/') || isTokenPath(path)));
  const session = loadSession(deps.sql, config, deps.sessionRevocations);
  app.use((c, next) => {
    if (!isTokenPath(c.req.path)) return session(c, next);
    c.set('user', null);
    return next();
  });
  app.use('/api/*', noStore());
  // Searching, saving timers and running one by hand cost work (a website fetch, a row, a Gemini call): one budget
  // per user. A search counts against it in its admission (admission/search-admission.ts).
  const perUser = userRateLimit(deps.redis, { prefix: config.queuePrefix, perMinute: config.userRatePerMinute });
  app.use('/api/schedule', perUser);
  app.use('/api/timers/:id/run', perUser);
  app.use('/api/timers/describe', perUser);
  // Reading costs too (a search's stored events are megabytes): a generous rate of its own for GETs. The session
  // check, which every page load and poll sends, is cheap and is not counted; logout (a GET in the spec) is never
  // refused, not even while Redis cannot count it.
  const perUserGets = userGetRate(deps.redis, { prefix: config.queuePrefix, perMinute: config.userGetsPerMinute });
  const uncountedGets = new Set(['/api/check-session', '/api/logout']);
  app.use('/api/*', (c, next) => (c.req.method === 'GET' && !uncountedGets.has(c.req.path) ? perUserGets(c, next) : next()));

  app.route('/', healthRoutes(deps));
  app.route('/', pageRoutes(deps));
  app.route('/', authRoutes(deps));
  app.route('/', askRoutes(deps));
  app.route('/', timerRoutes(deps));
  app.route('/', timerRunRoutes(deps));
  app.route('/', accountRoutes(deps));
  app.route('/', searchRoutes(deps));
  app.route('/', feedRoutes(deps));
  app.route('/', timerSettingsRoutes(deps));
  app.route('/', testDeliveryRoutes(deps));
  app.route('/', timerChannelRoutes(deps));
  app.route('/', describeRoutes(deps));
  app.route('/', runMapRoutes(deps));
  app.route('/', unsubscribeRoutes(deps));
  app.route('/', billingRoutes(deps));
  app.route('/', webhookRoutes(deps));
  app.route('/', apiTokenRoutes(deps));
  app.route('/', openApiRoutes(deps));
  app.route('/', v1Routes(deps));
  app.route(
    '/',
    mcpRoutes(deps, (req) => app.fetch(req)),
  );
  app.route('/', adminRoutes(deps));
  app.route('/', metricsRoutes(deps));

  // An address nobody serves: JSON on the API's paths (/v1 answers its own problem details), a page for a browser,
  // a line of text for anything else (a script or image asked for by a stale page).
  const notFoundHtml = notFoundPage(deps);
  app.notFound((c) => {
    if (isJsonPath(c.req.path)) return c.json({ error: 'There is no such API route.' }, 404);
    if (isPageRequest(c.req.raw, c.req.path)) return c.html(notFoundHtml(), 404);
    return c.text('Not found', 404);
  });

  app.onError((err, c) => {
    // The page shows these routes' reply text verbatim after 'Backend error: ' (docs/contract.md), so even an
    // unexpected failure or a middleware refusal must be a sentence there, not JSON.
    const text = TEXT_ERROR_ROUTES.has(`${c.req.method} ${c.req.path}`);
    // /v1 answers every error as RFC 9457 problem details with a stable code (api/routes/v1/problem.ts).
    const v1 = isV1Path(c.req.path);
    if (err instanceof ApiError) {
      if (v1) return problemReply(c, config.appUrl, { status: err.status, detail: err.message, ...err.options });
      for (const [k, v] of Object.entries(err.options.headers ?? {})) c.header(k, v);
      if (text) return c.text(err.message, err.status);
      return c.json(err.options.body ?? { error: err.message }, err.status);
    }
    if (err instanceof HTTPException) {
      const res = err.getResponse();
      if (res.status === 401 && res.headers.has('www-authenticate')) return res;
      const message = err.message || 'The request could not be processed.';
      if (v1) return problemReply(c, config.appUrl, { status: err.status, detail: message });
      return text ? c.text(message, err.status) : c.json({ error: message }, err.status);
    }
    const service = unavailableService(err);
    const status = service ? 503 : 500;
    if (service) {
      c.get('log')?.warn({ service, err: (err as Error).cause ?? err }, `${service} unavailable`);
      c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
    } else {
      c.get('log')?.error({ err }, 'unhandled error');
    }
    const message = service ? UNAVAILABLE[service] : 'Something went wrong on our side. Please try again in a moment.';
    // Someone who opened the page gets a page, not raw JSON.
    if (isPageRequest(c.req.raw, c.req.path)) {
      return c.html(errorPage(service ? 'Temporarily unavailable' : 'Something went wrong', message), status);
    }
    if (v1) return problemReply(c, config.appUrl, { status, detail: message, code: service ? 'unavailable' : 'internal' });
    return text ? c.text(message, status) : c.json({ error: message }, status);
  });

  return app;
}
