import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_BODY_MAX_BYTES, WEBHOOK_BODY_MAX_BYTES } from '../api/middleware/body-limit';
import { createTestDatabase, type TestDatabase } from '../dev/harness/db';
import { startChild, type ChildServer } from '../dev/harness/processes';
import { createTestRedis, deletePrefix, testQueuePrefix, testRedisUrl } from '../dev/harness/redis';

const MiB = 1024 * 1024;
const BLOCK = Buffer.alloc(64 * 1024, 'a');

interface Sent {
  status: number;
  contentType: string;
  body: string;
}

/**
 * POSTs a chunked body of `total` bytes, generated as it is sent (one 64 KB block written again and again),
 * and stops writing as soon as the server answers. Resolves with the server's reply.
 */
function streamPost(url: string, path: string, total: number, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let answered = false;
    // A connection of its own, which the server may close after refusing: it must not go back to a shared pool.
    // Keep-alive (as browsers and proxies send) so the server does not close it the moment it has answered.
    const agent = new Agent({ keepAlive: true });
    const req = request(`${url}${path}`, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } });
    req.on('close', () => agent.destroy());
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, contentType: String(res.headers['content-type']), body: Buffer.concat(chunks).toString() });
        req.destroy();
      });
    });
    // The server may close the connection after answering, while we are still writing: not a failure.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    let sent = 0;
    const pump = () => {
      while (!answered && sent < total) {
        sent += BLOCK.length;
        if (!req.write(BLOCK)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

interface Answer {
  status: number;
  connection: string | undefined;
}

/** POSTs a JSON body of a declared length through `agent` and reads the whole reply. */
function post(agent: Agent, url: string, path: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

// The api as a real process (the source entry, as `make dev` runs it), so its RSS is its own and not the
// test runner's: a body read whole would show up there.
describe('request bodies are bounded before they are read', () => {
  let db: TestDatabase;
  let api: ChildServer;
  const prefix = testQueuePrefix();
  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startChild(['--import', 'tsx', 'api/main.ts'], {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL: testRedisUrl(),
      QUEUE_PREFIX: prefix,
      // Nothing here reaches Google, Gemini or Stripe; unset credentials point at an address nobody answers.
      STANDIN_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await api?.stop();
    const redis = createTestRedis();
    await deletePrefix(redis, prefix);
    redis.disconnect();
    await db?.drop();
  });

  it('refuses three 128 MB streamed bodies with 413 without the api growing by their size', async () => {
    // Warm up the code paths, so their first-use allocations do not count as growth.
    await streamPost(api.url, '/webhook', 2 * MiB, { 'stripe-signature': 't=1,v1=x' });
    await streamPost(api.url, '/api/auth/google', 2 * MiB);
    const before = api.rssMiB();
    const replies = await Promise.all([
      streamPost(api.url, '/webhook', 128 * MiB, { 'stripe-signature': 't=1,v1=x' }),
      streamPost(api.url, '/webhook', 128 * MiB, { 'stripe-signature': 't=1,v1=x' }),
      streamPost(api.url, '/api/auth/google', 128 * MiB),
    ]);
    const grown = api.rssMiB() - before;
    for (const reply of replies) {
      expect(reply.status).toBe(413);
      expect(reply.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(reply.body)).toEqual({ error: expect.stringMatching(/^The request is too large: its body is over \d+ [KM]B\./) });
    }
    // 384 MB were offered; reading them would have grown the process by at least that much.
    expect(grown).toBeLessThan(64);
  });

  it('answers 413 in plain text on /api/ask and /api/schedule, as the page shows it', async () => {
    for (const path of ['/api/ask', '/api/schedule']) {
      const reply = await streamPost(api.url, path, 4 * MiB);
      expect(reply.status, path).toBe(413);
      expect(reply.contentType).toMatch(/^text\/plain/);
      expect(reply.body).toBe('The request is too large: its body is over 64 KB. Please send less (a shorter question or address).');
    }
  });

  it('a 413 closes its connection, so the next request on a keep-alive pool gets a proper answer', async () => {
    // As a load balancer pooling upstream connections: one socket, reused whenever the server keeps it open.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let round = 0; round < 5; round++) {
        const over = await post(agent, api.url, '/api/timer/delete', JSON.stringify({ pad: 'x'.repeat(FORM_BODY_MAX_BYTES * 4) }));
        expect(over).toEqual({ status: 413, connection: 'close' });
        // Another user's request: on the refused socket it would fail with "socket hang up" / ECONNRESET.
        const next = await post(agent, api.url, '/api/timer/delete', JSON.stringify({ timer_id: 1 }));
        expect(next.status).toBe(401);
      }
    } finally {
      agent.destroy();
    }
  });

  it('refuses a declared Content-Length over the limit at once, and lets a body under it through', async () => {
    const over = await fetch(`${api.url}/api/timer/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timer_id: 1, pad: 'x'.repeat(FORM_BODY_MAX_BYTES) }),
    });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ error: expect.stringMatching(/over 64 KB/) });
    // Under the limit the route itself answers (here: no session).
    const under = await fetch(`${api.url}/api/timer/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timer_id: 1, pad: 'x'.repeat(FORM_BODY_MAX_BYTES - 100) }),
    });
    expect(under.status).toBe(401);
    // A webhook of a few hundred KB is fine (and then refused for its signature, as it should be).
    const webhook = await fetch(`${api.url}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: JSON.stringify({ pad: 'x'.repeat(WEBHOOK_BODY_MAX_BYTES / 2) }),
    });
    expect(webhook.status).toBe(400);
  });
});
