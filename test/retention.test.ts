import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedWindowStart } from '../core/events/feed-window';
import { applyRetention } from '../db/retention';
import { insertTimer } from '../db/timers';
import { retentionIfDue } from '../core/retention';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';

const DAY = 86_400_000;

// docs/decisions/data-lifecycle.md: searches kept 180 days; runs the latest 50 per timer and anything younger than
// 90 days; remembered events while a feed window or a kept run may need them. In batches, once a day.
describe('the retention pass', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  it('removes exactly what is kept no longer, a batch at a time', async () => {
    const sql = stack.db.sql;
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const { user } = await createSignedInUser(sql);
    const timer = await insertTimer(sql, user.id, dailyTimer());
    // 55 runs from 200 to 146 days ago and 5 from the last 5 days: the latest 50 are the 5 and 45 of the old.
    for (let i = 0; i < 55; i++) {
      await sql`insert into timer_runs (timer_id, scheduled_for, status, finished_at)
                values (${timer.id}, ${ago(200 - i)}, 'succeeded', ${ago(200 - i)})`;
    }
    for (let i = 1; i <= 5; i++) {
      await sql`insert into timer_runs (timer_id, scheduled_for, status, finished_at) values (${timer.id}, ${ago(i)}, 'succeeded', ${ago(i)})`;
    }
    const search = (days: number, status: string) =>
      sql`insert into searches (user_id, question, status, started_at) values (${user.id}, ${`q ${days}`}, ${status}, ${ago(days)})`;
    await search(200, 'answered');
    await search(181, 'failed');
    await search(179, 'answered');
    await search(10, 'answered');
    await search(200, 'running');
    const remembered = (key: string, starts: string | null, lastSeenDaysAgo: number) =>
      sql`insert into timer_events (timer_id, key, event, last_seen_at)
          values (${timer.id}, ${key}, ${sql.json({ key, title: key, starts_at: starts, ends_at: null, all_day: false })}, ${ago(lastSeenDaysAgo)})`;
    await remembered('past, unseen for 100 days', ago(120).toISOString(), 100);
    await remembered('past, seen 10 days ago', ago(120).toISOString(), 10);
    await remembered('upcoming, unseen for 100 days', new Date(now.getTime() + 20 * DAY).toISOString(), 100);
    await remembered('in the window, unseen for 100 days', ago(5).toISOString(), 100);
    await remembered('undated, unseen for 100 days', null, 100);

    const counts = await applyRetention(sql, {
      searchesBefore: ago(180),
      runsBefore: ago(90),
      keepRuns: 50,
      feedWindowStart: feedWindowStart(now),
      eventsUnseenSince: ago(90),
      batch: 3,
    });
    expect(counts).toEqual({ searches: 2, timerRuns: 10, timerEvents: 2 });
    const runs = await sql<
      { scheduled_for: Date }[]
    >`select scheduled_for from timer_runs where timer_id = ${timer.id} order by scheduled_for`;
    expect(runs).toHaveLength(50);
    expect(runs[0]!.scheduled_for).toEqual(ago(190));
    const left = await sql<{ question: string }[]>`select question from searches where user_id = ${user.id} order by question`;
    expect(left.map((r) => r.question)).toEqual(['q 10', 'q 179', 'q 200']);
    const events = await sql<{ key: string }[]>`select key from timer_events where timer_id = ${timer.id} order by key`;
    expect(events.map((e) => e.key)).toEqual([
      'in the window, unseen for 100 days',
      'past, seen 10 days ago',
      'upcoming, unseen for 100 days',
    ]);
  });

  it('runs once a day across the fleet', async () => {
    expect(await retentionIfDue(stack.db.sql, stack.redis, stack.config.queuePrefix)).toEqual({
      searches: 0,
      timerRuns: 0,
      timerEvents: 0,
    });
    expect(await retentionIfDue(stack.db.sql, stack.redis, stack.config.queuePrefix)).toBeNull();
  });
});
