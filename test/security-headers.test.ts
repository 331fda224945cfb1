import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createApp } from '../api/app';

type Policy = Map<string, string[]>;

function parseCsp(header: string | null): Policy {
  const policy: Policy = new Map();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) policy.set(name, sources);
  }
  return policy;
}

/** Whether `url` (already absolute) may load under the directive, as a browser decides for host sources. */
function allows(policy: Policy, directive: string, url: URL, pageOrigin: string): boolean {
  const sources = policy.get(directive) ?? policy.get('default-src') ?? [];
  return sources.some((s) => (s === "'self'" ? url.origin === pageOrigin : s === url.origin));
}

describe('Content-Security-Policy', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_USER: 'ops', ADMIN_PASSWORD: 'csp check' } });
  });
  afterAll(() => stack?.close());

  it('lets Bull Board load every stylesheet and script its page links, and its web fonts', async () => {
    const res = await fetch(`${stack.url}/admin/queues`, {
      headers: { authorization: `Basic ${Buffer.from('ops:csp check').toString('base64')}` },
    });
    expect(res.status).toBe(200);
    const policy = parseCsp(res.headers.get('content-security-policy'));
    const html = await res.text();
    const base = new URL(/<base href="([^"]+)"/.exec(html)![1]!, `${stack.url}/`);
    const styles = [...html.matchAll(/<link href="([^"]+)" rel="stylesheet"/g)].map((m) => new URL(m[1]!, base));
    const scripts = [...html.matchAll(/<script defer src="([^"]+)"/g)].map((m) => new URL(m[1]!, base));
    // The board links its own CSS and Google Fonts' stylesheet; the test only reads their addresses.
    expect(styles.map((u) => u.origin)).toEqual(expect.arrayContaining(['https://fonts.googleapis.com', stack.url]));
    expect(scripts.length).toBeGreaterThan(0);
    for (const url of styles) expect(allows(policy, 'style-src', url, stack.url), url.href).toBe(true);
    for (const url of scripts) expect(allows(policy, 'script-src', url, stack.url), url.href).toBe(true);
    expect(allows(policy, 'font-src', new URL('https://fonts.gstatic.com/s/ibmplexsans/v19/x.woff2'), stack.url)).toBe(true);
  });

  it("keeps the app page's policy as tight as before", async () => {
    const res = await fetch(`${stack.url}/`);
    const policy = parseCsp(res.headers.get('content-security-policy'));
    const gsi = new URL(stack.config.google.gsiUrl).origin;
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", gsi]);
    expect(policy.get('style-src')).toEqual(["'self'", "'unsafe-inline'", gsi]);
    expect(policy.has('font-src')).toBe(false);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // Only the board's own paths get the wider policy, not a path that merely starts with the same letters.
    for (const path of ['/api/check-session', '/admin/queuesX']) {
      expect(parseCsp((await fetch(`${stack.url}${path}`)).headers.get('content-security-policy')).has('font-src')).toBe(false);
    }
  });

  // Most replies get the headers set outright; the pages that set a stricter one of their own keep theirs.
  it("keeps a page's own stricter header and adds the rest", async () => {
    const res = await fetch(`${stack.url}/unsubscribe/no-such-token`);
    expect(res.status).toBe(404);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(parseCsp(res.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'none'"]);
    const api = await fetch(`${stack.url}/api/check-session`);
    expect(api.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  // The headers are hono/secure-headers' own, with the product's options: the same over HTTP and through
  // app.request, the request id and no-store among them.
  it('sends the same headers hono/secure-headers would, over HTTP and through app.request', async () => {
    const gsi = new URL(stack.config.google.gsiUrl).origin;
    const reference = new Hono();
    reference.use(
      secureHeaders({
        crossOriginOpenerPolicy: 'same-origin-allow-popups',
        crossOriginEmbedderPolicy: false,
        crossOriginResourcePolicy: 'same-origin',
        referrerPolicy: 'strict-origin-when-cross-origin',
        strictTransportSecurity: false,
        contentSecurityPolicy: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", gsi],
          connectSrc: ["'self'", gsi],
          frameSrc: ["'self'", gsi],
          styleSrc: ["'self'", "'unsafe-inline'", gsi],
          imgSrc: ["'self'", 'data:', 'https:'],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          frameAncestors: ["'none'"],
        },
      }),
    );
    reference.get('/', (c) => c.body(null, 204));
    const expected = [...(await reference.request('/')).headers];
    expect(expected.length).toBeGreaterThan(10);
    const overHttp = (await fetch(`${stack.url}/api/check-session`)).headers;
    const inProcess = (await createApp(stack.deps).request('/api/check-session')).headers;
    for (const headers of [overHttp, inProcess]) {
      for (const [name, value] of expected) expect(headers.get(name), name).toBe(value);
      expect(headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(headers.get('cache-control')).toBe('no-store');
    }
  });
});
