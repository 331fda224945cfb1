import type { JobSchedulerJson, Queue } from 'bullmq';
import { RUN_TIMER_JOB, type RunTimerJob } from '../jobs';
import { cronPattern } from './schedule';
import { schedulerId, timerIdOfScheduler, upsertTimerScheduler } from './scheduler';
import type { RedisClient } from '../redis/client';
import type { Db, Sql } from '../../db/client';
import { activeSchedulesOf, listActiveSchedulesAfter, lockSchedulersExclusive, type ScheduledTimer } from '../../db/timers';

/** Timers (or schedulers) checked per page: what the pass holds in memory, and at most what a fix locks for. */
export const RECONCILE_PAGE = 1000;

export interface ReconcileResult {
  upserted: number;
  removed: number;
}

type OurScheduler = { key: string; timerId: number };

/**
 * Makes Redis match Postgres: every active timer gets its scheduler (with its current pattern and zone),
 * every scheduler without an active timer goes. Redis can therefore lose everything (FLUSHALL, failover)
 * and the next pass restores every timer.
 *
 * It reads a page at a time, without a lock, so memory stays one page at any number of timers and saves go on
 * meanwhile (docs/decisions/timers.md). What looks wrong is checked again under the exclusive schedulers lock before it is
 * fixed: an API save or delete that is between its Redis change and its commit is waited for, never undone.
 */
export async function reconcileSchedulers(
  sql: Sql,
  redis: RedisClient,
  queue: Queue<RunTimerJob>,
  pageSize = RECONCILE_PAGE,
): Promise<ReconcileResult> {
  // Side by side: one arms only active timers, the other removes only what belongs to none.
  const [upserted, removed] = await Promise.all([
    armActiveTimers(sql, queue, pageSize),
    removeOrphanSchedulers(sql, redis, queue, pageSize),
  ]);
  return { upserted, removed };
}

/** Every active timer, in id order, checked against its scheduler; a missing, changed or stopped one is upserted. */
async function armActiveTimers(sql: Sql, queue: Queue<RunTimerJob>, pageSize: number): Promise<number> {
  let upserted = 0;
  let after = 0;
  for (;;) {
    const page = await listActiveSchedulesAfter(sql, after, pageSize);
    const candidates = await unarmed(queue, page);
    if (candidates.length) {
      upserted += await sql.begin(async (tx) => {
        await lockSchedulersExclusive(tx);
        const broken = await unarmed(queue, await activeSchedulesOf(tx, ids(candidates)));
        await Promise.all(broken.map((timer) => upsertTimerScheduler(queue, timer)));
        return broken.length;
      });
    }
    if (page.length < pageSize) return upserted;
    after = page.at(-1)!.id;
  }
}

/**
 * Every scheduler this project made (`t<id>`, or the older `timer-<id>`) whose name is not the current one of
 * an active timer is removed. Redis's SCAN returns every member present for the whole scan; one added meanwhile
 * belongs to a save, which keeps its own scheduler right.
 */
async function removeOrphanSchedulers(sql: Sql, redis: RedisClient, queue: Queue<RunTimerJob>, pageSize: number): Promise<number> {
  let removed = 0;
  let cursor = '0';
  do {
    const [next, flat] = await redis.zscan(queue.keys.repeat!, cursor, 'COUNT', pageSize);
    cursor = next;
    // Members and scores alternate; a scheduler from elsewhere in the queue is left alone.
    const ours = flat
      .filter((_, i) => i % 2 === 0)
      .flatMap((key) => {
        const timerId = timerIdOfScheduler(key);
        return timerId === null ? [] : [{ key, timerId }];
      });
    const candidates = await orphansAmong(sql, ours);
    if (!candidates.length) continue;
    removed += await sql.begin(async (tx) => {
      await lockSchedulersExclusive(tx);
      const orphans = await orphansAmong(tx, candidates);
      // SCAN may name a member twice; only a scheduler that was still there counts.
      const gone = await Promise.all(orphans.map((s) => queue.removeJobScheduler(s.key)));
      return gone.filter(Boolean).length;
    });
  } while (cursor !== '0');
  return removed;
}

const ids = (timers: { id: number }[]) => timers.map((t) => t.id);

/** The timers whose scheduler is missing, changed or stopped. All at once: ioredis pipelines concurrent commands. */
async function unarmed(queue: Queue<RunTimerJob>, timers: ScheduledTimer[]): Promise<ScheduledTimer[]> {
  const fine = await Promise.all(timers.map((timer) => isFine(queue, timer)));
  return timers.filter((_, k) => !fine[k]);
}

/** The schedulers that are not the current one of an active timer. */
async function orphansAmong(db: Db, schedulers: OurScheduler[]): Promise<OurScheduler[]> {
  if (!schedulers.length) return [];
  const active = new Set(ids(await activeSchedulesOf(db, [...new Set(schedulers.map((s) => s.timerId))])));
  return schedulers.filter((s) => !(active.has(s.timerId) && s.key === schedulerId(s.timerId)));
}

const ARMED = new Set(['delayed', 'waiting', 'prioritized', 'waiting-children']);
/** An old-layout scheduler whose next fire is closer than this is left for a later pass. */
const MIGRATE_AHEAD_MS = 60_000;

/**
 * True when the scheduler fires on the timer's schedule and is armed. A scheduler of the older layout
 * (`{timerId}` as data in its hash and in every job, jobs named `run-timer`) is re-created too, but only while its next
 * fire is delayed and not about to fall due: upserting drops a fire that is already due.
 */
async function isFine(queue: Queue<RunTimerJob>, timer: ScheduledTimer): Promise<boolean> {
  const scheduler = await queue.getJobScheduler(schedulerId(timer.id));
  if (!scheduler) return false;
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
