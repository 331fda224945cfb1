import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { quickCheckSession } from '../api/quick-check-session';
import { endSession } from '../core/auth/end-sessions';
import { SESSION_PROOF_COOKIE } from '../core/auth/session-proof';
import { registry } from '../core/metrics';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { SESSION_COOKIE } from '../db/sessions';
import { createSignedInUser } from '../dev/harness/users';

// Headers that differ between any two replies, or that only a socket (not app.request()) carries.
const PER_REPLY = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'content-length']);
const comparable = (headers: Headers) => [...headers].filter(([name]) => !PER_REPLY.has(name)).sort();

/** The session cookie with the proof a reply set, as a browser sends them next. */
function withProof(sessionCookie: string, reply: Response): string {
  const proof = reply.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_PROOF_COOKIE}=`));
  expect(proof, 'the reply sets a session proof').toBeDefined();
  return `${sessionCookie}; ${proof!.split(';')[0]}`;
}

/** The count of answered check-sessions in the process's metrics. */
async function answeredCount(): Promise<number> {
  const metric = await registry.getSingleMetric('http_requests_total')!.get();
  return metric.values.find((v) => v.labels.route === '/api/check-session' && v.labels.status === '200')?.value ?? 0;
}

describe('GET /api/check-session answered before the app', () => {
  let stack: TestStack;
  // A second server over the same deps whose app side counts what reaches it, to see which side answered.
  let server: Server;
  let url: string;
  let appCalls = 0;

  beforeAll(async () => {
    stack = await startTestStack();
    await stack.deps.sessionRevocations.whenLive();
    const quick = quickCheckSession(stack.deps);
    const app = getRequestListener(createApp(stack.deps).fetch);
    server = createServer((req, res) => {
      if (quick(req, res)) return;
      appCalls++;
      void app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await stack?.close();
  });

  /** A request to the counting server: which side answered, and the reply. */
  async function check(cookie?: string, path = '/api/check-session', init: RequestInit = {}) {
    const before = appCalls;
    const res = await fetch(`${url}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), ...init.headers } });
    return { res, body: await res.json(), byApp: appCalls > before };
  }

  /** Whether a GET with a body (fetch sends none) reached the app. */
  async function withBody(cookie: string): Promise<boolean> {
    const before = appCalls;
    await new Promise<void>((resolve, reject) => {
      const req = request(`${url}/api/check-session`, { method: 'GET', headers: { cookie, 'content-length': '2' } }, (res) => {
        res.resume().on('end', resolve);
      });
      req.on('error', reject);
      req.end('{}');
    });
    return appCalls > before;
  }

  /** A signed-in user's session cookie with the proof the app set on its first check-session. */
  async function provenCookie() {
    const { cookie, token } = await createSignedInUser(stack.db.sql);
    const first = await check(cookie);
    expect(first).toMatchObject({ body: { loggedIn: true }, byApp: true });
    return { token, pair: withProof(cookie, first.res) };
  }

  it('answers a proof this process checked, as the app would, header for header', async () => {
    const { pair } = await provenCookie();
    const quick = await check(pair);
    expect(quick.byApp).toBe(false);
    expect(quick.res.status).toBe(200);
    expect(quick.body).toEqual({ loggedIn: true });
    const viaApp = await createApp(stack.deps).request('/api/check-session', { headers: { cookie: pair } });
    expect(await viaApp.json()).toEqual({ loggedIn: true });
    expect(comparable(quick.res.headers)).toEqual(comparable(viaApp.headers));
    expect(quick.res.headers.get('content-length')).toBe(String('{"loggedIn":true}'.length));
    expect(quick.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // The stack's own server takes the same way.
    expect(await (await fetch(`${stack.url}/api/check-session`, { headers: { cookie: pair } })).json()).toEqual({ loggedIn: true });
  });

  it('answers a signed-out browser, as the app would', async () => {
    const quick = await check();
    expect(quick).toMatchObject({ body: { loggedIn: false }, byApp: false });
    const viaApp = await createApp(stack.deps).request('/api/check-session');
    expect(comparable(quick.res.headers)).toEqual(comparable(viaApp.headers));
  });

  it('keeps a trusted proxy’s request id and counts the request as the app does', async () => {
    const { pair } = await provenCookie();
    const before = await answeredCount();
    const quick = await check(pair, '/api/check-session', { headers: { 'x-request-id': 'lb-7f3a.9' } });
    expect(quick.byApp).toBe(false);
    expect(quick.res.headers.get('x-request-id')).toBe('lb-7f3a.9');
    expect(await answeredCount()).toBe(before + 1);
  });

  it('leaves to the app what needs more than it holds', async () => {
    const { cookie } = await createSignedInUser(stack.db.sql);
    // A session cookie without a proof: Postgres decides, and the app sets the proof.
    const bare = await check(cookie);
    expect(bare).toMatchObject({ body: { loggedIn: true }, byApp: true });
    const pair = withProof(cookie, bare.res);
    expect((await check(pair)).byApp).toBe(false);
    // A proof that was never checked here (one signed for another session token), a query, a body.
    expect(await check(`${cookie}; ${SESSION_PROOF_COOKIE}=forged.proof`)).toMatchObject({ body: { loggedIn: true }, byApp: true });
    expect((await check(pair, '/api/check-session?x=1')).byApp).toBe(true);
    expect(await withBody(pair)).toBe(true);
    // An unknown session with a proof copied from another one.
    const otherProof = pair.split('; ').find((c) => c.startsWith(SESSION_PROOF_COOKIE))!;
    expect(await check(`${SESSION_COOKIE}=not-a-session; ${otherProof}`)).toMatchObject({ body: { loggedIn: false }, byApp: true });
  });

  it('never answers for a session that has ended', async () => {
    const { token, pair } = await provenCookie();
    expect((await check(pair)).byApp).toBe(false);
    await endSession(stack.db.sql, stack.deps.sessionRevocations, token);
    expect(await check(pair)).toMatchObject({ body: { loggedIn: false }, byApp: true });
    expect(await check(pair)).toMatchObject({ body: { loggedIn: false }, byApp: true });
  });
});
