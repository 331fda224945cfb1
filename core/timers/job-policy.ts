import { defaultRepeatStrategy, type KeepJobs, type RepeatOptions } from 'bullmq';
import { SearchError } from '../search-error';
import { nextFireAfter } from './schedule';

/**
 * What every timer job shares: its retries, its repeat computation and how long BullMQ keeps it once finished.
 * Only what BullMQ must read from the job itself is stored in it (TIMER_JOB_OPTS); the rest are options of the
 * queue and the worker, because each scheduler's next job keeps its options in Redis, once per timer.
 */

/** Retries of one fire: transient upstream errors back off exponentially (30 s, 60 s, 120 s, ...). */
export const RUN_ATTEMPTS = 4;
export const RUN_BACKOFF_MS = 30_000;

/**
 * The backoff type a timer's jobs carry. Its delays live in the worker (`timerBackoffStrategy`), not in every
 * job: each scheduler's next job stores its options in Redis, so a million timers would store a million copies
 * of `{"delay":30000,"type":"exponential"}`.
 */
export const TIMER_BACKOFF = 'timer';

/** Finished jobs are kept briefly for Bull Board; the run history lives in Postgres. Worker options, not per job. */
export const KEEP_COMPLETED: KeepJobs = { age: 7 * 24 * 3600, count: 1000 };
export const KEEP_FAILED: KeepJobs = { age: 30 * 24 * 3600, count: 5000 };

/**
 * The worker's backoff for TIMER_BACKOFF: the same delays BullMQ's built-in `exponential` gives with
 * RUN_BACKOFF_MS (2^(attempt-1) × 30 s), or longer when Gemini's 429 asked for a longer wait (its retryDelay,
 * carried by the SearchError the run threw): a retry before that wait is refused again. Other types are
 * BullMQ's own and never reach this function.
 */
export function timerBackoffStrategy(attemptsMade: number, type?: string, err?: Error): number {
  if (type !== TIMER_BACKOFF) throw new Error(`Unknown backoff type ${type}; timer jobs use '${TIMER_BACKOFF}'.`);
  const exponential = Math.round(2 ** (attemptsMade - 1) * RUN_BACKOFF_MS);
  const asked = err instanceof SearchError && err.retryAfterSeconds !== null ? err.retryAfterSeconds * 1000 : 0;
  return Math.max(exponential, asked);
}

/**
 * BullMQ's repeat strategy is cron-parser with a time zone, about a millisecond a call; creating many timers
 * (and arming each next fire) pays it once per scheduler. Pattern-and-zone schedules, which are all this
 * project makes, go through core/schedule's exact memo instead; anything else falls back to cron-parser itself.
 */
export function timerRepeatStrategy(millis: number, opts: RepeatOptions): number | undefined {
  const { pattern, tz } = opts;
  if (!pattern || !tz || opts.every || opts.startDate || opts.endDate || opts.immediately) {
    return defaultRepeatStrategy(millis, opts);
  }
  return nextFireAfter(pattern, tz, millis);
}

/**
 * The options every fire of a timer carries. Only what BullMQ reads from the job itself: `attempts` (its
 * retry decision, and the run's own "last attempt?" check) and the backoff type. Kept small so that the
 * scheduler's hash stays in Redis's compact encoding (values up to 64 bytes).
 */
export const TIMER_JOB_OPTS = { attempts: RUN_ATTEMPTS, backoff: { type: TIMER_BACKOFF } };
