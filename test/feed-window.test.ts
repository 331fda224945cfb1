import ICAL from 'ical.js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../api/app';
import type { Sql } from '../db/client';
import { feedTokensOf } from '../core/events/feed-token';
import { insertTimer } from '../db/timers';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';

// docs/decisions/data-lifecycle.md: a feed held every event its timer ever saw (a year of daily runs ≈ 12 MB a
// poll). It now holds upcoming events and those of the last 30 days, at most 300, and an unchanged poll costs
// one indexed read.
describe('bounded feeds', () => {
  let stack: TestStack;
  let timerId: number;
  let feedPath: string;
  beforeAll(async () => {
    stack = await startTestStack();
    const { user } = await createSignedInUser(stack.db.sql);
    timerId = (await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'Daily meetups' }))).id;
    const token = (await feedTokensOf(stack.db.sql, stack.config.feedTokenSecret!, [timerId])).get(timerId)!;
    feedPath = `/feeds/${token}.ics`;
    const sql = stack.db.sql;
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const utcDay = (offset: number, hour: number) => new Date(midnight + offset * 86_400_000 + hour * 3_600_000).toISOString();
    // One event a day at 12:00 UTC, from a year ago to 400 days ahead: what a year of daily runs leaves.
    await sql`
      insert into timer_events (timer_id, key, event)
      select ${timerId}, 'day' || d, jsonb_build_object('key', 'day' || d, 'title', 'Meetup ' || d,
        'starts_at', to_char(date_trunc('day', now() at time zone 'utc') + d * interval '1 day' + interval '12 hours',
                             'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        'ends_at', null, 'all_day', false, 'timezone', 'UTC', 'venue', null, 'city', 'Berlin', 'online', null,
        'url', null, 'source_url', null, 'status', 'scheduled')
      from generate_series(-365, 400) d`;
    const other = (key: string, starts: string | null, ends: string | null, allDay: boolean) => sql`
      insert into timer_events (timer_id, key, event)
      values (${timerId}, ${key}, ${sql.json({
        key,
        title: key,
        starts_at: starts,
        ends_at: ends,
        all_day: allDay,
        timezone: 'UTC',
        venue: null,
        city: 'Berlin',
        online: null,
        url: null,
        source_url: null,
        status: 'scheduled',
      })})`;
    // A festival that began 60 days ago and ended 10 days ago: its end puts it in the window.
    await other('Festival', utcDay(-60, 10), utcDay(-10, 12), false);
    // An all-day event 40 days ago (out), and one without a date (never a calendar entry).
    await other('Old fair', utcDay(-40, 0).slice(0, 10), null, true);
    await other('Undated', null, null, false);
  });
  afterAll(() => stack?.close());

  it('holds the window only: the last 30 days and what is upcoming, at most 300, the earliest first', async () => {
    const res = await fetch(`${stack.url}${feedPath}`);
    expect(res.status).toBe(200);
    const vevents = new ICAL.Component(ICAL.parse(await res.text())).getAllSubcomponents('vevent');
    const titles = vevents.map((v) => String(v.getFirstPropertyValue('summary')));
    // Days -30 to 268 (299 of them) and the festival: the window's first 300 by end time.
    const expected = ['Festival', ...Array.from({ length: 299 }, (_, i) => `Meetup ${i - 30}`)];
    expect(titles.sort()).toEqual(expected.sort());
  });

  it('answers If-None-Match: * and a matching ETag with 304, each poll costing one indexed read', async () => {
    const queries: string[] = [];
    const counting = postgres(stack.db.url, {
      max: 1,
      onnotice: () => {},
      debug: (_c, query) => void queries.push(query),
    }) as unknown as Sql;
    try {
      const app = createApp({ ...stack.deps, sql: counting });
      const first = await app.request(feedPath);
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      queries.length = 0;
      const poll = await app.request(feedPath, { headers: { 'if-none-match': etag } });
      expect(poll.status).toBe(304);
      expect(queries).toHaveLength(1);
      const any = await app.request(feedPath, { headers: { 'if-none-match': '*' } });
      expect(any.status).toBe(304);
      expect(any.headers.get('etag')).toBe(etag);
      // The one read is served by indexes: the window's edge is indexed (with changed_at included).
      const [plan] = await stack.db.sql.begin(async (tx) => {
        await tx`set local enable_seqscan = off`;
        return tx.unsafe(`explain (format json) ${queries[0]!.replace('$1', 'now()').replace('$2', "'x'")}`);
      });
      expect(JSON.stringify(plan)).toContain('timer_events_feed_idx');
    } finally {
      await (counting as unknown as postgres.Sql).end();
    }
  });

  it('a changed event in the window changes the ETag', async () => {
    const before = (await fetch(`${stack.url}${feedPath}`)).headers.get('etag');
    await stack.db.sql`update timer_events set sequence = sequence + 1, changed_at = now() where timer_id = ${timerId} and key = 'day5'`;
    const after = await fetch(`${stack.url}${feedPath}`, { headers: { 'if-none-match': before! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });
});
