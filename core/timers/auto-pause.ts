import type { Queue } from 'bullmq';
import type { Sql } from '../../db/client';
import { lockSchedulersShared } from '../../db/timers';
import { markTimerPaused } from '../../db/timer-delivery';
import type { RunTimerJob } from '../jobs';
import type { Logger } from '../logger';
import { removeTimerScheduler, withRedisDeadline } from './scheduler';

/** A timer pauses itself after this many failed runs in a row (skipped runs neither count nor break the streak). */
export const AUTO_PAUSE_AFTER_FAILURES = 3;

/** Why a timer paused itself, as Manage Timers shows it after "Paused.". */
export function autoPauseReason(failures: number, lastError: string | null): string {
  const last = lastError ? ` Last error: ${lastError.trim().replace(/([^.!?])$/, '$1.')}` : '';
  return `${failures} runs in a row failed.${last} Check the question and the website, then resume.`;
}

export interface AutoPauseDeps {
  sql: Sql;
  logger: Logger;
  timersQueue: Queue<RunTimerJob>;
}

/**
 * After a run that failed for good, with the timer's failures in a row: at the limit, pauses the timer. True
 * only for the call that paused it, so a duplicate execution does not alert twice.
 */
export async function autoPauseIfFailing(
  deps: AutoPauseDeps,
  timerId: number,
  failures: number,
  lastError: string | null,
): Promise<boolean> {
  if (failures < AUTO_PAUSE_AFTER_FAILURES) return false;
  const paused = await autoPause(deps, timerId, autoPauseReason(failures, lastError));
  if (paused) deps.logger.warn({ timerId, failures }, 'timer paused after failed runs');
  return paused;
}

/**
 * Pauses the timer in Postgres and removes its scheduler. Unlike a pause from the page, a Redis failure does
 * not undo it: the timer stays paused and the worker's reconcile pass removes the scheduler of a paused timer.
 */
async function autoPause(deps: AutoPauseDeps, timerId: number, reason: string): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    await lockSchedulersShared(tx);
    if (!(await markTimerPaused(tx, timerId, reason))) return false;
    await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId)).catch((err: Error) =>
      deps.logger.warn({ timerId, err: err.message }, 'paused timer keeps its scheduler until the next reconcile'),
    );
    return true;
  });
}
