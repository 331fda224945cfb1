import type { Queue } from 'bullmq';
import type { Sql } from '../../db/client';
import { countActiveTimers, insertTimers, lockSchedulersShared, lockUserTimers, markTimerDeleted, type Timer } from '../../db/timers';
import type { RunTimerJob } from '../jobs';
import { MAX_TIMERS_PER_USER, type TimerInput } from './input';
import { removeTimerScheduler, upsertTimerSchedulers, withRedisDeadline } from './scheduler';

/**
 * Creating and deleting timers keeps Postgres (the source of truth) and the Redis job schedulers in step:
 * the Redis change happens inside the Postgres transaction, so a Redis failure rolls the row back and no
 * half-made timer remains. A commit failing after the Redis change is healed by the worker's reconcile pass.
 */
export interface TimerDeps {
  sql: Sql;
  timersQueue: Queue<RunTimerJob>;
}

export type CreateResult = { ok: true; timer: Timer } | { ok: false; reason: 'limit' };

export async function createTimer(deps: TimerDeps, userId: number, input: TimerInput): Promise<CreateResult> {
  const result = await createTimers(deps, userId, [input]);
  return result.ok ? { ok: true, timer: result.timers[0]! } : { ok: false, reason: 'limit' };
}

/** `room`: how many more timers the user may have (0 when at the limit). */
export type CreateManyResult = { ok: true; timers: Timer[] } | { ok: false; reason: 'limit'; room: number };

/**
 * Creates several timers of one user together (an import, or a person saving many): one transaction, one
 * multi-row insert, the schedulers upserted in one pipeline. All or none: when they would take the user past
 * MAX_TIMERS_PER_USER, nothing is created. Same rules as one timer: the user's lock serialises the count, the
 * shared schedulers lock keeps reconcile out until commit, and a Redis failure rolls every row back.
 */
export async function createTimers(deps: TimerDeps, userId: number, inputs: TimerInput[]): Promise<CreateManyResult> {
  if (!inputs.length) return { ok: true, timers: [] };
  return deps.sql.begin(async (tx) => {
    await lockUserTimers(tx, userId);
    const room = Math.max(0, MAX_TIMERS_PER_USER - (await countActiveTimers(tx, userId)));
    if (inputs.length > room) return { ok: false, reason: 'limit', room } as const;
    await lockSchedulersShared(tx);
    const timers = await insertTimers(tx, userId, inputs);
    try {
      await withRedisDeadline(() => upsertTimerSchedulers(deps.timersQueue, timers));
    } catch (err) {
      // Some of the batch may have reached Redis. Their rows roll back, so remove them now where Redis answers;
      // what it does not is removed by the worker's next reconcile pass (a scheduler without an active timer).
      await withRedisDeadline(() => Promise.all(timers.map((t) => removeTimerScheduler(deps.timersQueue, t.id)))).catch(() => {});
      throw err;
    }
    return { ok: true, timers } as const;
  });
}

/** Deletes the user's own timer; false (and nothing changed) for an unknown or someone else's timer. */
export async function deleteTimer(deps: TimerDeps, userId: number, timerId: number): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    await lockSchedulersShared(tx);
    if (!(await markTimerDeleted(tx, userId, timerId))) return false;
    await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId));
    return true;
  });
}
