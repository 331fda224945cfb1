import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../../core/config';
import type { Sql } from '../../db/client';
import { SESSION_COOKIE, validateSession, type SessionUser } from '../../db/sessions';
import type { AppEnv } from '../deps';
import { ApiError } from '../errors';

/** Sets the session cookie with the flags the contract asks for. */
export function setSessionCookie(c: Context, config: Config, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.secureCookies,
    path: '/',
    expires: expiresAt,
  });
}

/** Loads the user from the session cookie (never from the request body); renews the cookie when slid. */
export function loadSession(sql: Sql, config: Config) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE);
    const check = token ? await validateSession(sql, token) : { valid: false as const };
    c.set('user', check.valid ? check.user : null);
    if (check.valid && check.renewed && token) setSessionCookie(c, config, token, check.expiresAt);
    await next();
  });
}

/** The signed-in user, or a 401. */
export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'Please sign in with Google first.');
  return user;
}

/** Refuses a request without a signed-in user before its body is read or validated. */
export const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireUser(c);
  await next();
};
