import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../../core/config';
import { SESSION_PROOF_COOKIE, type SessionProofs, sessionProofs } from '../../core/auth/session-proof';
import type { RevocationWatch } from '../../core/auth/session-revocation';
import type { Sql } from '../../db/client';
import { SESSION_COOKIE, sessionHeldBy, validateSession, type SessionUser } from '../../db/sessions';
import type { AppEnv } from '../deps';
import { ApiError } from '../errors';

type CookieConfig = Pick<Config, 'secureCookies' | 'sessionProof'>;

/** Sets the session cookie with the flags the contract asks for. */
export function setSessionCookie(c: Context, config: CookieConfig, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.secureCookies,
    path: '/',
    expires: expiresAt,
  });
}

/** Sets a fresh proof beside the session cookie; it ends with its lifetime, or with the session if sooner. */
function setProofCookie(c: Context, config: CookieConfig, proofs: SessionProofs, user: SessionUser, token: string, sessionEnd: Date): void {
  const now = Date.now();
  const end = Math.min(now + config.sessionProof!.lifetimeMs, sessionEnd.getTime());
  setCookie(c, SESSION_PROOF_COOKIE, proofs.sign(user, token, end), {
    httpOnly: true,
    sameSite: 'Lax',
    secure: config.secureCookies,
    path: '/',
    maxAge: Math.max(0, Math.floor((end - now) / 1000)),
  });
}

// One set of proofs per revocation watch and secret in a process, so what one app instance checked another
// need not check again.
const proofsByWatch = new WeakMap<RevocationWatch, Map<string, SessionProofs>>();

/** The proofs of this configuration, or null when proofs are off (every request asks Postgres). */
function proofsFor(config: CookieConfig, revocations: RevocationWatch): SessionProofs | null {
  if (!config.sessionProof) return null;
  const { secret } = config.sessionProof;
  let bySecret = proofsByWatch.get(revocations);
  if (!bySecret) {
    bySecret = new Map();
    proofsByWatch.set(revocations, bySecret);
  }
  let proofs = bySecret.get(secret);
  if (!proofs) {
    proofs = sessionProofs(secret, revocations);
    bySecret.set(secret, proofs);
  }
  return proofs;
}

/** After sign-in: the session cookie and, when proofs are on, the first proof, so the next request needs no lookup. */
export function startSessionCookies(
  c: Context,
  config: CookieConfig,
  revocations: RevocationWatch,
  user: SessionUser,
  session: { token: string; expiresAt: Date },
): void {
  setSessionCookie(c, config, session.token, session.expiresAt);
  const proofs = proofsFor(config, revocations);
  if (proofs) setProofCookie(c, config, proofs, user, session.token, session.expiresAt);
}

/** At logout: both cookies go, so the browser keeps no proof of a session that no longer exists. */
export function clearSessionCookies(c: Context, config: CookieConfig): void {
  for (const name of [SESSION_COOKIE, SESSION_PROOF_COOKIE]) {
    deleteCookie(c, name, { path: '/', httpOnly: true, sameSite: 'Lax', secure: config.secureCookies });
  }
}

/**
 * Loads the user from the session cookie (never from the request body). A valid, unexpired proof issued for
 * this session cookie, whose session this process has seen exist, stands in for the Postgres lookup
 * (docs/decisions/sign-in-and-sessions.md); otherwise the session is checked in Postgres, the cookie renewed when
 * slid, and a new proof issued.
 */
export function loadSession(sql: Sql, config: CookieConfig, revocations: RevocationWatch) {
  const proofs = proofsFor(config, revocations);
  const held = (token: string, userId: number) => sessionHeldBy(sql, token, userId);
  return createMiddleware<AppEnv>(async (c, next) => {
    // Both cookies from one reading of the Cookie header.
    const cookies = getCookie(c);
    const token = cookies[SESSION_COOKIE];
    if (!token) {
      c.set('user', null);
      return next();
    }
    const proof = proofs ? cookies[SESSION_PROOF_COOKIE] : undefined;
    // A proof this process has not met yet costs one indexed read; a failed read only means Postgres decides below.
    const proven = proof ? await proofs!.verify(proof, token, held).catch(() => null) : null;
    if (proven) {
      c.set('user', proven);
      return next();
    }
    const check = await validateSession(sql, token);
    c.set('user', check.valid ? check.user : null);
    if (check.valid) {
      if (check.renewed) setSessionCookie(c, config, token, check.expiresAt);
      if (proofs) setProofCookie(c, config, proofs, check.user, token, check.expiresAt);
    }
    return next();
  });
}

/** The signed-in user, or a 401. */
export function requireUser<E extends AppEnv>(c: Context<E>): SessionUser {
  const user = c.get('user');
  if (!user) throw new ApiError(401, 'Please sign in with Google first.');
  return user;
}

/** Refuses a request without a signed-in user before its body is read or validated. */
export const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireUser(c);
  await next();
};
