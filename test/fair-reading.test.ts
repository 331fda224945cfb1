import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { READING_QUEUE_FULL } from '../core/reading/pool';
import { readingPool } from '../core/reading/shared-pool';
import { registry } from '../core/metrics';
import { ALLOWANCES } from '../core/plans';
import { getBilling } from '../db/accounts';
import { insertTimer } from '../db/timers';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';
import { fireScheduled } from './support/runs';

const metric = async (name: string) => (await registry.getSingleMetric(name)!.get()).values.reduce((sum, v) => sum + v.value, 0);

// The product's reading thread, but for a page at /endless, which holds its thread until a limit ends it.
const THREAD = fileURLToPath(new URL('./support/endless-reading-thread.ts', import.meta.url));

// The hostile shape on a pool of one thread where one reading may wait: one user's calendars that are read until
// their time runs out, then another user's one-event page, through the real api.
describe('a user’s slow calendars and another user’s website', () => {
  let stack: TestStack;
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.url === '/endless.ics') res.writeHead(200, { 'content-type': 'text/calendar' }).end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<div class="h-event"><h2 class="p-name">Rust meetup</h2><time class="dt-start">2026-12-20T19:00</time></div>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${port}`;
    stack = await startTestStack({
      env: {
        WEBSITE_FETCH_ALLOW: `127.0.0.1:${port}`,
        USER_RATE_PER_MINUTE: '1000',
        READING_THREADS: '1',
        READING_QUEUE_LIMIT: '1',
        READING_TIME_LIMIT_MS: '10000',
      },
    });
    // Warm threads: a reading's time counts from when it is handed in, a thread's start included.
    await readingPool(stack.deps.config.reading, THREAD).ready;
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('refuses the slow user’s waiting reading with a sentence and no charge, and answers the other user', {
    timeout: 120_000,
  }, async () => {
    const hostile = await createSignedInUser(stack.db.sql);
    const other = await createSignedInUser(stack.db.sql);
    const readBefore = await metric('website_readings_in_flight');
    const reply = (cookie: string, web: string) =>
      ask(stack.url, cookie, { ques: 'What is on this month?', web }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const first = reply(hostile.cookie, `${siteUrl}/endless.ics`);
    const second = reply(hostile.cookie, `${siteUrl}/endless.ics`);
    // Both slow readings handed to the pool: one in its thread, one waiting.
    await vi.waitFor(async () => expect(await metric('website_readings_in_flight')).toBe(readBefore + 2), { timeout: 60_000, interval: 5 });
    const answered = reply(other.cookie, `${siteUrl}/talks`);
    // The queue is full: the user with the most waiting gives up theirs.
    expect(await second).toEqual({ status: 503, text: READING_QUEUE_FULL });
    const otherReply = await answered;
    expect(otherReply.status).toBe(200);
    expect(otherReply.text).not.toMatch(/could not be read in time/);
    const hostileReply = await first;
    expect(hostileReply.status).toBe(200);
    expect(hostileReply.text).toMatch(/could not be read in time/);
    // The refused ask cost nothing: one search used, the answered one.
    expect((await getBilling(stack.db.sql, hostile.user.id, ALLOWANCES))?.used).toBe(1);
    const [refused] = await stack.db.sql<{ status: string; error: string }[]>`
      select status, error from searches where user_id = ${hostile.user.id} and status <> 'answered'`;
    expect(refused).toEqual({ status: 'failed', error: READING_QUEUE_FULL });
  });

  it('runs another user’s timer with its website read while one timer’s calendar is read until its time runs out', {
    timeout: 120_000,
  }, async () => {
    const at = Date.UTC(2026, 5, 1, 7);
    const run = async (web: string) => {
      const { user } = await createSignedInUser(stack.db.sql);
      const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'What is on this month?', web }));
      const outcome = await fireScheduled(stack, timer.id, { at });
      const [search] = await stack.db.sql<{ answer: string | null }[]>`select answer from searches where user_id = ${user.id}`;
      return { outcome, answer: search?.answer ?? '' };
    };
    const inFlight = await metric('website_readings_in_flight');
    const bomb = run(`${siteUrl}/endless.ics`);
    // The bomb's reading holds the worker's one thread; the other user's run comes while it does.
    await vi.waitFor(async () => expect(await metric('website_readings_in_flight')).toBe(inFlight + 1), { timeout: 60_000, interval: 5 });
    const other = await run(`${siteUrl}/talks`);
    expect(other.outcome).toBe('succeeded');
    expect(other.answer).not.toMatch(/could not be read in time/);
    const bombed = await bomb;
    expect(bombed.outcome).toBe('succeeded');
    expect(bombed.answer).toMatch(/could not be read in time/);
  });
});
