import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
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
