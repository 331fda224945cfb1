import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { billingReplySchema } from '../core/contract/billing';
import { searchReplySchema } from '../core/contract/event-replies';
import { problemSchema } from '../core/contract/problem';
import { searchHistoryReplySchema } from '../core/contract/search-history';
import { listedTimerSchema, timersReplySchema } from '../core/contract/timers';
import { openPage } from '../dev/harness/browser';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { browserSuite } from './support/browser-suite';
import { openApiChecker } from './support/openapi-check';

/**
 * What an integrator of /v1 relies on beyond the calls themselves: Idempotency-Key, CORS for token calls from a
 * page on another origin, problem details with stable codes, 405 with Allow, and the RateLimit headers.
 */
describe('/v1 for integrators', () => {
  const suite = browserSuite();

  async function newToken(): Promise<string> {
    const { cookie } = await createSignedInUser(suite.stack.db.sql);
    const res = await fetch(`${suite.stack.url}/api/tokens`, {
      method: 'POST',
      headers: { cookie, origin: suite.stack.url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'integrator', scopes: ['read', 'search', 'timers'] }),
    });
    expect(res.status).toBe(201);
    return createdApiTokenReplySchema.parse(await res.json()).token;
  }

  async function checker() {
    return openApiChecker(await (await fetch(`${suite.stack.url}/api/openapi.json`)).json());
  }

  const v1 = (token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${suite.stack.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  const credits = async (token: string) => billingReplySchema.parse(await (await v1(token, 'GET', '/v1/account')).json()).credits;

  it('creates and charges once for a retried POST with the same Idempotency-Key; another body with it is refused', async () => {
    const token = await newToken();
    const doc = await checker();
    const before = await credits(token);
    const ask = { ques: 'AI conferences in Lisbon', timezone: 'Europe/Lisbon' };
    const first = await v1(token, 'POST', '/v1/search', ask, { 'idempotency-key': 'search-1' });
    expect(first.status).toBe(200);
    const found = searchReplySchema.parse(await doc.check('POST', first.url, first));
    // The retry (after a lost reply) gets the same reply: the same search, not a second one.
    const retried = await v1(token, 'POST', '/v1/search', ask, { 'idempotency-key': '"search-1"' });
    expect(retried.status).toBe(200);
    expect(searchReplySchema.parse(await doc.check('POST', retried.url, retried))).toEqual(found);
    expect(await credits(token)).toBe(before - 1);
    const history = searchHistoryReplySchema.parse(await (await v1(token, 'GET', '/v1/searches')).json());
    expect(history.searches.map((s) => s.id)).toEqual([found.id]);

    const other = await v1(token, 'POST', '/v1/search', { ...ask, ques: 'AI meetups in Porto' }, { 'idempotency-key': 'search-1' });
    expect(other.status).toBe(422);
    expect(await doc.check('POST', other.url, other)).toMatchObject({ code: 'idempotency_key_reused', field: 'Idempotency-Key' });
    expect(await credits(token)).toBe(before - 1);

    // Two timers POSTed with one key make one timer.
    const timer = dailyTimer({ ques: 'AI events in Berlin' });
    const made = await v1(token, 'POST', '/v1/timers', timer, { 'idempotency-key': 'timer-1' });
    expect(made.status).toBe(201);
    const created = listedTimerSchema.parse(await doc.check('POST', made.url, made));
    const again = await v1(token, 'POST', '/v1/timers', timer, { 'idempotency-key': 'timer-1' });
    expect(again.status).toBe(201);
    expect(listedTimerSchema.parse(await again.json()).id).toBe(created.id);
    expect(timersReplySchema.parse(await (await v1(token, 'GET', '/v1/timers')).json()).map((t) => t.id)).toEqual([created.id]);

    // A refused request keeps nothing: the corrected request may use the same key.
    const wrong = await v1(token, 'POST', '/v1/timers', { ...timer, time: '25:00' }, { 'idempotency-key': 'timer-2' });
    expect(wrong.status).toBe(400);
    expect(await doc.check('POST', wrong.url, wrong)).toMatchObject({ code: 'validation' });
    const right = await v1(token, 'POST', '/v1/timers', { ...timer, ques: 'AI events in Hamburg' }, { 'idempotency-key': 'timer-2' });
    expect(right.status).toBe(201);
    expect(await doc.check('POST', right.url, right)).toMatchObject({ ques: 'AI events in Hamburg' });

    expect((await v1(token, 'POST', '/v1/timers', timer, { 'idempotency-key': 'not ascii é' })).status).toBe(400);
  });

  it('answers 409 to a request sent while the first with its key is still being answered', async () => {
    const token = await newToken();
    const before = await credits(token);
    const ask = { ques: 'AI events in Berlin', web: `${suite.stack.standins.url}/sites/berlin-ai.html` };
    const [a, b] = await Promise.all([
      v1(token, 'POST', '/v1/search', ask, { 'idempotency-key': 'together' }),
      v1(token, 'POST', '/v1/search', ask, { 'idempotency-key': 'together' }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(problemSchema.parse(await refused.json())).toMatchObject({ code: 'idempotency_key_in_use', status: 409 });
    expect(await credits(token)).toBe(before - 1);
  });

  it('answers errors as problem details with stable codes, 405 with Allow, and the RateLimit headers', async () => {
    const token = await newToken();
    const doc = await checker();
    const anonymous = await fetch(`${suite.stack.url}/v1/timers`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toBe('application/problem+json');
    expect(await doc.check('GET', anonymous.url, anonymous)).toMatchObject({
      type: `${suite.stack.url}/api/docs#problem-unauthorized`,
      title: 'No valid API token',
      status: 401,
      code: 'unauthorized',
    });
    const wrongMethod = await v1(token, 'PUT', '/v1/timers', {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
    expect(problemSchema.parse(await wrongMethod.json())).toMatchObject({ code: 'method_not_allowed' });
    const unknown = await v1(token, 'GET', '/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(problemSchema.parse(await unknown.json())).toMatchObject({ code: 'not_found' });

    // Invalid JSON is told in words for a program, not for the page.
    const broken = await v1(token, 'POST', '/v1/timers', '{"ques": ');
    expect(broken.status).toBe(400);
    const parseError = (await doc.check('POST', broken.url, broken)) as { detail: string };
    expect(parseError.detail).toMatch(/not valid JSON: send one JSON object/);
    expect(parseError.detail).not.toMatch(/reload the page/);
    // A schema refusal names its field.
    const typed = await v1(token, 'POST', '/v1/search', { ques: 42 });
    expect(await doc.check('POST', typed.url, typed)).toMatchObject({ code: 'validation', field: 'ques' });

    // A timer without a time zone is UTC, and its 201 has its feed addresses.
    const { timezone: _, ...noZone } = dailyTimer({ ques: 'AI meetups' });
    const made = await v1(token, 'POST', '/v1/timers', noZone);
    expect(made.status).toBe(201);
    const timer = (await doc.check('POST', made.url, made)) as Record<string, unknown>;
    expect(timer).toMatchObject({ timezone: 'UTC' });
    expect(timer.ical_url).toMatch(/\.ics$/);
    expect(timer.atom_url).toMatch(/\.atom$/);
    // Its feeds say when they last changed, and answer a conditional GET by that date with 304.
    for (const url of [timer.ical_url, timer.atom_url] as string[]) {
      const feed = await fetch(url);
      expect(feed.status).toBe(200);
      const modified = feed.headers.get('last-modified')!;
      expect(new Date(modified).toUTCString()).toBe(modified);
      expect((await fetch(url, { headers: { 'if-modified-since': modified } })).status).toBe(304);
      const earlier = new Date(Date.parse(modified) - 1000).toUTCString();
      expect((await fetch(url, { headers: { 'if-modified-since': earlier } })).status).toBe(200);
    }
    expect(made.headers.get('ratelimit-policy')).toBe(`"per-user";q=${suite.stack.deps.config.userRatePerMinute};w=60`);
    // Three POSTs drew on it: the search refused for its body, the unparsable timer, and this one.
    expect(made.headers.get('ratelimit')).toMatch(new RegExp(`^"per-user";r=${suite.stack.deps.config.userRatePerMinute - 3};t=(60|59)$`));
  });

  it('lets a page on another origin call /v1 with a token (CORS, no credentials); /api and /mcp stay closed to it', async () => {
    const token = await newToken();
    const page = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another tool</title></head><body>Tool</body></html>';
    const other: Server = createServer((_, res) => res.end(page));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const origin = `http://localhost:${(other.address() as AddressInfo).port}`;
    try {
      // The preflight is answered before the token is looked at.
      const preflight = await fetch(`${suite.stack.url}/v1/searches`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      for (const path of ['/api/searches', '/mcp']) {
        const closed = await fetch(`${suite.stack.url}${path}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        });
        expect(closed.headers.get('access-control-allow-origin'), path).toBeNull();
      }

      const { page: tab, errors } = await openPage(suite.browser, `${origin}/`);
      const seen = await tab.evaluate(
        async ({ url, token }) => {
          const res = await fetch(`${url}/v1/searches?limit=5`, { headers: { Authorization: `Bearer ${token}` } });
          const refused = await fetch(`${url}/v1/searches`).then((r) => r.status);
          return { status: res.status, body: await res.json(), rate: res.headers.get('RateLimit'), refused };
        },
        { url: suite.stack.url, token },
      );
      expect(seen).toMatchObject({ status: 200, body: { searches: [], has_more: false }, refused: 401 });
      expect(seen.rate).toMatch(/^"per-user";r=\d+;t=\d+, "per-user-get";r=\d+;t=\d+$/);
      // A page's cookie never rides along: a credentialed request is refused by the browser itself.
      const credentialed = await tab.evaluate(
        (url) =>
          fetch(`${url}/v1/searches`, { credentials: 'include' }).then(
            () => 'answered',
            () => 'blocked',
          ),
        suite.stack.url,
      );
      expect(credentialed).toBe('blocked');
      expect(errors.filter((e) => !/Access-Control-Allow-Origin|Failed to load resource|CORS/.test(e))).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});
