import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulerId } from '../core/timers/scheduler';
import { startFleet, metricSample, scrape, type Fleet } from '../dev/harness/fleet';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';
import { enqueueScheduledFire } from './support/runs';

const TIMERS = 40;
const FREE_CREDITS = 10;

describe('2 api and 3 worker processes against one Postgres and Redis', () => {
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({
      apis: 2,
      workers: 3,
      env: { WORKER_CONCURRENCY: '8', TIMER_RUNS_PER_MINUTE: '100000', SEARCH_CONCURRENCY_PER_USER: '100', USER_RATE_PER_MINUTE: '1000' },
    });
  });
  afterAll(async () => {
    await fleet?.close();
  });

  const post = (apiIndex: number, path: string, body: unknown, cookie: string) =>
    fetch(`${fleet.apis[apiIndex]!.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: fleet.appUrl },
      body: JSON.stringify(body),
    });

  it('many timers firing in the same minute: each fire yields exactly one run, one credit and one search', async () => {
    // A minute twelve hours away, so no scheduler fires by itself during the test; the fires are forced below.
    const minute = new Date(Date.now() + 12 * 3600_000);
    const time = `${String(minute.getUTCHours()).padStart(2, '0')}:${String(minute.getUTCMinutes()).padStart(2, '0')}`;
    const timers = await Promise.all(
      Array.from({ length: TIMERS }, async (_, i) => {
        const { cookie, user } = await createSignedInUser(fleet.db.sql);
        const res = await post(
          i % 2,
          '/api/schedule',
          { scheduleType: 'daily', time, weekday: '', ques: `Jazz in Lisbon #${i}`, web: '', timezone: 'UTC' },
          cookie,
        );
        expect(res.status).toBe(200);
        return { id: ((await res.json()) as { id: number }).id, userId: user.id };
      }),
    );
    const fires = await Promise.all(timers.map(async (t) => (await fleet.queue.getJobScheduler(schedulerId(t.id)))!.next!));
    expect(new Set(fires).size).toBe(1);
    const at = fires[0]!;
    const searchesBefore = fleet.standins.gemini.state.requests;

    // The minute arrives for all of them at once: each scheduler's own job becomes due, and the same fire is
    // enqueued a second time (as a scheduler catching up after a failover would), which BullMQ must fold into it.
    await Promise.all(
      timers.map(async (t) => {
        await (await fleet.queue.getJob(`repeat:${schedulerId(t.id)}:${at}`))!.promote();
        await enqueueScheduledFire(fleet.queue, t.id, at);
      }),
    );
    await until(
      'every run to finish',
      async () => {
        const [row] = await fleet.db.sql<{ n: number }[]>`select count(*)::int as n from timer_runs where status <> 'running'`;
        return row!.n >= TIMERS;
      },
      30_000,
    );
    await until(
      'the queue to drain',
      async () => {
        const c = await fleet.queue.getJobCounts('waiting', 'active', 'prioritized');
        return Object.values(c).every((n) => n === 0);
      },
      30_000,
    );

    const runs = await fleet.db.sql<{ timer_id: number; n: number; ok: number; credits: number }[]>`
      select timer_id, count(*)::int as n, count(*) filter (where status = 'succeeded')::int as ok,
             count(*) filter (where credit_taken)::int as credits
      from timer_runs group by timer_id`;
    expect(runs).toHaveLength(TIMERS);
    for (const r of runs) expect(r).toMatchObject({ n: 1, ok: 1, credits: 1 });
    const used = await fleet.db.sql<{ searches_used: number }[]>`
      select searches_used from accounts where user_id in ${fleet.db.sql(timers.map((t) => t.userId))}`;
    expect(used.map((u) => u.searches_used)).toEqual(Array(TIMERS).fill(1));
    // Each run is one call: the answer and its events together (docs/decisions/gemini-and-cost.md).
    expect(fleet.standins.gemini.state.requests - searchesBefore).toBe(TIMERS);

    // Every scheduler armed its next fire, and the three workers' own counters add up to one run per fire.
    for (const t of timers) expect((await fleet.queue.getJobScheduler(schedulerId(t.id)))!.next).toBeGreaterThan(at);
    const counted = await Promise.all(
      fleet.workers.map(async (w) => metricSample(await scrape(w), 'timer_runs_total{outcome="succeeded"}')),
    );
    expect(counted.reduce((a, b) => a + b, 0)).toBe(TIMERS);
  });

  it('asks through both apis never take more credits than the user has', async () => {
    const { cookie, user } = await createSignedInUser(fleet.db.sql);
    const statuses: number[] = [];
    let pending = 3 * FREE_CREDITS;
    // Sent again while refused for the per-user concurrency (429), so every ask reaches the credit check.
    while (pending > 0) {
      const wave = await Promise.all(
        Array.from({ length: pending }, async (_, i) => {
          const res = await post(i % 2, '/api/ask', { ques: 'AI conferences in Berlin', web: '', timezone: 'Europe/Berlin' }, cookie);
          await res.text();
          return res.status;
        }),
      );
      pending = wave.filter((s) => s === 429).length;
      statuses.push(...wave.filter((s) => s !== 429));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(FREE_CREDITS);
    expect(statuses.filter((s) => s === 402)).toHaveLength(2 * FREE_CREDITS);
    const [account] = await fleet.db.sql`select searches_used from accounts where user_id = ${user.id}`;
    expect(account!.searches_used).toBe(FREE_CREDITS);
  });
});
