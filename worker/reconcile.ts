import type { JobSchedulerJson, Queue } from 'bullmq';
import { RUN_TIMER_JOB, type RunTimerJob } from '../core/jobs';
import { cronPattern, type Schedule } from '../core/schedule';
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
          return Boolean(current && (await isFine(queue, current, timer)));
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

const ARMED = new Set(['delayed', 'waiting', 'prioritized', 'waiting-children']);
/** An old-layout scheduler whose next fire is closer than this is left for a later pass. */
const MIGRATE_AHEAD_MS = 60_000;

/**
 * True when the scheduler fires on the timer's schedule and is armed. A scheduler of the layout before
 * decision 023 (`{timerId}` as data in its hash and in every job, jobs named `run-timer`) is re-created too, but only while its next
 * fire is delayed and not about to fall due: upserting drops a fire that is already due.
 */
async function isFine(queue: Queue<RunTimerJob>, scheduler: JobSchedulerJson<RunTimerJob>, timer: Schedule): Promise<boolean> {
  if (scheduler.pattern !== cronPattern(timer) || scheduler.tz !== timer.timezone) return false;
  const state = await nextFireState(queue, scheduler);
  if (!ARMED.has(state)) return false;
  const oldLayout = scheduler.template?.data !== undefined || scheduler.name !== RUN_TIMER_JOB;
  return !(oldLayout && state === 'delayed' && scheduler.next! > Date.now() + MIGRATE_AHEAD_MS);
}

/**
 * The state of the job of the scheduler's next fire. BullMQ arms the next fire when a worker takes the current
 * one; when that next time cannot be computed it arms nothing, and the scheduler stops with `next` still
 * naming the fire already taken. Armed means waiting to run. (Not pending, the job may be active: upserting is
 * then safe, the worker's own re-arm sees a newer scheduler and adds nothing. A pending job must not be
 * upserted: that would drop a due fire.)
 */
async function nextFireState(queue: Queue<RunTimerJob>, scheduler: JobSchedulerJson<RunTimerJob>): Promise<string> {
  if (!scheduler.next) return 'unknown';
  return queue.getJobState(`repeat:${scheduler.key}:${scheduler.next}`);
}
