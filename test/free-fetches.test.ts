import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTimer } from '../db/timers';
import { useSearches } from './support/billing';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { fireScheduled } from './support/runs';

const RATE = 5;

// A user with no searches left made the server fetch their website on every ask and every
// Run now, none of it charged. A loopback site counts what reaches it.
describe('no website fetch without a search left', () => {
  let stack: TestStack;
  let site: Server;
  let siteUrl: string;
  let fetches = 0;
  beforeAll(async () => {
    site = createServer((_req, res) => {
      fetches++;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Meetups</h1></body></html>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${port}/events`;
    stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: String(RATE), WEBSITE_FETCH_ALLOW: `127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  const post = (path: string, cookie: string, body?: unknown) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: stack.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('an ask burst at zero credits fetches nothing and is refused 402, then 429', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    await useSearches(stack, user.id, 10);
    const before = fetches;
    // One after another: at once, the searches-at-a-time limit (429) would answer most of them first.
    const replies: Response[] = [];
    for (let i = 0; i < RATE + 3; i++) replies.push(await post('/api/ask', cookie, { ques: 'AI meetups', web: siteUrl }));
    expect(replies.map((r) => r.status)).toEqual([...Array(RATE).fill(402), ...Array(3).fill(429)]);
    const refusal = replies.find((r) => r.status === 402)!;
    expect(await refusal.text()).toBe('You have used all 10 searches of your free plan this month.');
    expect(fetches - before).toBe(0);
  });

  it('a Run now burst at zero credits queues nothing, fetches nothing, and is refused 402, then 429 past the ask rate', async () => {
    const { user, cookie } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups', web: siteUrl }));
    await useSearches(stack, user.id, 10);
    const before = fetches;
    const replies = await Promise.all(Array.from({ length: RATE + 3 }, () => post(`/api/timers/${timer.id}/run`, cookie)));
    expect(replies.map((r) => r.status).sort()).toEqual([...Array(RATE).fill(402), ...Array(3).fill(429)]);
    const refusal = replies.find((r) => r.status === 402)!;
    expect(await refusal.json()).toEqual({
      error: 'You have used all 10 searches of your free plan this month. Upgrade your plan to run this timer now.',
    });
    const limited = replies.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const [runs] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from timer_runs where timer_id = ${timer.id}`;
    expect(runs!.n).toBe(0);
    expect(fetches - before).toBe(0);
  });

  it('a scheduled run at zero credits is skipped without a fetch; one holding its credit (a retry) still reads the site', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups', web: siteUrl }));
    const fire = (at: number) => fireScheduled(stack, timer.id, { at, attempts: 1 }).catch(() => 'failed');
    await useSearches(stack, user.id, 10);
    const before = fetches;
    expect(await fire(Date.UTC(2026, 5, 1, 7))).toBe('skipped');
    expect(fetches - before).toBe(0);
    // A fire that took its credit on an earlier attempt is paid for, even with the allowance used up since.
    await stack.db.sql`update accounts set searches_used = 9 where user_id = ${user.id}`;
    const at = Date.UTC(2026, 5, 2, 7);
    const [run] = await stack.db.sql<{ id: number }[]>`
      insert into timer_runs (timer_id, scheduled_for, status, credit_taken, credit_epoch)
      select ${timer.id}, ${new Date(at)}, 'running', true, usage_epoch from accounts where user_id = ${user.id}
      returning id`;
    await stack.db.sql`update accounts set searches_used = 10 where user_id = ${user.id}`;
    expect(run).toBeDefined();
    await fire(at);
    expect(fetches - before).toBe(1);
  });
});
