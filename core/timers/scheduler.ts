import type { Job, Queue } from 'bullmq';
import { RUN_TIMER_JOB, type RunTimerJob, runTimerJobSchema } from '../jobs';
import { cronPattern, type Schedule } from './schedule';
import { TIMER_JOB_OPTS } from './job-policy';

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

/**
 * The timer a timer job (one fire) is for, or null when it names none. A scheduler's fire has empty data: its
 * scheduler id (`repeatJobKey`, `t<id>`) already names the timer, and the data would be stored twice more per
 * timer (the scheduler's hash and its next job's). A job added by hand ("run now", or a fire of a scheduler made
 * before schedulers carried no data) carries `{timerId}`.
 */
export function timerIdOfJob(job: Pick<Job, 'data' | 'repeatJobKey'>): number | null {
  const data = runTimerJobSchema.safeParse(job.data ?? {});
  if (!data.success) return null;
  if (data.data.timerId !== undefined) return data.data.timerId;
  return job.repeatJobKey ? timerIdOfScheduler(job.repeatJobKey) : null;
}

/** Creates or updates the timer's job scheduler. Its jobs carry no data: the scheduler id names the timer. */
export async function upsertTimerScheduler(queue: Queue<RunTimerJob>, timer: Schedule & { id: number }): Promise<void> {
  await queue.upsertJobScheduler(
    schedulerId(timer.id),
    { pattern: cronPattern(timer), tz: timer.timezone },
    { name: RUN_TIMER_JOB, opts: TIMER_JOB_OPTS },
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
