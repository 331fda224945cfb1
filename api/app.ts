import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppDeps, AppEnv } from './deps';
import { ApiError } from './errors';
import { devLoopbackRedirect } from './middleware/dev-loopback-redirect';
import { requestLog } from './middleware/request-log';
import { sameOrigin } from './middleware/same-origin';
import { securityHeaders } from './middleware/security-headers';
import { loadSession } from './middleware/session';
import { adminRoutes } from './routes/admin';
import { askRoutes } from './routes/ask';
import { authRoutes } from './routes/auth';
import { billingRoutes } from './routes/billing';
import { healthRoutes } from './routes/health';
import { pageRoutes } from './routes/page';
import { timerSettingsRoutes } from './routes/timer-settings';
import { timerRoutes } from './routes/timers';
import { unsubscribeRoutes } from './routes/unsubscribe';
import { webhookRoutes } from './routes/webhook';

const TEXT_ERROR_PATHS = new Set(['/api/ask', '/api/schedule']);

/** Builds the whole HTTP app from its dependencies; no side effects, so tests call app.request(). */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(requestLog(deps.logger));
  app.use(securityHeaders(deps.config));
  app.use(devLoopbackRedirect(deps.config));
  // Stripe signs webhooks; they carry no Origin and no session. Unsubscribe links are RFC 8058 one-click
  // POSTs from mail clients and providers (any origin, no session): the token in the path is the secret.
  app.use(sameOrigin(deps.config.appOrigin, (path) => path === '/webhook' || path.startsWith('/unsubscribe/')));
  app.use(loadSession(deps.sql, deps.config));

  app.route('/', healthRoutes(deps));
  app.route('/', pageRoutes(deps));
  app.route('/', authRoutes(deps));
  app.route('/', askRoutes(deps));
  app.route('/', timerRoutes(deps));
  app.route('/', timerSettingsRoutes(deps));
  app.route('/', unsubscribeRoutes(deps));
  app.route('/', billingRoutes(deps));
  app.route('/', webhookRoutes(deps));
  app.route('/', adminRoutes(deps));

  app.notFound((c) => (c.req.path.startsWith('/api/') ? c.json({ error: 'There is no such API route.' }, 404) : c.text('Not found', 404)));

  app.onError((err, c) => {
    // The page shows these routes' reply text verbatim after 'Backend error: ' (CONTRACT.md), so even an
    // unexpected failure or a middleware refusal must be a sentence there, not JSON.
    const text = c.req.method === 'POST' && TEXT_ERROR_PATHS.has(c.req.path);
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.options.headers ?? {})) c.header(k, v);
      if (err.options.format === 'text' || (text && !err.options.body)) return c.text(err.message, err.status);
      return c.json(err.options.body ?? { error: err.message }, err.status);
    }
    if (err instanceof HTTPException) {
      const res = err.getResponse();
      if (res.status === 401 && res.headers.has('www-authenticate')) return res;
      const message = err.message || 'The request could not be processed.';
      return text ? c.text(message, err.status) : c.json({ error: message }, err.status);
    }
    c.get('log')?.error({ err }, 'unhandled error');
    const message = 'Something went wrong on our side. Please try again in a moment.';
    return text ? c.text(message, 500) : c.json({ error: message }, 500);
  });

  return app;
}
