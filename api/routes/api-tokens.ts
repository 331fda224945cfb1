import { Hono } from 'hono';
import { newApiToken } from '../../core/auth/api-token';
import { type ApiTokenReply, type CreatedApiTokenReply, createApiTokenRequestSchema } from '../../core/contract/api-tokens';
import { controlCharacterMessage, hasControlCharacters } from '../../core/control-characters';
import { type ApiToken, deleteApiToken, insertApiToken, listApiTokens } from '../../db/api-tokens';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { requireUser, signedIn } from '../middleware/session';
import { routeId } from '../route-id';
import { jsonBody } from '../validate';

/** At most this many tokens per user: one per tool or agent is plenty, and each is a key to the account. */
export const MAX_API_TOKENS_PER_USER = 20;

const tokenJson = (t: ApiToken): ApiTokenReply => ({
  id: t.id,
  name: t.name,
  hint: t.hint,
  scopes: t.scopes,
  created_at: t.createdAt.toISOString(),
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
});

/**
 * The page's personal API tokens (docs/decisions/public-api-and-mcp.md): made, listed and revoked with the session cookie only. A
 * bearer token never reaches these routes (they are under /api, where the cookie is the only credential), so a
 * token cannot mint more tokens.
 */
export function apiTokenRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get('/api/tokens', async (c) => {
    const user = requireUser(c);
    return c.json((await listApiTokens(deps.sql, user.id)).map(tokenJson));
  });

  app.post('/api/tokens', signedIn, jsonBody(createApiTokenRequestSchema), async (c) => {
    const user = requireUser(c);
    const { name, scopes } = c.req.valid('json');
    if (hasControlCharacters(name, 'single-line')) throw new ApiError(400, controlCharacterMessage('token name'));
    const { token, hash, hint } = newApiToken();
    const stored = await insertApiToken(deps.sql, user.id, { name, hash, hint, scopes: [...new Set(scopes)] }, MAX_API_TOKENS_PER_USER);
    if (!stored) {
      throw new ApiError(
        400,
        `You already have ${MAX_API_TOKENS_PER_USER} API tokens, the most allowed. Revoke one before making another.`,
      );
    }
    c.get('log').info({ tokenId: stored.id, scopes: stored.scopes }, 'api token created');
    return c.json({ ...tokenJson(stored), token } satisfies CreatedApiTokenReply, 201);
  });

  app.delete('/api/tokens/:id', async (c) => {
    const user = requireUser(c);
    const id = routeId(c.req.param('id'));
    if (id === null || !(await deleteApiToken(deps.sql, user.id, id))) {
      throw new ApiError(404, 'There is no such token among yours. Reload the page to see your tokens.');
    }
    c.get('log').info({ tokenId: id }, 'api token revoked');
    return c.body(null, 204);
  });

  return app;
}
