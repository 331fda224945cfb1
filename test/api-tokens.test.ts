import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenHash } from '../core/auth/api-token';
import { apiTokenSchema, apiTokensReplySchema, createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';

/** Personal API tokens (docs/decisions/public-api-and-mcp.md): made, listed and revoked with the cookie; used as a bearer token on /v1. */
describe('personal API tokens', () => {
  let stack: TestStack;
  let cookie: string;
  let otherCookie: string;
  beforeAll(async () => {
    stack = await startTestStack();
    ({ cookie } = await createSignedInUser(stack.db.sql));
    ({ cookie: otherCookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const page = (method: string, path: string, body?: unknown, as = cookie) =>
    fetch(`${stack.url}${path}`, {
      method,
      headers: { cookie: as, origin: stack.url, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const bearer = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${stack.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });

  async function makeToken(scopes: string[], as = cookie, name = 'my tool') {
    const res = await page('POST', '/api/tokens', { name, scopes }, as);
    expect(res.status).toBe(201);
    return createdApiTokenReplySchema.parse(await res.json());
  }

  it('makes a token shown once and stores only its SHA-256', async () => {
    const made = await makeToken(['read', 'timers']);
    expect(made.token).toMatch(/^ef_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: 'my tool', scopes: ['read', 'timers'], last_used_at: null, hint: `${made.token.slice(0, 7)}…` });
    const [row] = await stack.db.sql`select to_jsonb(t)::text as row, token_hash from api_tokens t where id = ${made.id}`;
    expect(row!.token_hash).toBe(apiTokenHash(made.token));
    expect(row!.row).not.toContain(made.token);
    const list = apiTokensReplySchema.parse(await (await page('GET', '/api/tokens')).json());
    expect(list.map((t) => t.id)).toContain(made.id);
    expect(JSON.stringify(list)).not.toContain(made.token);
    // Another user sees none of them.
    expect(await (await page('GET', '/api/tokens', undefined, otherCookie)).json()).toEqual([]);
  });

  it.each([
    ['no name', { name: '  ', scopes: ['read'] }, /name of 1 to 60/],
    ['no scope', { name: 'x', scopes: [] }, /at least one scope/],
    ['an unknown scope', { name: 'x', scopes: ['admin'] }, /read, search, timers/],
    ['a control character', { name: 'a\u0000b', scopes: ['read'] }, /control character/],
  ])('refuses %s with a sentence', async (_what, body, message) => {
    const res = await page('POST', '/api/tokens', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  it('names the user by the token alone: the session cookie counts for nothing on /v1', async () => {
    const made = await makeToken(['read']);
    // The cookie of a signed-in user opens nothing here...
    const cookieOnly = await fetch(`${stack.url}/v1/timers`, { headers: { cookie } });
    expect(cookieOnly.status).toBe(401);
    expect(cookieOnly.headers.get('www-authenticate')).toMatch(/^Bearer realm="Event Finder", error="invalid_request"/);
    expect(((await cookieOnly.json()) as { detail: string }).detail).toMatch(/personal API token/);
    // ...and beside a token it does not change whose data it is.
    await page('POST', '/api/schedule', dailyTimer({ ques: 'the token user’s timer' }));
    await page('POST', '/api/schedule', dailyTimer({ ques: 'someone else’s timer' }), otherCookie);
    const res = await bearer(made.token, '/v1/timers', { headers: { cookie: otherCookie } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { ques: string }[]).map((t) => t.ques)).toEqual(['the token user’s timer']);
    // The token is noted as used.
    const listed = apiTokensReplySchema.parse(await (await page('GET', '/api/tokens')).json()).find((t) => t.id === made.id);
    expect(apiTokenSchema.parse(listed).last_used_at).not.toBeNull();
  });

  it('takes bearer calls from any origin (no CSRF without a cookie), while the page’s routes still refuse them', async () => {
    const made = await makeToken(['timers', 'read']);
    const res = await bearer(made.token, '/v1/timers', {
      method: 'POST',
      headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      body: JSON.stringify(dailyTimer({ ques: 'from an agent' })),
    });
    expect(res.status).toBe(201);
    const crossSite = await fetch(`${stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: 'https://elsewhere.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'stolen', scopes: ['read'] }),
    });
    expect(crossSite.status).toBe(403);
    // A token cannot make tokens: /api takes the cookie only.
    expect((await bearer(made.token, '/api/tokens', { method: 'POST', body: '{}' })).status).toBe(401);
  });

  it('refuses a call outside the token’s scopes with 403 and names the scope', async () => {
    const made = await makeToken(['read']);
    const res = await bearer(made.token, '/v1/timers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(dailyTimer()),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="timers"');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/needs the "timers" scope/);
    const search = await bearer(made.token, '/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ques: 'x' }),
    });
    expect(search.status).toBe(403);
  });

  it('shows feed and webhook addresses only to tokens that may change timers: a read token never learns them', async () => {
    const { cookie: own } = await createSignedInUser(stack.db.sql);
    const saved = await page('POST', '/api/schedule', dailyTimer(), own);
    expect(saved.status).toBe(200);
    const { id } = (await saved.json()) as { id: number };
    const hook = 'https://hooks.example/services/T000/B000/very-secret-path';
    await stack.db.sql`update timers set webhook_url = ${hook} where id = ${id}`;
    const listed = async (token: string) => {
      const res = await bearer(token, '/v1/timers');
      expect(res.status).toBe(200);
      return ((await res.json()) as Record<string, unknown>[]).find((t) => t.id === id)!;
    };
    const reader = await listed((await makeToken(['read'], own)).token);
    expect(reader.webhook_url).toBeNull();
    expect(reader).not.toHaveProperty('ical_url');
    expect(reader).not.toHaveProperty('atom_url');
    expect(JSON.stringify(reader)).not.toMatch(/feeds\/|very-secret-path/);
    const manager = await listed((await makeToken(['read', 'timers'], own)).token);
    expect(manager.webhook_url).toBe(hook);
    expect(manager.ical_url).toMatch(/\/feeds\/[^/]+\.ics$/);
    expect(manager.atom_url).toMatch(/\/feeds\/[^/]+\.atom$/);
    const onThePage = ((await (await page('GET', '/api/timers', undefined, own)).json()) as Record<string, unknown>[])[0]!;
    expect(onThePage).toMatchObject({ webhook_url: hook, ical_url: manager.ical_url, atom_url: manager.atom_url });
  });

  it('stops a revoked token at once, and refuses made-up ones', async () => {
    const made = await makeToken(['read']);
    expect((await bearer(made.token, '/v1/timers')).status).toBe(200);
    expect((await page('DELETE', `/api/tokens/${made.id}`, undefined, otherCookie)).status).toBe(404);
    expect((await page('DELETE', `/api/tokens/${made.id}`)).status).toBe(204);
    const res = await bearer(made.token, '/v1/timers');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await bearer(`ef_${'A'.repeat(43)}`, '/v1/timers')).status).toBe(401);
    expect((await bearer('not-a-token', '/v1/timers')).status).toBe(401);
  });

  it('draws on the page’s credits: a user without searches left is refused a /v1 search and run, with a sentence', async () => {
    const { user, cookie: fresh } = await createSignedInUser(stack.db.sql);
    const made = await makeToken(['search', 'timers'], fresh);
    const timer = (await (await page('POST', '/api/schedule', dailyTimer(), fresh)).json()) as { id: number };
    await stack.db.sql`update accounts set searches_used = 10 where user_id = ${user.id}`;
    const search = await bearer(made.token, '/v1/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ques: 'AI events' }),
    });
    expect(search.status).toBe(402);
    expect(((await search.json()) as { detail: string }).detail).toMatch(/used all 10 searches of your free plan/);
    const run = await bearer(made.token, `/v1/timers/${timer.id}/run`, { method: 'POST' });
    expect(run.status).toBe(402);
    const [searches] = await stack.db.sql`select count(*)::int as n from searches where user_id = ${user.id} and status = 'answered'`;
    expect(searches!.n).toBe(0);
  });

  it('allows at most 20 tokens per user', async () => {
    const { cookie: fresh } = await createSignedInUser(stack.db.sql);
    for (let i = 0; i < 20; i++) await makeToken(['read'], fresh, `tool ${i}`);
    const res = await page('POST', '/api/tokens', { name: 'one more', scopes: ['read'] }, fresh);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/20 API tokens/);
  });
});
