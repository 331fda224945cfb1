import { randomInt } from 'node:crypto';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import type { AppEnv } from '../api/deps';
import { LOGIN_ATTEMPTS_PER_WINDOW } from '../core/auth/login-rate-limit';
import { getBilling } from '../db/accounts';
import { hashToken, SESSION_COOKIE } from '../db/sessions';
import type { GoogleTokenClaims, MintOptions } from '../dev/standins/google';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { testBaseEnv } from '../dev/harness/base-env';
import { loadConfig } from '../core/config';
import { ALLOWANCES } from '../core/plans';

describe('Google sign-in and sessions', () => {
  let stack: TestStack;
  let app: Hono<AppEnv>;
  beforeAll(async () => {
    stack = await startTestStack();
    app = createApp(stack.deps);
  });
  afterAll(() => stack?.close());

  // Each call comes from its own client IP (as @hono/node-server reports it), so the login limiter only
  // counts what a test means it to count.
  const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const envFor = (ip: string) => ({ incoming: { socket: { remoteAddress: ip, remoteFamily: 'IPv4' } } });

  function login(body: unknown, init: { ip?: string; headers?: Record<string, string>; on?: Hono<AppEnv> } = {}) {
    return (init.on ?? app).request(
      '/api/auth/google',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      },
      envFor(init.ip ?? randomIp()),
    );
  }

  const mint = (claims: Partial<GoogleTokenClaims> = {}, options?: MintOptions) => stack.standins.google.mintToken(claims, options);

  function sessionCookie(res: Response): string {
    const header = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    if (!header) throw new Error('no session cookie was set');
    return header;
  }
  const cookieValue = (setCookie: string) => setCookie.split(';')[0]!;

  async function counts() {
    const [row] = await stack.db.sql<{ users: string; sessions: string; accounts: string }[]>`
      select (select count(*) from users) as users, (select count(*) from sessions) as sessions,
             (select count(*) from accounts) as accounts`;
    return row;
  }

  it('signs in on a port other than 8080 with no APP_URL: the origin check expects http://localhost:$PORT', async () => {
    const env = testBaseEnv({
      appUrl: stack.url,
      databaseUrl: stack.db.url,
      queuePrefix: stack.config.queuePrefix,
      standins: stack.standins,
    });
    const { APP_URL: _unset, ...withoutAppUrl } = env;
    const config = loadConfig({ ...withoutAppUrl, PORT: '8180' });
    expect(config.appUrl).toBe('http://localhost:8180');
    const on = createApp({ ...stack.deps, config });
    const res = await login({ token: await mint() }, { on, headers: { origin: 'http://localhost:8180' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'success' });
    // The old default's origin is another site now.
    expect((await login({ token: await mint() }, { on, headers: { origin: 'http://localhost:8080' } })).status).toBe(403);
  });

  it('signs a new user in: free account with 10 credits, a session and its cookie', async () => {
    const email = `new-${randomInt(1e9)}@example.com`;
    const res = await login({ token: await mint({ email, name: 'New Person' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'success' });

    const cookie = sessionCookie(res);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/);

    const [user] = await stack.db.sql<{ id: string; google_sub: string; name: string }[]>`
      select id, google_sub, name from users where email = ${email}`;
    expect(user).toMatchObject({ google_sub: stack.standins.google.subForEmail(email), name: 'New Person' });
    const billing = await getBilling(stack.db.sql, Number(user!.id), ALLOWANCES);
    expect(billing).toMatchObject({ tier: 'free', credits: 10 });
    // Only a hash of the token is stored.
    const token = cookieValue(cookie).slice(SESSION_COOKIE.length + 1);
    const sessions = await stack.db.sql`select 1 from sessions where token_hash = ${hashToken(token)} and user_id = ${user!.id}`;
    expect(sessions.length).toBe(1);

    const check = await app.request('/api/check-session', { headers: { cookie: cookieValue(cookie) } });
    expect(await check.json()).toEqual({ loggedIn: true });
    expect(await (await app.request('/api/check-session')).json()).toEqual({ loggedIn: false });
  });

  it('signs a returning user into the same account and accepts the short issuer spelling', async () => {
    const email = `back-${randomInt(1e9)}@example.com`;
    expect((await login({ token: await mint({ email }) })).status).toBe(200);
    const before = await counts();
    const again = await login({ token: await mint({ email, iss: 'accounts.google.com', name: 'Renamed' }) });
    expect(again.status).toBe(200);
    const after = await counts();
    expect(after!.users).toBe(before!.users);
    expect(after!.accounts).toBe(before!.accounts);
    expect(Number(after!.sessions)).toBe(Number(before!.sessions) + 1);
    const [row] = await stack.db.sql<{ name: string }[]>`select name from users where email = ${email}`;
    expect(row!.name).toBe('Renamed');
  });

  const refusals: [string, () => Promise<unknown>][] = [
    ['a forged signature', async () => ({ token: await mint({}, { forged: true }) })],
    ['a wrong audience', async () => ({ token: await mint({ aud: 'someone-else.apps.googleusercontent.com' }) })],
    ['a wrong issuer', async () => ({ token: await mint({ iss: 'https://accounts.evil.example' }) })],
    [
      'an expired token',
      async () => {
        const now = Math.floor(Date.now() / 1000);
        return { token: await mint({ iat: now - 7200, exp: now - 3600 }) };
      },
    ],
    ['an unverified email', async () => ({ token: await mint({ email_verified: false }) })],
    ['a token without email_verified', async () => ({ token: await mint({ email_verified: undefined }) })],
    ['a token without sub', async () => ({ token: await mint({ sub: undefined }) })],
    ['a token without iat', async () => ({ token: await mint({ iat: undefined }) })],
    ['an HS256 token', async () => ({ token: await mint({}, { alg: 'HS256' }) })],
    ['an unsigned token', async () => ({ token: await mint({}, { alg: 'none' }) })],
    ['a malformed token', async () => ({ token: 'not-a-google-token' })],
    ['a token that only looks like a JWT', async () => ({ token: 'aaa.bbb.ccc' })],
    ['a token of the wrong type', async () => ({ token: 12345 })],
    ['a body without token', async () => ({})],
    ['a missing body', async () => undefined],
    ['a body that is not JSON', async () => '{"token":'],
  ];

  it.each(refusals)('refuses %s with 401 and writes nothing', async (_name, body) => {
    const before = await counts();
    const res = await login(await body());
    expect(res.status).toBe(401);
    const reply = (await res.json()) as { status: string; error: string };
    expect(reply.status).toBe('error');
    expect(reply.error).toMatch(/\w+ .*\./);
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it('marks the cookie Secure when APP_URL is https', async () => {
    const secureApp = createApp({ ...stack.deps, config: { ...stack.deps.config, secureCookies: true } });
    const res = await login({ token: await mint({ email: `secure-${randomInt(1e9)}@example.com` }) }, { on: secureApp });
    expect(res.status).toBe(200);
    expect(sessionCookie(res)).toMatch(/; Secure/);
  });

  it('logout deletes the session server-side: the old cookie no longer works', async () => {
    const res = await login({ token: await mint({ email: `out-${randomInt(1e9)}@example.com` }) });
    const cookie = cookieValue(sessionCookie(res));
    const token = cookie.slice(SESSION_COOKIE.length + 1);

    const out = await app.request('/api/logout', { headers: { cookie } });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ message: expect.any(String) });
    const cleared = sessionCookie(out);
    expect(cleared).toMatch(/Max-Age=0/);
    expect(cleared).toMatch(/; HttpOnly/);

    expect((await stack.db.sql`select 1 from sessions where token_hash = ${hashToken(token)}`).length).toBe(0);
    // The browser would drop the cookie; a copy kept by someone else is dead too.
    expect(await (await app.request('/api/check-session', { headers: { cookie } })).json()).toEqual({ loggedIn: false });
  });

  it('refuses a logout link followed from another site and keeps the session', async () => {
    const res = await login({ token: await mint({ email: `link-${randomInt(1e9)}@example.com` }) });
    const cookie = cookieValue(sessionCookie(res));
    const out = await app.request('/api/logout', { headers: { cookie, 'sec-fetch-site': 'cross-site' } });
    expect(out.status).toBe(403);
    expect(await (await app.request('/api/check-session', { headers: { cookie } })).json()).toEqual({ loggedIn: true });
  });

  it('refuses cross-origin POSTs with 403 before they reach the route', async () => {
    const before = await counts();
    const token = await mint({ email: `csrf-${randomInt(1e9)}@example.com` });
    const fromOrigin = await login({ token }, { headers: { origin: 'https://evil.example' } });
    expect(fromOrigin.status).toBe(403);
    expect(await fromOrigin.json()).toEqual({ error: expect.stringMatching(/another site/) });
    const fromSite = await login({ token }, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(fromSite.status).toBe(403);
    expect(await counts()).toEqual(before);

    // Any other state-changing call, with a valid session cookie riding along.
    const session = cookieValue(sessionCookie(await login({ token })));
    for (const path of ['/api/ask', '/api/schedule', '/api/timer/delete', '/create-checkout-session']) {
      const res = await app.request(path, {
        method: 'POST',
        headers: { cookie: session, origin: 'https://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, path).toBe(403);
    }
    // The app's own origin passes the check.
    const own = await login({ token }, { headers: { origin: stack.config.appOrigin, 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
  });

  it('rate-limits sign-in attempts per IP with 429', async () => {
    const ip = randomIp();
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) {
      expect((await login({ token: 'x.y.z' }, { ip })).status).toBe(401);
    }
    const before = await counts();
    // Even a valid token is refused once the limit is reached.
    const limited = await login({ token: await mint({ email: `rl-${randomInt(1e9)}@example.com` }) }, { ip });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ status: 'error', error: expect.stringMatching(/Too many sign-in attempts.*try again/) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await counts()).toEqual(before);
    // Another address is not affected.
    expect((await login({ token: 'x.y.z' }, { ip: randomIp() })).status).toBe(401);
  });

  it('behind trusted proxies counts the address the nearest proxy saw; otherwise ignores X-Forwarded-For', async () => {
    const proxy = randomIp();
    const behindOneProxy = createApp({ ...stack.deps, config: { ...stack.deps.config, trustedProxyHops: 1 } });
    const client = randomIp();
    const spoofed = (i: number) => ({ 'x-forwarded-for': `203.0.113.${i}, ${client}` });
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) {
      // The client writes a different left-most address each time; the proxy appends the real one.
      expect((await login({ token: 'x.y.z' }, { on: behindOneProxy, ip: proxy, headers: spoofed(i) })).status).toBe(401);
    }
    expect((await login({ token: 'x.y.z' }, { on: behindOneProxy, ip: proxy, headers: spoofed(99) })).status).toBe(429);
    // Another client behind the same proxy has its own allowance.
    const other = { 'x-forwarded-for': randomIp() };
    expect((await login({ token: 'x.y.z' }, { on: behindOneProxy, ip: proxy, headers: other })).status).toBe(401);

    // Without trusted proxies the header is the client's own words: the socket address counts.
    const direct = randomIp();
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) {
      expect((await login({ token: 'x.y.z' }, { ip: direct, headers: { 'x-forwarded-for': randomIp() } })).status).toBe(401);
    }
    expect((await login({ token: 'x.y.z' }, { ip: direct, headers: { 'x-forwarded-for': randomIp() } })).status).toBe(429);
  });

  it('counts attempts over real HTTP connections by their remote address', async () => {
    const res = await fetch(`${stack.url}/api/auth/google`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'x.y.z' }),
    });
    expect(res.status).toBe(401);
    const keys = await stack.redis.keys(`${stack.config.queuePrefix}:login-ip*127.0.0.1`);
    expect(keys.length).toBe(1);
  });
});
