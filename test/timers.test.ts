import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import { createTimersQueue } from '../core/jobs';
import { nextRunAt } from '../core/timers/schedule';
import { schedulerId } from '../core/timers/scheduler';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { dailyTimer } from '../dev/harness/timer-input';

describe('timers API', () => {
  let stack: TestStack;
  let cookie: string;
  let userId: number;

  beforeAll(async () => {
    // One user saves many timers here (the 20-timer cap); the per-user request rate is tested apart.
    stack = await startTestStack({ env: { USER_RATE_PER_MINUTE: '1000' } });
    ({
      cookie,
      user: { id: userId },
    } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const post = (path: string, body: unknown, as = cookie) =>
    fetch(`${stack.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: as },
      body: JSON.stringify(body),
    });
  // A weekday on a daily timer on purpose: the api is to store it without one.
  const daily = dailyTimer({ weekday: 'Monday', ques: 'AI conferences in Berlin' });
  const activeCount = async (id = userId) =>
    (await stack.db.sql<{ n: number }[]>`select count(*)::int as n from timers where user_id = ${id} and deleted_at is null`)[0]!.n;

  it('needs a signed-in user', async () => {
    const res = await post('/api/schedule', daily, '');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
  });

  it.each([
    ['a bad schedule type', { scheduleType: 'hourly' }, /'daily' or 'weekly'/],
    ['24:00', { time: '24:00' }, /HH:MM/],
    ['9:5', { time: '9:5' }, /HH:MM/],
    ['weekly without a weekday', { scheduleType: 'weekly', weekday: '' }, /needs a day of the week/],
    ['Funday', { scheduleType: 'weekly', weekday: 'Funday' }, /Monday, Tuesday/],
    ['Mars/Olympus', { timezone: 'Mars/Olympus' }, /IANA time zone/],
    ['an empty question', { ques: '  ' }, /question/],
    ['a non-http website', { web: 'javascript:alert(1)' }, /http/],
  ])('refuses %s with a plain-text 400', async (_name, patch, message) => {
    const res = await post('/api/schedule', { ...daily, ...patch });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await res.text()).toMatch(message);
    expect(await activeCount()).toBe(0);
  });

  it('saves a weekly timer and its scheduler has the right pattern, zone and next run', async () => {
    const res = await post('/api/schedule', { ...daily, scheduleType: 'weekly', weekday: 'Wednesday', time: '18:30' });
    expect(res.status).toBe(200);
    const timer = await res.json();
    expect(timer).toMatchObject({ scheduleType: 'weekly', time: '18:30', weekday: 'Wednesday', timezone: 'Europe/Berlin', lastRun: null });
    const scheduler = await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id));
    // Its scheduler id names the timer; the jobs carry no data (docs/decisions/timers.md).
    expect(scheduler).toMatchObject({ key: `t${timer.id}`, pattern: '30 18 * * 3', tz: 'Europe/Berlin' });
    expect(scheduler!.template?.data).toBeUndefined();
    const expected = nextRunAt({ scheduleType: 'weekly', time: '18:30', weekday: 'Wednesday', timezone: 'Europe/Berlin' });
    expect(scheduler!.next).toBe(expected.getTime());
    expect(timer.nextRunAt).toBe(expected.toISOString());
    // The next fire waits as a delayed job whose id names the scheduler and the fire time.
    const delayed = await stack.deps.timersQueue.getDelayed();
    expect(delayed.map((j) => j.id)).toContain(`repeat:${schedulerId(timer.id)}:${expected.getTime()}`);

    const list = await (await fetch(`${stack.url}/api/timers`, { headers: { cookie } })).json();
    // The listing adds each timer's calendar feed URLs (docs/contract.md, "Events, feeds and delivery").
    expect(list).toEqual([
      { ...timer, ical_url: expect.stringMatching(/\/feeds\/[\w-]{43}\.ics$/), atom_url: expect.stringMatching(/\.atom$/) },
    ]);

    const del = await post('/api/timer/delete', { timer_id: timer.id });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ status: 'success', message: 'Timer deleted' });
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id))).toBeUndefined();
    expect(await stack.deps.timersQueue.getDelayedCount()).toBe(0);
    expect(await (await fetch(`${stack.url}/api/timers`, { headers: { cookie } })).json()).toEqual([]);
  });

  it('stores daily timers without a weekday', async () => {
    const timer = await (await post('/api/schedule', daily)).json();
    expect(timer.weekday).toBeNull();
    expect((await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id)))?.pattern).toBe('0 9 * * *');
    await post('/api/timer/delete', { timer_id: timer.id });
  });

  it("answers 404 for another user's or an unknown timer and changes nothing", async () => {
    const other = await createSignedInUser(stack.db.sql);
    const theirs = await (await post('/api/schedule', daily, other.cookie)).json();
    for (const timer_id of [theirs.id, 999_999, 'x']) {
      const res = await post('/api/timer/delete', { timer_id });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ status: 'error', message: 'Timer not found' });
    }
    expect(await activeCount(other.user.id)).toBe(1);
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(theirs.id))).toBeDefined();
  });

  it('allows 20 timers and refuses the 21st, also when saved all at once', async () => {
    const { cookie: many, user } = await createSignedInUser(stack.db.sql);
    const results = await Promise.all(Array.from({ length: 21 }, () => post('/api/schedule', daily, many)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    const refused = results.find((r) => r.status === 400)!;
    expect(await refused.text()).toMatch(/20 timers/);
    expect(await activeCount(user.id)).toBe(20);
  });

  it('answers 503 and leaves no timer when Redis cannot be reached', async () => {
    const { cookie: c, user } = await createSignedInUser(stack.db.sql);
    // A queue whose Redis is not there: port 1 refuses connections.
    const dead = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: null, lazyConnect: true });
    dead.on('error', () => {});
    const deadQueue = createTimersQueue(dead, stack.config.queuePrefix);
    deadQueue.on('error', () => {}); // the refused connection is the point of this test
    const app = createApp({ ...stack.deps, timersQueue: deadQueue });
    const res = await app.request('/api/schedule', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: c },
      body: JSON.stringify(daily),
    });
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/unavailable right now.*Nothing was changed/);
    expect(await activeCount(user.id)).toBe(0);

    // Deleting keeps the timer when its scheduler cannot be removed.
    const timer = await (await post('/api/schedule', daily, c)).json();
    const del = await app.request('/api/timer/delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: c },
      body: JSON.stringify({ timer_id: timer.id }),
    });
    expect(del.status).toBe(503);
    expect(await activeCount(user.id)).toBe(1);
    expect(await stack.deps.timersQueue.getJobScheduler(schedulerId(timer.id))).toBeDefined();
    dead.disconnect();
  });
});
