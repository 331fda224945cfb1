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
