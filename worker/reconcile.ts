import type { JobSchedulerJson, Queue } from 'bullmq';
import type { RunTimerJob } from '../core/jobs';
import { cronPattern } from '../core/schedule';
import { schedulerId, timerIdOfScheduler, upsertTimerScheduler } from '../core/timer-scheduler';
import type { Sql } from '../db/client';
import { listAllActiveTimers, lockSchedulersExclusive } from '../db/timers';

const CHECK_BATCH = 500;

export interface ReconcileResult {
  upserted: number;
  removed: number;
}

/**
 * Makes Redis match Postgres: every active timer gets its scheduler (with its current pattern and zone),
 * every scheduler without an active timer goes. Redis can therefore lose everything (FLUSHALL, failover)
 * and the next pass restores every timer. Runs under the exclusive schedulers lock, so an API create or
 * delete that is between its Redis change and its commit is waited for, never undone.
 */
export async function reconcileSchedulers(sql: Sql, queue: Queue<RunTimerJob>): Promise<ReconcileResult> {
  return sql.begin(async (tx) => {
    await lockSchedulersExclusive(tx);
    const timers = await listAllActiveTimers(tx);
    const existing = new Map((await queue.getJobSchedulers()).map((s) => [s.key, s]));
    let upserted = 0;
    let removed = 0;
    // Checked many at a time: ioredis pipelines concurrent commands, and the API waits on this lock.
    for (let i = 0; i < timers.length; i += CHECK_BATCH) {
      const batch = timers.slice(i, i + CHECK_BATCH);
      const fine = await Promise.all(
        batch.map(async (timer) => {
          const current = existing.get(schedulerId(timer.id));
          existing.delete(schedulerId(timer.id));
          return Boolean(
            current && current.pattern === cronPattern(timer) && current.tz === timer.timezone && (await isArmed(queue, current)),
          );
        }),
      );
      for (const [k, timer] of batch.entries()) {
        if (fine[k]) continue;
        await upsertTimerScheduler(queue, timer);
        upserted++;
      }
    }
    for (const key of existing.keys()) {
      // Only schedulers this project made (timer-<id>); anything else in the queue is left alone.
      if (timerIdOfScheduler(key) === null) continue;
      await queue.removeJobScheduler(key);
      removed++;
    }
    return { upserted, removed };
  });
}

/**
 * True while the job of the scheduler's next fire is waiting to run. BullMQ arms the next fire when a worker
 * takes the current one; when that next time cannot be computed it arms nothing, and the scheduler stops with
 * `next` still naming the fire already taken. (Not pending, the job may be active: upserting is then safe, the
 * worker's own re-arm sees a newer scheduler and adds nothing. A pending job must not be upserted: that would
 * drop a due fire.)
 */
async function isArmed(queue: Queue<RunTimerJob>, scheduler: JobSchedulerJson<RunTimerJob>): Promise<boolean> {
  if (!scheduler.next) return false;
  const state = await queue.getJobState(`repeat:${scheduler.key}:${scheduler.next}`);
  return state === 'delayed' || state === 'waiting' || state === 'prioritized' || state === 'waiting-children';
}
