import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenReplySchema } from '../core/contract/api-tokens';
import { listedTimerSchema, timersReplySchema } from '../core/contract/timers';
import { schedulerId } from '../core/timers/scheduler';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { pageCalls } from './support/page-calls';

/** The wall clock of an instant in a zone, as "Friday 18:30" (how a person would check a fire by hand). */
const wallClock = (millis: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(millis)
    .replace(' at', '');

/**
 * Editing a timer in place (PATCH /api/timers/:id, /v1/timers/:id, the MCP edit_timer tool) through the real
 * api, worker, Postgres and Redis: the timer keeps its id, runs and feeds; its job scheduler is replaced in the
 * same step; the edit is checked as creation is.
 */
describe('editing a timer in place', () => {
  let stack: TestStack;
  let cookie: string;
  beforeAll(async () => {
    stack = await startTestStack({ worker: true });
    ({ cookie } = await createSignedInUser(stack.db.sql));
  });
  afterAll(async () => {
    await stack?.close();
  });

  const { call, runs, runNow } = pageCalls(() => ({ url: stack.url, cookie }));
  const listed = async (timerId: number) =>
    timersReplySchema.parse(await (await call('GET', '/api/timers')).json()).find((t) => t.id === timerId)!;
  const scheduler = (timerId: number) => stack.deps.timersQueue.getJobScheduler(schedulerId(timerId));

  it('changes schedule, question and zone; keeps id, runs and feed; the scheduler fires at the new time', async () => {
    const web = `${stack.standins.url}/sites/around-berlin.html`;
    const made = await call('POST', '/api/schedule', dailyTimer({ time: '09:00', ques: 'AI meetups near Berlin', web }));
    const timer = listedTimerSchema.parse(await made.json());
    const run = await runNow(timer.id);
    expect(run.status).toBe('succeeded');
    const before = await listed(timer.id);
    const oldNext = (await scheduler(timer.id))!.next!;
    expect(wallClock(oldNext, 'Europe/Berlin')).toMatch(/ 09:00$/);

    const res = await call('PATCH', `/api/timers/${timer.id}`, {
      scheduleType: 'weekly',
      weekday: 'Friday',
      time: '18:30',
      ques: 'ML evenings in New York',
      timezone: 'America/New_York',
    });
    expect(res.status).toBe(200);
    const edited = listedTimerSchema.parse(await res.json());
    expect(edited).toMatchObject({
      id: timer.id,
      scheduleType: 'weekly',
      weekday: 'Friday',
      time: '18:30',
      ques: 'ML evenings in New York',
      web,
      timezone: 'America/New_York',
    });
    expect(wallClock(Date.parse(edited.nextRunAt), 'America/New_York')).toBe('Friday 18:30');

    // One scheduler, replaced: its pattern and zone are the new ones, its next fire is the new time, and the old
    // next fire is no longer waiting.
    const now = (await scheduler(timer.id))!;
    expect(now).toMatchObject({ pattern: '30 18 * * 5', tz: 'America/New_York' });
    expect(now.next).toBe(Date.parse(edited.nextRunAt));
    expect(await stack.deps.timersQueue.getJobState(`repeat:${schedulerId(timer.id)}:${now.next}`)).toBe('delayed');
    expect(await stack.deps.timersQueue.getJobState(`repeat:${schedulerId(timer.id)}:${oldNext}`)).toBe('unknown');

    // Runs and feeds stay the timer's own.
    expect((await runs(timer.id)).map((r) => r.id)).toEqual([run.id]);
    const after = await listed(timer.id);
    expect(after.ical_url).toBe(before.ical_url);
    expect(after.atom_url).toBe(before.atom_url);
    expect((await fetch(after.ical_url!)).status).toBe(200);

    // Only the time: a weekly timer keeps its day and zone.
    const timeOnly = listedTimerSchema.parse(await (await call('PATCH', `/api/timers/${timer.id}`, { time: '07:15' })).json());
    expect(timeOnly).toMatchObject({ scheduleType: 'weekly', weekday: 'Friday', time: '07:15', timezone: 'America/New_York' });
    expect((await scheduler(timer.id))!.pattern).toBe('15 7 * * 5');
  });

  it('refuses what creation refuses, changing nothing', async () => {
    const made = await call('POST', '/api/schedule', dailyTimer({ time: '10:00' }));
    const timer = listedTimerSchema.parse(await made.json());
    const refused = async (body: unknown, message: RegExp) => {
      const res = await call('PATCH', `/api/timers/${timer.id}`, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    };
    await refused({ time: '25:00' }, /Time must be written as HH:MM/);
    await refused({ scheduleType: 'weekly' }, /A weekly timer needs a day of the week/);
    await refused({ timezone: 'Mars/Olympus' }, /Time zone must be a valid IANA time zone name/);
    await refused({ ques: '   ' }, /Please type a question for the timer to repeat/);
    // The same private-address guard as creation and every run.
    await refused({ web: 'http://10.0.0.1/events' }, /points to a private or local network/);
    expect(await listed(timer.id)).toMatchObject({ scheduleType: 'daily', time: '10:00', timezone: 'Europe/Berlin', web: '' });
    expect((await scheduler(timer.id))!.pattern).toBe('0 10 * * *');
  });

  it('a paused timer edited stays paused with no scheduler; resumed, it fires at the edited time', async () => {
    const timer = listedTimerSchema.parse(await (await call('POST', '/api/schedule', dailyTimer({ time: '11:00' }))).json());
    expect((await call('PATCH', `/api/timers/${timer.id}`, { paused: true })).status).toBe(200);
    expect((await call('PATCH', `/api/timers/${timer.id}`, { time: '12:45' })).status).toBe(200);
    expect(await scheduler(timer.id)).toBeUndefined();
    expect((await call('PATCH', `/api/timers/${timer.id}`, { paused: false })).status).toBe(200);
    expect((await scheduler(timer.id))!.pattern).toBe('45 12 * * *');
  });

  it('someone else’s timer is not found', async () => {
    const timer = listedTimerSchema.parse(await (await call('POST', '/api/schedule', dailyTimer())).json());
    const other = await createSignedInUser(stack.db.sql);
    const res = await call('PATCH', `/api/timers/${timer.id}`, { time: '08:00' }, other.cookie);
    expect(res.status).toBe(404);
    expect((await listed(timer.id)).time).toBe('09:00');
  });

  it('/v1 and the MCP edit_timer tool edit the same way with a token', async () => {
    const made = await call('POST', '/api/tokens', { name: 'Agent', scopes: ['read', 'timers'] });
    expect(made.status).toBe(201);
    const token = createdApiTokenReplySchema.parse(await made.json()).token;
    const timer = listedTimerSchema.parse(await (await call('POST', '/api/schedule', dailyTimer({ time: '06:00' }))).json());

    const v1 = await fetch(`${stack.url}/v1/timers/${timer.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ time: '06:30', ques: 'Robotics fairs' }),
    });
    expect(v1.status).toBe(200);
    expect(listedTimerSchema.parse(await v1.json())).toMatchObject({ id: timer.id, time: '06:30', ques: 'Robotics fairs' });

    const client = new Client({ name: 'edit-timer-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    try {
      const result = await client.callTool({
        name: 'edit_timer',
        arguments: { timer_id: timer.id, scheduleType: 'weekly', weekday: 'Sunday', time: '20:00' },
      });
      expect(result.isError).toBeFalsy();
      expect(listedTimerSchema.parse(result.structuredContent)).toMatchObject({ id: timer.id, weekday: 'Sunday', time: '20:00' });
      expect((await scheduler(timer.id))!.pattern).toBe('0 20 * * 0');
      const bad = await client.callTool({ name: 'edit_timer', arguments: { timer_id: timer.id, time: '7 pm' } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
