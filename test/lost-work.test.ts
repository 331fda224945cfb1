import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimersQueue } from '../core/jobs';
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
