import { randomInt } from 'node:crypto';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import type { AppEnv } from '../api/deps';
import { LOGIN_ATTEMPTS_PER_WINDOW } from '../core/auth/login-rate-limit';
import { useSearches } from './support/billing';
import { captureLogs } from './support/logs';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';

const RATE = 5;

describe('abuse limits', () => {
  let stack: TestStack;
  let app: Hono<AppEnv>;
  beforeAll(async () => {
    // A small per-user rate keeps the test short; the default (20) is covered by core/config.test.ts.
    stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: String(RATE) } });
    app = createApp(stack.deps);
  });
  afterAll(() => stack?.close());

  const count = async (table: 'searches' | 'timers', userId: number) =>
    Number((await stack.db.sql`select count(*)::int as n from ${stack.db.sql(table)} where user_id = ${userId}`)[0]!.n);
  const post = (path: string, cookie: string, body: unknown) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: stack.url },
      body: JSON.stringify(body),
    });

  describe('per-user request rate on /api/ask and /api/schedule', () => {
    it('answers 429 with Retry-After and a sentence past the rate, and a refused request writes nothing', async () => {
      const { user, cookie } = await createSignedInUser(stack.db.sql);
      // No credits left: each ask that gets through still records a refused search, which is what the rate bounds.
      await useSearches(stack, user.id, 10);
      const statuses: number[] = [];
      for (let i = 0; i < RATE; i++) statuses.push((await post('/api/ask', cookie, { ques: `AI events ${i}`, web: '' })).status);
      expect(statuses).toEqual(Array(RATE).fill(402));
      expect(await count('searches', user.id)).toBe(RATE);

      const refused = await post('/api/ask', cookie, { ques: 'AI events again', web: '' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(await refused.text()).toMatch(
        /^You are sending requests too quickly \(more than 5 a minute\)\. Please wait \d+ seconds? and try again\.$/,
      );
      // The same budget covers saving timers; nothing more is written.
      const timer = dailyTimer({ ques: 'AI meetups', timezone: 'UTC' });
      const schedule = await post('/api/schedule', cookie, timer);
      expect(schedule.status).toBe(429);
      expect(await count('searches', user.id)).toBe(RATE);
      expect(await count('timers', user.id)).toBe(0);
    });

    it('counts each user on their own', async () => {
      const busy = await createSignedInUser(stack.db.sql);
      for (let i = 0; i <= RATE; i++) await post('/api/schedule', busy.cookie, {});
      expect((await post('/api/schedule', busy.cookie, {})).status).toBe(429);
      const other = await createSignedInUser(stack.db.sql);
      expect((await post('/api/schedule', other.cookie, {})).status).toBe(400);
    });

    it('leaves signed-out requests to the route (401)', async () => {
      for (let i = 0; i <= RATE; i++) expect((await post('/api/ask', '', { ques: 'x', web: '' })).status).toBe(401);
    });
  });

  describe('sign-in limiter', () => {
    const envFor = (ip: string, family = 'IPv4') => ({ incoming: { socket: { remoteAddress: ip, remoteFamily: family } } });
    const login = (body: unknown, ip: string, on = app, headers: Record<string, string> = {}) =>
      on.request(
        '/api/auth/google',
        { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) },
        envFor(ip, ip.includes(':') ? 'IPv6' : 'IPv4'),
      );
    const mint = () => stack.standins.google.mintToken({ email: `limit-${randomInt(1e9)}@example.com` });

    it('counts failed attempts only: a whole office behind one address keeps signing in', async () => {
      const office = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW + 5; i++) {
        expect((await login({ token: await mint() }, office)).status).toBe(200);
      }
      // Failures still count up to the limit, after which even a valid token waits.
      for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) expect((await login({ token: 'x.y.z' }, office)).status).toBe(401);
      expect((await login({ token: await mint() }, office)).status).toBe(429);
    });

    it('counts IPv6 clients by their /64, so rotating addresses inside it does not help', async () => {
      const net = `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`;
      for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) {
        expect((await login({ token: 'x.y.z' }, `${net}:${i.toString(16)}::1`)).status).toBe(401);
      }
      expect((await login({ token: 'x.y.z' }, `${net}:ffff:1:2:3`)).status).toBe(429);
      // The neighbouring /64 is someone else.
      expect((await login({ token: 'x.y.z' }, `2001:db8:ffff:${randomInt(65536).toString(16)}::1`)).status).toBe(401);
    });

    it('warns once when X-Forwarded-For arrives while TRUSTED_PROXY_HOPS is 0, and not when it is set', async () => {
      const direct = captureLogs();
      const directApp = createApp({ ...stack.deps, logger: direct.logger });
      for (let i = 0; i < 3; i++) await directApp.request('/healthz', { headers: { 'x-forwarded-for': '198.51.100.7' } });
      const warned = direct.warnings().filter((l) => /TRUSTED_PROXY_HOPS/.test(l.msg));
      expect(warned).toHaveLength(1);
      expect(warned[0]!.msg).toMatch(/set TRUSTED_PROXY_HOPS to the number of proxies/);

      const proxied = captureLogs();
      const proxiedApp = createApp({ ...stack.deps, logger: proxied.logger, config: { ...stack.config, trustedProxyHops: 1 } });
      await proxiedApp.request('/healthz', { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(proxied.warnings()).toEqual([]);
    });
  });
});
