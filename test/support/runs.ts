import type { Job } from 'bullmq';
import { schedulerId } from '../../core/timers/scheduler';
import type { Sql } from '../../db/client';
import { claimFire } from '../../db/timer-runs';
import type { TestStack } from '../../dev/harness/stack';
import { createRunTimerProcessor } from '../../worker/jobs/run-timer';

/** The run of a timer's fire at `at`, claimed as the worker claims it; throws when the timer cannot be claimed. */
export async function claimedRun(sql: Sql, timerId: number, at: Date): Promise<{ id: number }> {
  const claim = await claimFire(sql, timerId, at, false);
  if (claim.kind !== 'claimed') throw new Error(`timer ${timerId} not claimed: ${claim.kind}`);
  return claim.run;
}

/**
 * A scheduled fire of the timer at `at` (a minute ago unless given) through the worker's run processor, as BullMQ
 * hands it over; its deliveries are queued on the stack's deliveries queue, not sent.
 */
export function fireScheduled(stack: TestStack, timerId: number, at = Date.now() - 60_000) {
  const processJob = createRunTimerProcessor({
    sql: stack.db.sql,
    gemini: stack.deps.gemini,
    config: stack.config,
    logger: stack.deps.logger,
    timersQueue: stack.deps.timersQueue,
    deliveriesQueue: stack.deliveriesQueue,
  });
  const job = {
    id: `repeat:${schedulerId(timerId)}:${at}`,
    data: { timerId },
    opts: { prevMillis: at, attempts: 4 },
    attemptsMade: 0,
    timestamp: at,
  };
  return processJob(job as unknown as Job<{ timerId: number }>);
}
