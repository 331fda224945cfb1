import { createMiddleware } from 'hono/factory';
import { apiTokenHash, isApiTokenShape } from '../../core/auth/api-token';
import type { ApiTokenScope } from '../../core/contract/api-tokens';
import type { Sql } from '../../db/client';
import { holderOfApiToken } from '../../db/api-tokens';
import type { AppEnv } from '../deps';
import { ApiError } from '../errors';

const MAKE_ONE = 'Make a personal API token on the plans page (API tokens) and send it as "Authorization: Bearer <token>".';

// RFC 6750 section 3: a refused bearer request says which scheme it wants, and why in `error`.
const refused = (status: 401 | 403, error: string, message: string, scope?: ApiTokenScope) =>
  new ApiError(status, message, {
    headers: { 'WWW-Authenticate': `Bearer realm="Event Finder", error="${error}"${scope ? `, scope="${scope}"` : ''}` },
  });

/**
 * The user of a /v1 or /mcp request, from its `Authorization: Bearer` token alone. The session cookie is never
 * read on these routes (app.ts skips loading it), so a page on another site cannot ride a signed-in browser's
 * cookie here, and no CSRF check is needed.
 */
export function bearerUser(sql: Sql) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw refused(401, 'invalid_request', `This call needs a personal API token. ${MAKE_ONE}`);
    const token = match[1]!;
    const holder = isApiTokenShape(token) ? await holderOfApiToken(sql, apiTokenHash(token)) : null;
    if (!holder) {
      throw refused(401, 'invalid_token', `This API token is not valid: it was revoked, mistyped or never existed. ${MAKE_ONE}`);
    }
    c.set('user', holder.user);
    c.set('tokenScopes', holder.scopes);
    await next();
  });
}

/** Refuses a token without `scope` (403), before the body is read. */
export function requireScope(scope: ApiTokenScope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!c.get('tokenScopes')?.includes(scope)) {
      throw refused(
        403,
        'insufficient_scope',
        `This API token may not do this: it needs the "${scope}" scope. Make a token with that scope on the plans page.`,
        scope,
      );
    }
    await next();
  });
}
