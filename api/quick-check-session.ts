import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseCookies } from 'hono/utils/cookie';
import { SESSION_PROOF_COOKIE } from '../core/auth/session-proof';
import type { SessionReply } from '../core/contract/auth';
import { countRequest } from '../core/metrics';
import { SESSION_COOKIE } from '../db/sessions';
import type { AppDeps } from './deps';
import { NO_STORE } from './middleware/no-store';
import { logRequestLine, requestIdFrom } from './middleware/request-log';
import { securityHeaderLists } from './middleware/security-headers';
import { proofsFor } from './middleware/session';

/** Answers a request on Node's response and says true, or says false and leaves it to the app. */
export type QuickRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

// The route's path, which is also its pattern in the request metrics.
const PATH = '/api/check-session';

/**
 * `GET /api/check-session`, the request every page load makes, answered on Node's response before the app's
 * middleware chain (decision 091) when the answer needs nothing this process does not already hold: no session
 * cookie (signed out), or a session proof this process has checked before (decisions 025, 037). The reply is the
 * app's, header for header (the security headers, `X-Request-Id`, `Cache-Control: no-store`, the JSON body), the
 * request is logged and counted as the app does, and `test/quick-check-session.test.ts` holds the two replies
 * side by side. Anything else (a proof not met yet, which costs a Postgres read and sets cookies; a body; a
 * query; a forwarded address the app may warn about) goes to the app.
 */
export function quickCheckSession(deps: Pick<AppDeps, 'config' | 'logger' | 'sessionRevocations'>): QuickRoute {
  const { config, logger } = deps;
  const proofs = proofsFor(config, deps.sessionRevocations);
  // The reply's fixed headers, flat as Node's writeHead takes them; the request id and length are added per reply.
  const fixed: string[] = [];
  for (const [name, value] of [...securityHeaderLists(config).app, ...NO_STORE, ['Content-Type', 'application/json']])
    fixed.push(name, value);
  const bodies = {
    in: JSON.stringify({ loggedIn: true } satisfies SessionReply),
    out: JSON.stringify({ loggedIn: false } satisfies SessionReply),
  };

  return (req, res) => {
    if (req.url !== PATH || req.method !== 'GET') return false;
    const headers = req.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (config.trustedProxyHops === 0 && headers['x-forwarded-for'] !== undefined) return false;
    const startedAt = performance.now();
    const cookies = headers.cookie ? parseCookies(headers.cookie) : {};
    const token = cookies[SESSION_COOKIE];
    let userId: number | undefined;
    if (token) {
      const proof = proofs ? cookies[SESSION_PROOF_COOKIE] : undefined;
      const user = proof ? proofs!.known(proof, token) : undefined;
      // Unknown or no longer good: the app checks the session in Postgres and may renew both cookies.
      if (!user) return false;
      userId = user.id;
    }
    const requestId = requestIdFrom(headers['x-request-id'] as string | undefined);
    const body = userId === undefined ? bodies.out : bodies.in;
    res.writeHead(200, [...fixed, 'X-Request-Id', requestId, 'Content-Length', String(Buffer.byteLength(body))]);
    res.end(body);
    countRequest('GET', PATH, 200, (performance.now() - startedAt) / 1000);
    if (logger.isLevelEnabled('info')) logRequestLine(logger, { requestId, method: 'GET', path: PATH, status: 200, startedAt, userId });
    return true;
  };
}
