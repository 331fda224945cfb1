import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchError } from '../search-error';
import { captureLogs } from '../../test/support/logs';
import { HOSTILE_SITES } from '../../dev/harness/hostile-sites';
import { ReadingPool } from './pool';
import { type ReadWebsiteOptions, readWebsite } from './read-website';

const ics = (uid: string, summary: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nSUMMARY:${summary}\r\nDTSTART;TZID=America/Denver:20260528T190000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

// A loopback site reached through the guard's allow list. `club.example` resolves to it too, to test which
// links count as the same site.
let server: Server;
let port = 0;
const hits: string[] = [];
let hangingHit: () => void = () => {};
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const links = (...hrefs: string[]) => hrefs.map((h) => `<a href="${h}">calendar</a>`).join('');
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><head><title>Club</title><link rel="alternate" type="text/calendar" href="/all.ics"></head><body>
        <script type="application/ld+json">{"@type":"Event","name":"Page event","startDate":"2026-05-01"}</script>
        ${links(`webcal://127.0.0.1:${port}/webcal.ics`, '/missing.ics', '/not-a-calendar.ics', '/fourth.ics', 'https://other.example/x.ics')}</body></html>`);
    } else if (path === '/minutely.ics') {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end(HOSTILE_SITES.find((s) => s.name === '5,000 events repeating every minute')!.body());
    } else if (path === '/slow-calendar') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<title>Slow</title><a href="/hang.ics">calendar</a>');
    } else if (path === '/hang.ics') {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.write('BEGIN:VCALENDAR\r\n');
      hangingHit();
    } else if (path === '/guarded') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<title>Guarded</title>${links(`http://cal.events.test:${port}/all.ics`, '/all.ics')}`);
    } else if (path === '/all.ics' || path === '/webcal.ics' || path === '/fourth.ics') {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.end(ics(path, `From ${path}`));
    } else if (path === '/not-a-calendar.ics') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>Sorry</p>');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const pool = new ReadingPool({ timeLimitMs: 10_000, heapMb: 256, maxEvents: 20_000, threads: 1, queueLimit: 32 });
afterAll(() => pool.close());
// Warm threads: a reading's time counts from when it is handed in, a thread's start included.
beforeAll(() => pool.ready, 120_000);
const reading = { pool, reader: 'user', context: { searcherTimezone: 'UTC', now: Date.parse('2026-04-01T00:00:00Z') } };
const options = (): ReadWebsiteOptions => ({ allow: [`127.0.0.1:${port}`], ...reading });

describe('readWebsite', () => {
  it('follows at most three same-site calendar links through the guard and adds their events', async () => {
    hits.length = 0;
    const facts = await readWebsite(`http://127.0.0.1:${port}/events`, options());
    // webcal: is read over https, which this plain-http server does not speak: that link fails like a broken one.
    expect(facts.calendarLinks).toEqual([
      `http://127.0.0.1:${port}/all.ics`,
      `https://127.0.0.1:${port}/webcal.ics`,
      `http://127.0.0.1:${port}/missing.ics`,
      `http://127.0.0.1:${port}/not-a-calendar.ics`,
      `http://127.0.0.1:${port}/fourth.ics`,
      'https://other.example/x.ics',
    ]);
    expect(facts.calendarsRead).toEqual([`http://127.0.0.1:${port}/all.ics`]);
    expect(facts.events.map((e) => [e.name, e.startAt, e.timezone])).toEqual([
      ['Page event', '2026-05-01', undefined],
      ['From /all.ics', '2026-05-28T19:00:00', 'America/Denver'],
    ]);
    expect(hits).toContain('/missing.ics');
    expect(hits).not.toContain('/fourth.ics');
    expect(hits).not.toContain('/not-a-calendar.ics');
  });

  it('fetches calendar links through the same guard: a link to a private address is refused, the page still read', async () => {
    hits.length = 0;
    const facts = await readWebsite(`http://events.test:${port}/guarded`, {
      allow: [`events.test:${port}`],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      ...reading,
    });
    // cal.events.test is the same site but resolves to 127.0.0.1 without being allowed: refused, never fetched.
    expect(facts.calendarLinks).toEqual([`http://cal.events.test:${port}/all.ics`, `http://events.test:${port}/all.ics`]);
    expect(facts.calendarsRead).toEqual([`http://events.test:${port}/all.ics`]);
    expect(hits).toEqual(['/guarded', '/all.ics']);
  });

  it('fails with the page’s own error when the page cannot be read', async () => {
    const err = await readWebsite(`http://127.0.0.1:${port}/nothing`, options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchError);
    expect((err as SearchError).message).toMatch(/HTTP 404/);
  });

  it('ends with the cancellation when the search is cancelled while a calendar is read', async () => {
    const controller = new AbortController();
    const hit = new Promise<void>((resolve) => {
      hangingHit = resolve;
    });
    const read = readWebsite(`http://127.0.0.1:${port}/slow-calendar`, { ...options(), signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    await hit;
    controller.abort();
    const err = await read;
    expect(err).toBeInstanceOf(SearchError);
    expect((err as SearchError).code).toBe('aborted');
  });

  it('drops a reading past its time or its output bound, says which with the host, and keeps the pool working', {
    timeout: 120_000,
  }, async () => {
    const tight = new ReadingPool({ timeLimitMs: 300, heapMb: 256, maxEvents: 20_000, threads: 1, queueLimit: 32 });
    const few = new ReadingPool({ timeLimitMs: 60_000, heapMb: 256, maxEvents: 1, threads: 1, queueLimit: 32 });
    try {
      await Promise.all([tight.ready, few.ready]);
      const logs = captureLogs();
      const slow = await readWebsite(`http://127.0.0.1:${port}/minutely.ics`, { ...options(), pool: tight, logger: logs.logger });
      expect(slow).toMatchObject({ overLimit: 'time', events: [], found: [], text: '' });
      expect(logs.lines).toContainEqual(expect.objectContaining({ host: `127.0.0.1:${port}`, limit: 'time' }));
      // The page's own event and the calendar's: two, over a bound of one.
      const many = await readWebsite(`http://127.0.0.1:${port}/events`, { ...options(), pool: few });
      expect(many.overLimit).toBe('events');
      // The thread ended for time was replaced: the next reading of the same pool is read.
      const next = await readWebsite(`http://127.0.0.1:${port}/all.ics`, { ...options(), pool: tight });
      expect(next.overLimit).toBeUndefined();
      expect(next.found.map((e) => e.title)).toEqual(['From /all.ics']);
    } finally {
      await Promise.all([tight.close(), few.close()]);
    }
  });
});
