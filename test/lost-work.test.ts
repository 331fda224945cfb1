import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimersQueue } from '../core/jobs';
import { ALLOWANCES } from '../core/plans';
import { getBilling, startSearchTakingCredit } from '../db/accounts';
import { createRedis } from '../core/redis/client';
import { runTimerNow } from '../core/timers/run-now';
import { SchedulerUnavailableError } from '../core/timers/scheduler';
import { finishSearchRecord, startSearchRecord } from '../db/searches';
import { claimFire } from '../db/timer-runs';
import { insertTimer } from '../db/timers';
import { ABANDONED_SEARCH_MESSAGE, LOST_AFTER_MS, LOST_MESSAGE, sweepLostWork } from '../core/timers/sweep-abandoned-runs';
import { freePort } from '../dev/harness/processes';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';

// docs/decisions/timers.md: failures that are not the timer's own must neither count towards auto-pause nor block it.
describe('work nobody will finish', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack?.close());

  async function newTimer() {
    const { user } = await createSignedInUser(stack.db.sql);
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups', timezone: 'UTC' }));
    return { userId: user.id, timer };
  }
  const runsOf = (timerId: number) =>
    stack.db.sql<{ id: string; status: string; error: string | null; scheduled_for: Date }[]>`
      select id, status, error, scheduled_for from timer_runs where timer_id = ${timerId} order by id`;
  const later = (ms: number) => new Date(Date.now() + ms);

  it('a Run now that could not be queued leaves no run behind: no failure towards auto-pause, and the next click works', async () => {
    const { userId, timer } = await newTimer();
    const dead = createRedis({ redisUrl: `redis://127.0.0.1:${await freePort()}`, redisClusterNodes: null }, 'requests');
    dead.on('error', () => {});
    const deadQueue = createTimersQueue(dead, stack.config.queuePrefix);
    deadQueue.on('error', () => {});
    try {
      await expect(runTimerNow({ sql: stack.db.sql, timersQueue: deadQueue }, userId, timer.id)).rejects.toThrow(SchedulerUnavailableError);
    } finally {
      await deadQueue.close().catch(() => {});
      dead.disconnect();
    }
    expect(await runsOf(timer.id)).toEqual([]);
    expect(await runTimerNow(stack.deps, userId, timer.id)).toMatchObject({ kind: 'queued' });
  });

  it('a Run-now job lost before any worker took it is skipped after a few minutes, and Run now works again', async () => {
    const { userId, timer } = await newTimer();
    const first = await runTimerNow(stack.deps, userId, timer.id);
    expect(first.kind).toBe('queued');
    // Lost: Redis emptied or failed over before a worker took the job.
    const [job] = await stack.deps.timersQueue
      .getJobs(['waiting', 'prioritized', 'delayed'])
      .then((jobs) => jobs.filter((j) => j.id?.startsWith(`run-now:timer-${timer.id}:`)));
    await job!.remove();
    expect(await runTimerNow(stack.deps, userId, timer.id)).toEqual({ kind: 'busy' });
    expect(await sweepLostWork(stack.db.sql, later(LOST_AFTER_MS - 60_000))).toMatchObject({ lostRuns: 0 });
    expect((await sweepLostWork(stack.db.sql, later(LOST_AFTER_MS + 1000))).lostRuns).toBeGreaterThanOrEqual(1);
    expect(await runsOf(timer.id)).toEqual([expect.objectContaining({ status: 'skipped', error: LOST_MESSAGE })]);
    expect(await runTimerNow(stack.deps, userId, timer.id)).toMatchObject({ kind: 'queued' });
  });

  it('a Run-now run a worker took is left to the worker', async () => {
    const { userId, timer } = await newTimer();
    expect((await runTimerNow(stack.deps, userId, timer.id)).kind).toBe('queued');
    const [run] = await runsOf(timer.id);
    // What the worker's processor does first with the job: claim the fire, which marks the run taken.
    expect(await claimFire(stack.db.sql, timer.id, run!.scheduled_for, true)).toMatchObject({ kind: 'claimed' });
    await sweepLostWork(stack.db.sql, later(LOST_AFTER_MS + 1000));
    expect((await runsOf(timer.id))[0]!.status).toBe('running');
  });

  it('a search left running by a stopped process is ended after an hour with a sentence', async () => {
    const { userId } = await newTimer();
    const record = { userId, question: 'AI meetups', website: '', model: 'm', timerRunId: null };
    const old = await startSearchRecord(stack.db.sql, record);
    const recent = await startSearchRecord(stack.db.sql, record);
    await stack.db.sql`update searches set started_at = now() - interval '2 hours' where id = ${old}`;
    const swept = await sweepLostWork(stack.db.sql);
    expect(swept.searches).toBeGreaterThanOrEqual(1);
    const rows = await stack.db.sql<{ id: string; status: string; error: string | null }[]>`
      select id, status, error from searches where id in (${old}, ${recent}) order by id`;
    expect(rows.map((r) => [r.status, r.error])).toEqual([
      ['failed', ABANDONED_SEARCH_MESSAGE],
      ['running', null],
    ]);
  });

  it('a lost search gives its own credit back once, however many sweeps end it at once; a timer run keeps its credit on its run', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const start = { userId: user.id, question: 'AI meetups', website: '', model: 'm', filters: null };
    // Two asks whose process stopped mid-answer, each holding its credit, and one still answering.
    const lost = [
      await startSearchTakingCredit(stack.db.sql, start, ALLOWANCES),
      await startSearchTakingCredit(stack.db.sql, start, ALLOWANCES),
    ];
    const live = await startSearchTakingCredit(stack.db.sql, start, ALLOWANCES);
    expect(lost.every((s) => s.epoch !== null)).toBe(true);
    // A timer run's search: its credit is the run's, given back by the run's own sweep, not here.
    const timer = await insertTimer(stack.db.sql, user.id, dailyTimer({ ques: 'AI meetups', timezone: 'UTC' }));
    const [run] = await stack.db.sql<{ id: string }[]>`
      insert into timer_runs (timer_id, scheduled_for, status) values (${timer.id}, now(), 'running') returning id`;
    const runSearch = await startSearchRecord(stack.db.sql, { ...start, timerRunId: Number(run!.id) });
    const ids = [...lost.map((s) => s.searchId), runSearch];
    await stack.db.sql`update searches set started_at = now() - interval '2 hours' where id = any(${ids})`;
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(3);

    const sweeps = await Promise.all(Array.from({ length: 4 }, () => sweepLostWork(stack.db.sql)));
    expect(sweeps.reduce((n, s) => n + s.searches, 0)).toBeGreaterThanOrEqual(3);
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(1);
    const rows = await stack.db.sql<{ id: string; status: string }[]>`
      select id, status from searches where id = any(${[...ids, live.searchId]}) order by id`;
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed', 'running', 'failed']);
    // Swept again later, nothing more is given back.
    await sweepLostWork(stack.db.sql);
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(1);
  });

  it('a lost search whose allowance period has ended gives nothing into the new one', async () => {
    const { user } = await createSignedInUser(stack.db.sql);
    const start = { userId: user.id, question: 'AI meetups', website: '', model: 'm', filters: null };
    const { searchId } = await startSearchTakingCredit(stack.db.sql, start, ALLOWANCES);
    await startSearchTakingCredit(stack.db.sql, start, ALLOWANCES);
    await stack.db.sql`update searches set started_at = now() - interval '2 hours' where id = ${searchId}`;
    // A new period began since: its count is its own.
    await stack.db.sql`update accounts set usage_epoch = usage_epoch + 1 where user_id = ${user.id}`;
    await sweepLostWork(stack.db.sql);
    const [rec] = await stack.db.sql<{ status: string }[]>`select status from searches where id = ${searchId}`;
    expect(rec!.status).toBe('failed');
    expect((await getBilling(stack.db.sql, user.id, ALLOWANCES))!.used).toBe(2);
  });

  it("an ask's events still pending an hour after its answer (their job lost) end failed; newer ones wait", async () => {
    const { userId } = await newTimer();
    const record = { userId, question: 'AI meetups', website: '', model: 'm', timerRunId: null };
    const [old, recent] = [await startSearchRecord(stack.db.sql, record), await startSearchRecord(stack.db.sql, record)];
    for (const id of [old, recent]) await finishSearchRecord(stack.db.sql, id, { status: 'answered', eventsStatus: 'pending' });
    await stack.db.sql`update searches set finished_at = now() - interval '2 hours' where id = ${old}`;
    expect((await sweepLostWork(stack.db.sql)).events).toBeGreaterThanOrEqual(1);
    const rows = await stack.db.sql<{ events_status: string }[]>`
      select events_status from searches where id in (${old}, ${recent}) order by id`;
    expect(rows.map((r) => r.events_status)).toEqual(['failed', 'pending']);
  });
});
