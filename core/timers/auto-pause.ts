import type { Queue } from 'bullmq';
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

/** After a run that failed for good, with the timer's failures in a row: the pause's reason at the limit, else null. */
export function autoPauseAfter(failures: number, lastError: string | null): string | null {
  return failures < AUTO_PAUSE_AFTER_FAILURES ? null : autoPauseReason(failures, lastError);
}

export interface AutoPauseDeps {
  logger: Logger;
  timersQueue: Queue<RunTimerJob>;
}

/**
 * Removes the scheduler of a timer that paused itself, inside the transaction that paused it (db/after-run.ts).
 * Unlike a pause from the page, a Redis failure does not undo the pause: the timer stays paused and the worker's
 * reconcile pass removes the scheduler of a paused timer.
 */
export async function removePausedScheduler(deps: AutoPauseDeps, timerId: number): Promise<void> {
  await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId)).catch((err: Error) =>
    deps.logger.warn({ timerId, err: err.message }, 'paused timer keeps its scheduler until the next reconcile'),
  );
}
