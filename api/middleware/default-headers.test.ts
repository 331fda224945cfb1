import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHeaders } from './default-headers';

// The same app served by Node and called in-process: the headers come out the same either way.
describe('defaultHeaders', () => {
  const app = new Hono();
  app.use(defaultHeaders({ 'X-Preset': 'from-middleware', 'Cache-Control': 'no-store' }));
  app.get('/own', (c) => {
    c.header('Cache-Control', 'max-age=60');
    return c.json({ ok: true });
  });
  app.get('/plain', (c) => c.text('plain'));
  app.get('/stream', (c) =>
    c.body(
      new ReadableStream({
        start(stream) {
          stream.enqueue(new TextEncoder().encode('x'));
          stream.close();
        },
      }),
    ),
  );
  app.get('/fails', () => {
    throw new Error('boom');
  });
  app.onError((_err, c) => c.json({ error: 'failed' }, 500));

  const server = createAdaptorServer({ fetch: app.fetch });
  let url: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ways: [string, (path: string) => Promise<Response>][] = [
    ['over HTTP (Node response)', (path) => fetch(`${url}${path}`)],
    ['in-process (app.request)', async (path) => app.request(path)],
  ];

  it.each(ways)('%s: every reply gets the headers, and a route’s own value wins', async (_way, get) => {
    for (const path of ['/plain', '/stream', '/fails', '/own', '/nowhere']) {
      const res = await get(path);
      expect(res.headers.get('x-preset'), path).toBe('from-middleware');
      expect(res.headers.get('cache-control'), path).toBe(path === '/own' ? 'max-age=60' : 'no-store');
      await res.arrayBuffer();
    }
  });
});
