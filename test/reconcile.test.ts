import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronPattern } from '../core/timers/schedule';
import { schedulerId, upsertTimerSchedulers } from '../core/timers/scheduler';
import { createTimer, createTimers } from '../core/timers/lifecycle';
import type { Timer } from '../db/timers';
import { reconcileSchedulers } from '../core/timers/reconcile';
import { claimReconcilePass } from '../core/timers/reconcile-claim';
import { advisoryLocks, holdSchedulersLock } from './support/schedulers-lock';
import { startTestStack, type TestStack } from '../dev/harness/stack';
import { dailyTimer } from '../dev/harness/timer-input';
import { createSignedInUser } from '../dev/harness/users';
import { until } from '../dev/harness/wait';

const daily = dailyTimer();

describe('reconcile pass, a page at a time, against real Postgres and Redis', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const reconcile = (pageSize: number) => reconcileSchedulers(stack.db.sql, stack.redis, stack.deps.timersQueue, pageSize);
  const scheduler = (id: string) => stack.deps.timersQueue.getJobScheduler(id);

  async function timersOfNewUser(count: number): Promise<Timer[]> {
    const { user } = await createSignedInUser(stack.db.sql);
    const created = await createTimers(
      stack.deps,
      user.id,
      Array.from({ length: count }, () => daily),
    );
    if (!created.ok) throw new Error('timers not created');
    return created.timers;
  }

  it('arms missing and changed schedulers and removes orphans across pages, leaving other schedulers alone', async () => {
    const queue = stack.deps.timersQueue;
    const [fine, missing, changed, paused, deleted, withLegacy] = await timersOfNewUser(6);
    await queue.removeJobScheduler(schedulerId(missing!.id));
    await queue.upsertJobScheduler(schedulerId(changed!.id), { pattern: '0 5 * * *', tz: 'UTC' }, { name: 'fire' });
    // Rows changed behind the API's back, as a crash between Postgres and Redis would leave them.
    await stack.db.sql`update timers set paused_at = now() where id = ${paused!.id}`;
    await stack.db.sql`update timers set deleted_at = now() where id = ${deleted!.id}`;
    await queue.upsertJobScheduler(`timer-${withLegacy!.id}`, { pattern: cronPattern(daily), tz: daily.timezone }, { name: 'run-timer' });
    await queue.upsertJobScheduler('cleanup', { every: 3_600_000 }, { name: 'cleanup' });

    // Two timers a page: the four active ones take two pages and an empty third. (Redis answers a ZSCAN of a set
    // this small in one reply, whatever the count.)
    expect(await reconcile(2)).toEqual({ upserted: 2, removed: 3 });

    for (const timer of [fine!, missing!, changed!, withLegacy!]) {
      expect(await scheduler(schedulerId(timer.id))).toMatchObject({ pattern: cronPattern(daily), tz: daily.timezone });
    }
    for (const gone of [schedulerId(paused!.id), schedulerId(deleted!.id), `timer-${withLegacy!.id}`]) {
      expect(await scheduler(gone)).toBeUndefined();
    }
    expect(await scheduler('cleanup')).toMatchObject({ every: 3_600_000 });
    expect(await reconcile(2)).toEqual({ upserted: 0, removed: 0 });
    await queue.removeJobScheduler('cleanup');
  });

  it('removes orphans across many scan pages (a set over 128 members, which Redis scans in steps)', async () => {
    const orphans = Array.from({ length: 300 }, (_, i) => ({ ...daily, id: 9_000_000 + i }));
    await upsertTimerSchedulers(stack.deps.timersQueue, orphans);
    expect(await stack.deps.timersQueue.getJobSchedulersCount()).toBeGreaterThan(300);
    expect(await reconcile(20)).toEqual({ upserted: 0, removed: 300 });
    for (const orphan of [orphans[0]!, orphans[299]!]) expect(await scheduler(schedulerId(orphan.id))).toBeUndefined();
  });

  it('a pass over schedulers that are all right takes no lock, so saves never wait for it', async () => {
    await timersOfNewUser(3);
    const release = await holdSchedulersLock(stack.db.sql);
    try {
      expect(await reconcile(1)).toEqual({ upserted: 0, removed: 0 });
    } finally {
      await release();
    }
  });

  it('a timer saved while a pass fixes schedulers waits for one page, not the whole pass, and keeps its scheduler', async () => {
    for (const timer of await timersOfNewUser(5)) await stack.deps.timersQueue.removeJobScheduler(schedulerId(timer.id));
    const { user } = await createSignedInUser(stack.db.sql);

    // With the lock held, the pass's first fix and then the save queue up behind it, in that order.
    const release = await holdSchedulersLock(stack.db.sql);
    const finished: string[] = [];
    const pass = reconcile(1).then((result) => {
      finished.push('pass');
      return result;
    });
    await until('the pass waiting for the lock', async () => (await advisoryLocks(stack.db.sql, false)) === 1);
    const save = createTimer(stack.deps, user.id, daily).then((result) => {
      finished.push('save');
      return result;
    });
    await until('the save waiting behind the pass', async () => (await advisoryLocks(stack.db.sql, false)) === 2);
    await release();

    const [saved, result] = await Promise.all([save, pass]);
    // One lock for the whole pass would let the save in only after the last of its five fixes.
    expect(finished).toEqual(['save', 'pass']);
    expect(result).toEqual({ upserted: 5, removed: 0 });
    if (!saved.ok) throw new Error('timer not created');
    expect(await scheduler(schedulerId(saved.timer.id))).toMatchObject({ pattern: cronPattern(daily) });
  });

  it('one periodic pass per period across workers: the first claim wins until it lapses', async () => {
    const prefix = stack.config.queuePrefix;
    expect(await claimReconcilePass(stack.redis, prefix, 300)).toBe(true);
    expect(await claimReconcilePass(stack.redis, prefix, 300)).toBe(false);
    // The claim lapses before the period ends, so the next period's first tick gets it.
    await until('the claim to lapse', () => claimReconcilePass(stack.redis, prefix, 300));
  });
});
