import type { Queue } from 'bullmq';
import { RUN_TIMER_JOB, type RunTimerJob } from './jobs';
import { cronPattern, type Schedule } from './schedule';
import { TIMER_JOB_OPTS } from './timer-job-policy';

/** A Redis call of the API must not hang a request while Redis is away (the queue connection retries forever). */
export const REDIS_TIMEOUT_MS = 3_000;

/** Raised when Redis could not be reached in time; the API answers 503. */
export class SchedulerUnavailableError extends Error {
  override name = 'SchedulerUnavailableError';
}

/**
 * Stable per timer and colon-free (BullMQ uses colons in its own keys and iteration ids). Short, because it
 * is written about eight times per timer in Redis (keys, set members, the next job's id and options).
 */
export function schedulerId(timerId: number): string {
  return `t${timerId}`;
}

/**
 * The timer id of a scheduler id, or null for a scheduler this project did not make. `timer-<id>` is the
 * older name: reconcile sees such a scheduler as belonging to no current id and replaces it by `t<id>`.
 */
export function timerIdOfScheduler(id: string): number | null {
  const m = /^(?:t|timer-)(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** Creates or updates the timer's job scheduler; job data stays the timer id alone. */
export async function upsertTimerScheduler(queue: Queue<RunTimerJob>, timer: Schedule & { id: number }): Promise<void> {
  await queue.upsertJobScheduler(
    schedulerId(timer.id),
    { pattern: cronPattern(timer), tz: timer.timezone },
    { name: RUN_TIMER_JOB, data: { timerId: timer.id }, opts: TIMER_JOB_OPTS },
  );
}

/**
 * Upserts many timers' schedulers at once. The calls go out together, so ioredis writes them back to back on
 * one connection (a pipeline) and Redis runs the scripts without a round trip between them.
 */
export async function upsertTimerSchedulers(queue: Queue<RunTimerJob>, timers: (Schedule & { id: number })[]): Promise<void> {
  await Promise.all(timers.map((timer) => upsertTimerScheduler(queue, timer)));
}

export async function removeTimerScheduler(queue: Queue<RunTimerJob>, timerId: number): Promise<void> {
  await queue.removeJobScheduler(schedulerId(timerId));
}

/** Runs a Redis operation with a deadline, turning a hang or an error into SchedulerUnavailableError. */
export async function withRedisDeadline<T>(op: () => Promise<T>, ms = REDIS_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SchedulerUnavailableError(`Redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([op(), deadline]);
  } catch (err) {
    if (err instanceof SchedulerUnavailableError) throw err;
    throw new SchedulerUnavailableError((err as Error).message);
  } finally {
    clearTimeout(timer);
  }
}
