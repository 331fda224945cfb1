import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { READING_QUEUE_FULL } from '../core/reading/pool';
import { readingPool } from '../core/reading/shared-pool';
import { slowZonesCalendar } from '../dev/harness/hostile-sites';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { createSignedInUser } from '../dev/harness/users';
import { ask } from './support/ask';

const HOSTILE_ACCOUNTS = 20;
const UNREAD = /could not be read in time/;

// The hostile shape through the real api, on the default reading threads: twenty accounts each asking twice at
// once with a calendar of thousands of custom time zones, and another user asking with a one-event page meanwhile.
describe('twenty users’ slow calendars and another user’s website', () => {
  let stack: TestStack;
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    const calendar = slowZonesCalendar(2000);
    site = createServer((req, res) => {
      if (req.url === '/c.ics') res.writeHead(200, { 'content-type': 'text/calendar' }).end(calendar);
      else
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<div class="h-event"><h2 class="p-name">Rust meetup</h2><time class="dt-start">2026-12-20T19:00</time></div>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const port = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${port}`;
    // A time limit far above a reading's on a busy machine: what is tested is the order, not the speed.
    stack = await startTestStack({
      env: { WEBSITE_FETCH_ALLOW: `127.0.0.1:${port}`, USER_RATE_PER_MINUTE: '1000', READING_TIME_LIMIT_MS: '20000' },
    });
    await readingPool(stack.deps.config.reading).ready;
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('reads the other user’s website while the slow calendars wait, and reads or refuses each of those with a sentence', {
    timeout: 300_000,
  }, async () => {
    const reply = (cookie: string, web: string) =>
      ask(stack.url, cookie, { ques: 'What is on this month?', web }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const other = await createSignedInUser(stack.db.sql);
    // The other user has asked before: a burst of new accounts does not go in front of them.
    expect((await reply(other.cookie, `${siteUrl}/talks`)).status).toBe(200);
    const hostile = await Promise.all(Array.from({ length: HOSTILE_ACCOUNTS }, () => createSignedInUser(stack.db.sql)));
    const pool = readingPool(stack.deps.config.reading);
    const attack = hostile.flatMap(({ cookie }) => [reply(cookie, `${siteUrl}/c.ics`), reply(cookie, `${siteUrl}/c.ics`)]);
    // Every thread taken and slow calendars waiting for one.
    await vi.waitFor(() => expect(pool.waiting).toBeGreaterThan(0), { timeout: 60_000, interval: 2 });
    const answered = await reply(other.cookie, `${siteUrl}/talks`);
    expect(answered.status).toBe(200);
    expect(answered.text).not.toMatch(UNREAD);
    const ended = await Promise.all(attack);
    for (const { status, text } of ended) {
      if (status === 503) expect(text).toBe(READING_QUEUE_FULL);
      else expect(status).toBe(200);
      expect(text).not.toMatch(/cancelled/);
    }
    // Their calendars were read, not dropped at the time limit.
    expect(ended.filter((e) => e.status === 200 && !UNREAD.test(e.text)).length).toBeGreaterThan(0);
  });
});
