import type { Queue } from 'bullmq';
import type { Sql } from '../db/client';
import { countActiveTimers, insertTimer, lockSchedulersShared, lockUserTimers, markTimerDeleted, type Timer } from '../db/timers';
import type { RunTimerJob } from './jobs';
import { MAX_TIMERS_PER_USER, type TimerInput } from './timer-input';
import { removeTimerScheduler, upsertTimerScheduler, withRedisDeadline } from './timer-scheduler';

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
  return deps.sql.begin(async (tx) => {
    await lockUserTimers(tx, userId);
    if ((await countActiveTimers(tx, userId)) >= MAX_TIMERS_PER_USER) return { ok: false, reason: 'limit' } as const;
    await lockSchedulersShared(tx);
    const timer = await insertTimer(tx, userId, input);
    await withRedisDeadline(() => upsertTimerScheduler(deps.timersQueue, timer));
    return { ok: true, timer } as const;
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
