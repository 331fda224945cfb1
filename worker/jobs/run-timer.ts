import { type Job, UnrecoverableError } from 'bullmq';
import type { RunTimerJob } from '../../core/jobs';
import { timerIdOfJob } from '../../core/timers/scheduler';
import { createTimerRun, type TimerRunDeps } from '../../core/timers/run';

export type RunTimerDeps = TimerRunDeps;

export type RunTimerOutcome = 'timer-gone' | 'paused' | 'already-done' | 'skipped' | 'succeeded' | 'failed';

/**
 * The fire time a job stands for. A scheduler iteration carries it as `opts.prevMillis` and in its id
 * (`repeat:<schedulerId>:<millis>`); both survive retries and stalled-job redelivery, unlike the start time.
 */
export function scheduledTimeOf(job: Pick<Job, 'id' | 'opts' | 'timestamp'>): Date {
  if (typeof job.opts.prevMillis === 'number' && job.opts.prevMillis > 0) return new Date(job.opts.prevMillis);
  const fromId = /:(\d+)$/.exec(job.id ?? '');
  if (fromId) return new Date(Number(fromId[1]));
  // A job added by hand (e.g. "run now" from Bull Board): its creation time is its one fire.
  return new Date(job.timestamp);
}

/**
 * Processes one `run-timer` job: reads the fire out of the job, runs it (core/timers/run.ts), and turns the
 * outcome into BullMQ's terms: a retryable failure is thrown for another attempt, a permanent one as
 * UnrecoverableError.
 */
export function createRunTimerProcessor(deps: RunTimerDeps) {
  const runTimer = createTimerRun(deps);
  return async (job: Job<RunTimerJob>, _token?: string, signal?: AbortSignal): Promise<RunTimerOutcome> => {
    const timerId = timerIdOfJob(job);
    if (timerId === null)
      throw new UnrecoverableError(`Job names no timer: data ${JSON.stringify(job.data)}, scheduler ${job.repeatJobKey}`);
    const attempt = job.attemptsMade + 1;
    const outcome = await runTimer({
      timerId,
      scheduledFor: scheduledTimeOf(job),
      byHand: !job.id?.startsWith('repeat:'),
      attempt,
      lastAttempt: attempt >= (job.opts.attempts ?? 1),
      signal,
      jobId: job.id,
      // BullMQ counts a job it took back from a worker that stopped while running it (its lock lapsed).
      workerDeaths: job.stalledCounter ?? 0,
    });
    if (outcome.kind === 'retry') throw outcome.error;
    if (outcome.kind === 'failed') throw outcome.error.retryable ? outcome.error : new UnrecoverableError(outcome.error.message);
    // Ended failed without being run: returning (not throwing) keeps BullMQ from trying it again.
    if (outcome.kind === 'given-up') return 'failed';
    return outcome.kind;
  };
}
