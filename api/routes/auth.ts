import { Hono } from 'hono';
import { googleSignInRequestSchema, type LogoutReply, type SessionReply, type SignInReply } from '../../core/contract/auth';
import { getCookie } from 'hono/cookie';
import { createGoogleIdTokenVerifier } from '../../core/auth/google-id-token';
import { createLoginRateLimiter } from '../../core/auth/login-rate-limit';
import { endSession } from '../../core/auth/end-sessions';
import { createSession, SESSION_COOKIE } from '../../db/sessions';
import { upsertUserFromGoogle } from '../../db/users';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { clearSessionCookies, startSessionCookies } from '../middleware/session';
import { jsonBody } from '../validate';
import { clientIp } from '../client-ip';

/** POST /api/auth/google, GET /api/check-session, GET /api/logout (spec section 7). */
export function authRoutes({ config, sql, redis, sessionRevocations }: AppDeps) {
  const app = new Hono<AppEnv>();
  const verify = createGoogleIdTokenVerifier(config.google);
  const limiter = createLoginRateLimiter(redis, config.queuePrefix);

  // An unreadable body is a sign-in that failed, answered in the sign-in reply's own shape.
  const unreadable = () => loginError(401, 'The sign-in credential was missing or unreadable. Please try signing in again.');
  app.post('/api/auth/google', jsonBody(googleSignInRequestSchema, unreadable), async (c) => {
    const ip = clientIp(c, config.trustedProxyHops);
    const attempt = await limiter.check(ip, c.get('log'));
    if (!attempt.allowed) {
      const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
      throw loginError(
        429,
        `Too many sign-in attempts from your network. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
        {
          'Retry-After': String(attempt.retryAfterSeconds),
        },
      );
    }
    const result = await verify(c.req.valid('json').token);
    if (!result.ok) {
      c.get('log').info({ reason: result.reason, error: result.message }, 'google sign-in refused');
      // Only a refused token counts against the client; Google's keys being unreachable is not its doing.
      if (result.reason !== 'unavailable') await limiter.recordFailure(ip, c.get('log'));
      throw loginError(result.reason === 'unavailable' ? 503 : 401, result.message);
    }
    const user = await upsertUserFromGoogle(sql, result.identity);
    // A new sign-in replaces whatever session this browser had, so no orphan stays valid.
    await endSession(sql, sessionRevocations, getCookie(c, SESSION_COOKIE));
    const session = await createSession(sql, user.id);
    startSessionCookies(c, config, sessionRevocations, { id: user.id, email: user.email, name: user.name }, session);
    c.get('log').info({ userId: user.id }, 'signed in with google');
    return c.json({ status: 'success' } satisfies SignInReply);
  });

  // No-store comes from the /api middleware (middleware/no-store.ts): a header of the route's own would make Hono
  // build a fetch Headers for the one reply the page asks most often.
  app.get('/api/check-session', (c) => c.json({ loggedIn: c.get('user') !== null } satisfies SessionReply));

  app.get('/api/logout', async (c) => {
    // The spec fixes GET, which SameSite=Lax still sends on a cross-site link; a browser marks such a request.
    const site = c.req.header('sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') {
      throw new ApiError(403, 'This logout request came from another site and was refused. Use the Logout button instead.');
    }
    const wasSignedIn = c.get('user') !== null;
    await endSession(sql, sessionRevocations, getCookie(c, SESSION_COOKIE));
    clearSessionCookies(c, config);
    c.header('Cache-Control', 'no-store');
    return c.json({ message: wasSignedIn ? 'You are now logged out.' : 'You were not signed in.' } satisfies LogoutReply);
  });

  return app;
}

function loginError(status: 401 | 429 | 503, error: string, headers?: Record<string, string>): ApiError {
  return new ApiError(status, error, { body: { status: 'error', error }, headers });
}
