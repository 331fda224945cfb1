import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import type { AppEnv } from '../api/deps';
import { createRedis } from '../core/redis/client';
import { createSql, type Sql } from '../db/client';
import { captureLogs } from './support/logs';
import { freePort } from '../dev/harness/processes';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';

// Redis or Postgres "down": the app's client pointed at a loopback port nobody listens on, as when the server
// is stopped. Every route that needs it must answer 503 with a sentence (never 500), and sign-in keeps working
// without Redis (the rate limiter fails open, logged: docs/decisions/hardening.md).
describe('when Redis or Postgres is down', () => {
  let stack: TestStack;
  let cookie: string;
  let closedPort: number;
  beforeAll(async () => {
    stack = await startTestStack();
    ({ cookie } = await createSignedInUser(stack.db.sql));
    closedPort = await freePort();
  });
  afterAll(() => stack?.close());

  const timer = dailyTimer({ ques: 'AI meetups', timezone: 'UTC' });
  const post = (app: Hono<AppEnv>, path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...headers }, body: JSON.stringify(body) });
  const sentence = /^[A-Z].* (try again|again in a minute).*\.$/;

  describe('Redis', () => {
    let app: Hono<AppEnv>;
    let logs: ReturnType<typeof captureLogs>;
    let redis: ReturnType<typeof createRedis>;
    beforeAll(() => {
      logs = captureLogs();
      // The api's own client settings (api/main.ts), so a command fails the way it does in production.
      redis = createRedis({ redisUrl: `redis://127.0.0.1:${closedPort}`, redisClusterNodes: null }, 'requests');
      redis.on('error', () => {}); // refused connections, expected here
      app = createApp({ ...stack.deps, redis, logger: logs.logger });
    });
    afterAll(() => redis.disconnect());

    it('POST /api/ask answers 503 with a plain-text sentence and records nothing', async () => {
      const before = await stack.db.sql`select count(*)::int as n from searches`;
      const res = await post(app, '/api/ask', { ques: 'AI events in Berlin', web: '' });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(sentence);
      expect(await stack.db.sql`select count(*)::int as n from searches`).toEqual(before);
    });

    it('POST /api/schedule answers 503 with a plain-text sentence', async () => {
      const res = await post(app, '/api/schedule', timer);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(sentence);
    });

    it('sign-in still works (the limiter fails open) and the operator is told', async () => {
      const token = await stack.standins.google.mintToken({ email: `redis-down-${Date.now()}@example.com` });
      const res = await app.request('/api/auth/google', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'success' });
      expect(logs.warnings().some((l) => /sign-in rate limit unavailable/.test(l.msg))).toBe(true);
    });

    it('the page still renders for a signed-in user', async () => {
      const res = await app.request('/', { headers: { cookie } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Choose Your Plan');
    });

    it('/readyz answers 503 naming Redis, with a sentence', async () => {
      const res = await app.request('/readyz');
      expect(res.status).toBe(503);
      const body = (await res.json()) as { failed: string[]; error: string };
      expect(body.failed).toEqual([expect.stringMatching(/^redis: /)]);
      expect(body.error).toMatch(/^Not ready: redis cannot be reached\./);
    });
  });

  describe('Postgres', () => {
    let app: Hono<AppEnv>;
    let sql: Sql;
    beforeAll(() => {
      sql = createSql(`postgres://postgres@127.0.0.1:${closedPort}/eventfinder`);
      app = createApp({ ...stack.deps, sql });
    });
    afterAll(() => sql.end({ timeout: 1 }));

    it('POST /api/ask answers 503 with a plain-text sentence', async () => {
      const res = await post(app, '/api/ask', { ques: 'AI events in Berlin', web: '' });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(sentence);
      expect(res.headers.get('retry-after')).toBeTruthy();
    });

    it('POST /api/schedule answers 503 with a plain-text sentence', async () => {
      const res = await post(app, '/api/schedule', timer);
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(sentence);
    });

    it('sign-in answers 503 {error} asking to try again', async () => {
      const token = await stack.standins.google.mintToken({ email: `pg-down-${Date.now()}@example.com` });
      const res = await app.request('/api/auth/google', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(sentence);
    });

    it('GET / signed in answers an HTML error page, not JSON', async () => {
      const res = await app.request('/', { headers: { cookie, accept: 'text/html' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain('cannot reach its database right now. Please try again in a minute.');
      expect(html).toContain('<a href="/">Try again</a>');
    });

    it('GET / signed out still renders (it needs no database)', async () => {
      const res = await app.request('/');
      expect(res.status).toBe(200);
    });

    it('/readyz answers 503 naming Postgres, with a sentence', async () => {
      const res = await app.request('/readyz');
      expect(res.status).toBe(503);
      const body = (await res.json()) as { failed: string[]; error: string };
      expect(body.failed).toEqual([expect.stringMatching(/^postgres: /)]);
      expect(body.error).toMatch(/^Not ready: postgres cannot be reached\./);
    });
  });
});
