import { isIP } from 'node:net';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import type { AppEnv } from '../api/deps';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';

// Names the injected resolver knows; nothing here asks real DNS. The public address is never connected to:
// saving a timer only checks where its website points.
const DNS: Record<string, string[]> = {
  'intranet.example': ['10.1.2.3'],
  'mixed.example': ['203.0.114.9', '192.168.1.20'],
  'events.example': ['203.0.114.9'],
  localhost: ['127.0.0.1', '::1'],
};
async function resolve(hostname: string) {
  const addresses = DNS[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: isIP(address) }));
}

describe('input hardening', () => {
  let stack: TestStack;
  let app: Hono<AppEnv>;
  let cookie: string;
  let userId: number;
  beforeAll(async () => {
    // One user sends many requests here; the per-user rate has its own test (abuse-limits.test.ts).
    stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: '1000' } });
    app = createApp({ ...stack.deps, resolve });
    ({
      cookie,
      user: { id: userId },
    } = await createSignedInUser(stack.db.sql));
  });
  afterAll(() => stack?.close());

  const post = (path: string, body: unknown) =>
    app.request(path, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const timer = (fields: Record<string, unknown>) => ({ ...dailyTimer({ ques: 'AI meetups', timezone: 'UTC' }), ...fields });
  const rows = async () =>
    (
      await stack.db.sql`select (select count(*)::int from searches where user_id = ${userId}) as searches,
                               (select count(*)::int from timers where user_id = ${userId}) as timers`
    )[0];

  describe('control characters', () => {
    const sentence =
      /^The (question|website address|time zone|time|weekday|schedule type) contains an invisible control character \(such as a NUL byte\)\. Please retype it as plain text\.$/;

    it('refuses them in every text field of /api/ask and /api/schedule with a 400 sentence, writing nothing', async () => {
      const before = await rows();
      const asks = [
        { ques: 'AI\u0000events', web: '' },
        { ques: 'AI events\u001b[31m', web: '' },
        { ques: 'AI events\u007f', web: '' },
        { ques: 'AI events', web: 'https://example.com/\u0000' },
        { ques: 'AI events', web: 'https://example.com/\tx' },
        { ques: 'AI events', web: '', timezone: 'Europe/Berlin\u0000' },
      ];
      for (const body of asks) {
        const res = await post('/api/ask', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await res.text()).toMatch(sentence);
      }
      const timers = [
        timer({ ques: 'Jazz\u0000nights' }),
        timer({ web: 'https://example.com/\u0000' }),
        timer({ timezone: 'UTC\u0000' }),
        timer({ time: '09:00\u0000' }),
        timer({ scheduleType: 'weekly', weekday: 'Monday\u0007' }),
      ];
      for (const body of timers) {
        const res = await post('/api/schedule', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await res.text()).toMatch(sentence);
      }
      expect(await rows()).toEqual(before);
    });

    it('keeps tabs and line breaks in a question', async () => {
      const res = await post('/api/schedule', timer({ ques: 'AI meetups\tin Berlin\r\nand Hamburg' }));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { ques: string }).ques).toBe('AI meetups\tin Berlin\r\nand Hamburg');
    });
  });

  describe('a timer website is checked when it is saved', () => {
    it('refuses private, local and unresolvable addresses with a 400 sentence and saves nothing', async () => {
      const before = await rows();
      const refused: [string, RegExp][] = [
        ['http://10.0.0.1/events', /10\.0\.0\.1 points to a private or local network/],
        ['http://169.254.169.254/latest/meta-data/', /private or local network/],
        ['http://[::1]:8080/', /private or local network/],
        ['https://localhost/events', /localhost points to a private or local network/],
        ['https://intranet.example/events', /intranet\.example points to a private or local network/],
        ['https://mixed.example/', /private or local network/],
        ['https://nowhere.example/', /could not find the website nowhere\.example/],
        ['https://user:pw@events.example/', /user name or password/],
      ];
      for (const [web, message] of refused) {
        const res = await post('/api/schedule', timer({ web }));
        expect(res.status, web).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        expect(await res.text()).toMatch(message);
      }
      expect(await rows()).toEqual(before);
    });

    it('saves a public website, and one exempted by WEBSITE_FETCH_ALLOW', async () => {
      for (const web of ['https://events.example/list', `${stack.standins.url}/sites/berlin-ai.html`]) {
        const res = await post('/api/schedule', timer({ web }));
        expect(res.status, web).toBe(200);
        expect(((await res.json()) as { web: string }).web).toBe(web);
      }
    });
  });

  describe('dates, date windows and time zones', () => {
    const used = async () => (await stack.db.sql<{ n: number }[]>`select searches_used as n from accounts where user_id = ${userId}`)[0]!.n;
    async function bearer(scopes: string[]): Promise<string> {
      const res = await post('/api/tokens', { name: 'hardening', scopes });
      expect(res.status).toBe(201);
      return ((await res.json()) as { token: string }).token;
    }

    it('refuses a day that is not on the calendar and a window longer than next_days allows, with a sentence and no credit', async () => {
      const before = await rows();
      const credits = await used();
      const refused: [{ from: string; to: string }, RegExp][] = [
        [{ from: '2026-02-30', to: '2026-03-02' }, /does not exist \(2026-02-30\)/],
        [{ from: '2026-04-01', to: '2026-04-31' }, /does not exist \(2026-04-31\)/],
        [{ from: '2026-13-01', to: '2026-13-02' }, /does not exist \(2026-13-01\)/],
        [{ from: '0001-01-01', to: '9999-12-31' }, /at most 366 days/],
        [{ from: '2026-01-01', to: '2027-01-02' }, /spans 367 days .* at most 366 days/],
      ];
      for (const [window, message] of refused) {
        for (const path of ['/api/schedule', '/api/ask']) {
          const body = path === '/api/ask' ? { ques: 'AI meetups', web: '', filters: { window } } : timer({ filters: { window } });
          const res = await post(path, body);
          expect(res.status, `${path} ${JSON.stringify(window)}`).toBe(400);
          expect(await res.text()).toMatch(message);
        }
      }
      expect(await rows()).toEqual(before);
      expect(await used()).toBe(credits);
      // The longest window allowed, a leap day included, is taken.
      const leap = await post('/api/schedule', timer({ filters: { window: { from: '2028-02-29', to: '2029-02-28' } } }));
      expect(leap.status).toBe(200);
    });

    it('refuses a time zone it does not know on /api/ask and /v1/search before any credit is taken', async () => {
      const token = await bearer(['search']);
      const credits = await used();
      const before = await rows();
      const ask = await post('/api/ask', { ques: 'AI meetups', web: '', timezone: 'Mars/Olympus_Mons' });
      expect(ask.status).toBe(400);
      expect(await ask.text()).toBe(
        'The time zone "Mars/Olympus_Mons" is not one we know. Send an IANA name such as Europe/Berlin, or leave it out for UTC.',
      );
      const v1 = await app.request('/v1/search', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ques: 'AI meetups', timezone: 'Europe/Berlim' }),
      });
      expect(v1.status).toBe(400);
      expect(((await v1.json()) as { detail: string }).detail).toMatch(/"Europe\/Berlim" is not one we know/);
      expect(await used()).toBe(credits);
      expect(await rows()).toEqual(before);
    });

    it('refuses a described timer whose website the address guard refuses, as saving it would', async () => {
      const describe = (sentence: string) => post('/api/timers/describe', { sentence, timezone: 'Europe/Berlin' });
      const refused = await describe('every day at 9:00 AI meetups from http://169.254.169.254/latest/meta-data/');
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(/private or local network/);
      const fine = await describe('every day at 9:00 AI meetups from https://events.example/list');
      expect(fine.status).toBe(200);
      expect(((await fine.json()) as { timer: { web: string } }).timer.web).toBe('https://events.example/list');
    });
  });

  describe('Cache-Control', () => {
    // Over the stack's Node server, as in production: there the header goes onto Node's response, not the reply.
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.url}${path}`, { headers });

    it('is no-store on every /api reply that carries a user’s data, and on their errors', async () => {
      for (const path of ['/api/timers', '/api/account/billing', '/api/check-session']) {
        const res = await get(path, { cookie });
        expect(res.status, path).toBe(200);
        expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
      const signedOut = await get('/api/timers');
      expect(signedOut.status).toBe(401);
      expect(signedOut.headers.get('cache-control')).toBe('no-store');
      const saved = await fetch(`${stack.url}/api/schedule`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(timer({})),
      });
      expect(saved.status).toBe(200);
      expect(saved.headers.get('cache-control')).toBe('no-store');
      // The page already says so itself; hashed assets stay cacheable.
      expect((await get('/', { cookie })).headers.get('cache-control')).toBe('no-store');
    });
  });
});
