import type { Job, JobsOptions, Queue } from 'bullmq';
import { RUN_TIMER_JOB, type RunTimerJob } from '../../core/jobs';
import { TIMER_JOB_OPTS } from '../../core/timers/job-policy';
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

export type RunTimerProcessor = ReturnType<typeof createRunTimerProcessor>;

export interface ScheduledFireOptions {
  /** The fire time (epoch ms); a minute ago unless given. */
  at?: number;
  /** The job's attempts, which decide whether a failure is the run's last; a timer job's own unless given. */
  attempts?: number;
  /** Attempts BullMQ already made of the job: 0 (the first) unless given. */
  attemptsMade?: number;
  /** How often BullMQ took the job back from a worker that stopped while running it: 0 unless given. */
  stalledCounter?: number;
  /** The processor to run it with, for a test whose worker has deps of its own (e.g. another config). */
  processor?: RunTimerProcessor;
}

/**
 * The job id of a scheduler's fire at `at`: BullMQ's own, and what tells the run a scheduled fire from one asked
 * for by hand (worker/jobs/run-timer.ts).
 */
function scheduledFireId(timerId: number, at: number): string {
  return `repeat:${schedulerId(timerId)}:${at}`;
}

/**
 * A scheduled fire of the timer through the worker's run processor, built as the timers worker builds it, with
 * the job as BullMQ hands it over; its deliveries are queued on the stack's deliveries queue, not sent.
 */
export function fireScheduled(stack: TestStack, timerId: number, options: ScheduledFireOptions = {}) {
  const at = options.at ?? Date.now() - 60_000;
  const processJob =
    options.processor ??
    createRunTimerProcessor({
      sql: stack.db.sql,
      gemini: stack.deps.gemini,
      config: stack.config,
      logger: stack.deps.logger,
      timersQueue: stack.deps.timersQueue,
      deliveriesQueue: stack.deliveriesQueue,
      redis: stack.redis,
    });
  const job = {
    id: scheduledFireId(timerId, at),
    data: { timerId },
    opts: { ...TIMER_JOB_OPTS, attempts: options.attempts ?? TIMER_JOB_OPTS.attempts, prevMillis: at },
    attemptsMade: options.attemptsMade ?? 0,
    stalledCounter: options.stalledCounter ?? 0,
    timestamp: at,
  };
  return processJob(job as unknown as Job<RunTimerJob>);
}

/**
 * Adds the timer's fire at `at` to the real queue under the id and fire time its job scheduler gives it, with a
 * timer job's options unless `opts` changes them. It carries `{timerId}`: a scheduler's own job names the timer by
 * its `repeatJobKey` instead, which on a job added here would have the worker arm that scheduler's next fire.
 */
export function enqueueScheduledFire(
  queue: Queue<RunTimerJob>,
  timerId: number,
  at: number,
  opts: Pick<JobsOptions, 'attempts' | 'backoff'> = {},
): Promise<Job<RunTimerJob>> {
  return queue.add(RUN_TIMER_JOB, { timerId }, { ...TIMER_JOB_OPTS, ...opts, jobId: scheduledFireId(timerId, at), prevMillis: at });
}
