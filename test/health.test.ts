import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { createSql } from '../db/client';
import { warmUp } from '../api/warm-up';
import { serveOverNode } from './support/node-server';
import { startTestStack, type TestStack } from '../dev/harness/stack';

describe('health', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it('is live and ready with Postgres and Redis up', async () => {
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    const res = await fetch(`${stack.url}/readyz`);
    expect(res.status).toBe(200);
  });

  it('is not ready until the pool is open at start: 503 while Postgres cannot be reached, ready once it is open', async () => {
    const logger = stack.deps.logger;
    // A pool pointed at a port nobody listens on, as when Postgres is not up yet: its opening keeps trying.
    const nowhere = createSql('postgres://postgres@127.0.0.1:1/none', { max: 2 });
    const waiting = warmUp(nowhere, 2, logger);
    const starting = await createApp({ ...stack.deps, warmUp: waiting }).request('/readyz');
    expect(starting.status).toBe(503);
    expect(await starting.json()).toMatchObject({ status: 'starting', error: expect.stringMatching(/still opening its connections/) });
    expect(waiting.ready()).toBe(false);
    await nowhere.end({ timeout: 0 });

    const connections = async () =>
      (await stack.db.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database()`)[0]!.n;
    const before = await connections();
    const pool = createSql(stack.db.url, { max: 3, keepOpen: true });
    const opening = warmUp(pool, 3, logger);
    await opening.done;
    // Every connection of the new pool is open before any request has used it.
    expect(await connections()).toBe(before + 3);
    const ready = await createApp({ ...stack.deps, sql: pool, warmUp: opening }).request('/readyz');
    expect(ready.status).toBe(200);
    await pool.end({ timeout: 1 });
  });

  it('answers 503 naming Redis when Redis does not answer', async () => {
    // A Redis client pointed at a port nobody listens on, as when the server is stopped.
    const deadRedis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    deadRedis.on('error', () => {});
    const app = createApp({ ...stack.deps, redis: deadRedis });
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { failed: string[] };
    expect(body.failed).toHaveLength(1);
    expect(body.failed[0]).toMatch(/^redis/);
    deadRedis.disconnect();
  });

  it('sends secure headers that still allow the Google sign-in popup', async () => {
    const res = await fetch(`${stack.url}/`);
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain(new URL(stack.config.google.gsiUrl).origin);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // The stack's APP_URL is plain http: no HSTS. Over https it is sent.
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const https = await serveOverNode(createApp({ ...stack.deps, config: { ...stack.config, secureCookies: true } }));
    try {
      expect((await fetch(`${https.url}/healthz`)).headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    } finally {
      await https.close();
    }
  });

  it('answers unknown API routes with JSON {error}', async () => {
    const res = await fetch(`${stack.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it('refuses a state-changing request from another origin', async () => {
    const res = await fetch(`${stack.url}/api/logout-anything`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/another site/);
  });
});
