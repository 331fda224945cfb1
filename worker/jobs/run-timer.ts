import type { GoogleGenAI } from '@google/genai';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Config } from '../../core/config';
import { afterTimerRun, type AfterRunInput, newOrChanged } from '../../core/delivery/after-run';
import type { DeliverJob, RunTimerJob } from '../../core/jobs';
import type { Logger } from '../../core/logger';
import type { RedisClient } from '../../core/redis/client';
import { runChargedSearch } from '../../core/search/charged-search';
import { deadline } from '../../core/gemini/deadline';
import { timerIdOfJob } from '../../core/timers/scheduler';
import { createSpendGuard } from '../../core/timers/spend-guard';
import type { Queue } from 'bullmq';
import type { Sql } from '../../db/client';
import { claimFire, failRun, finishRun, noteRunError, succeedRun } from '../../db/timer-runs';
import { ALLOWANCES } from '../../core/plans';

export interface RunTimerDeps {
  sql: Sql;
  gemini: GoogleGenAI;
  config: Config;
  logger: Logger;
  /** For what follows a run (core/delivery/after-run.ts): auto-pause removes the scheduler, messages are enqueued. */
  timersQueue: Queue<RunTimerJob>;
  deliveriesQueue: Queue<DeliverJob>;
  /** Shared Redis: the event check's robots.txt cache. */
  redis?: RedisClient;
}

export type RunTimerOutcome = 'timer-gone' | 'paused' | 'already-done' | 'skipped' | 'succeeded';

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

const NO_CREDITS = (tier: string) =>
  `No searches left this month on the ${tier} plan, so this run was skipped. Choose a bigger plan or wait for next month.`;

const SPEND_GUARD =
  'Timer runs are paused until next month because this service reached its AI budget. No search was used; you can still search by hand.';

/**
 * Processes one `run-timer` job: the timer-run record and BullMQ's retry policy around the one charged search
 * (core/search/charged-search.ts). One run row per fire; transient failures are retried, permanent ones not.
 */
export function createRunTimerProcessor(deps: RunTimerDeps) {
  const spendGuard = createSpendGuard({ sql: deps.sql, logger: deps.logger, budgetUsd: deps.config.gemini.monthlyBudgetUsd });
  return async (job: Job<RunTimerJob>, _token?: string, signal?: AbortSignal): Promise<RunTimerOutcome> => {
    const timerId = timerIdOfJob(job);
    if (timerId === null)
      throw new UnrecoverableError(`Job names no timer: data ${JSON.stringify(job.data)}, scheduler ${job.repeatJobKey}`);
    const scheduledFor = scheduledTimeOf(job);
    // A scheduled fire taken just before the pause removed the scheduler does not run; "Run now" (its own job,
    // its run row already made) is the user's explicit request and runs even while the timer is paused.
    const claim = await claimFire(deps.sql, timerId, scheduledFor, !job.id?.startsWith('repeat:'));
    if (claim.kind !== 'claimed') return claim.kind;
    const { timer, run } = claim;
    if (run.status !== 'running') return 'already-done';
    const log = deps.logger.child({ jobId: job.id, timerId: timer.id });
    // Delivery, failure counting and notices never fail the run: it has ended, and a retry would not redo them.
    type RunEnd = Omit<AfterRunInput, 'timer' | 'runId'>;
    const after = async (end: RunEnd) => {
      try {
        await afterTimerRun(deps, { timer, runId: run.id, ...end });
      } catch (err) {
        log.error({ err: (err as Error).message }, 'after-run step failed (messages of this run may be missing)');
      }
    };

    if (!(await spendGuard.timerRunsAllowed())) {
      await finishRun(deps.sql, run.id, { status: 'skipped', error: SPEND_GUARD });
      log.warn('timer run skipped: the monthly Gemini budget is reached');
      return 'skipped';
    }

    const input = { question: timer.ques, website: timer.web, timezone: timer.timezone, filters: timer.filters };
    // One limit for the whole attempt: a whole answer has no pieces to watch for (decision 032).
    const attempt = deadline(signal, deps.config.worker.runTimeoutMs);
    const outcome = await runChargedSearch(deps, {
      userId: timer.userId,
      input,
      signal: attempt.signal,
      timerRun: { id: run.id, timerId: timer.id, checkedOnly: timer.checkedOnly },
    }).finally(attempt.clear);
    if ('unrecorded' in outcome && outcome.unrecorded) log.error({ err: outcome.unrecorded }, 'could not finish search record');
    switch (outcome.kind) {
      case 'run_ended':
        return 'already-done';
      case 'no_credits':
        await finishRun(deps.sql, run.id, { status: 'skipped', error: NO_CREDITS(outcome.billing.tier) });
        await after({ outcome: 'skipped-no-searches', newOrChangedEvents: [], error: NO_CREDITS(outcome.billing.tier) });
        return 'skipped';
      case 'answered': {
        const failuresInARow = await succeedRun(deps.sql, { id: run.id, userId: timer.userId }, outcome.result.answer, ALLOWANCES);
        log.info({ scheduledFor, chars: outcome.result.answer.length }, 'timer run succeeded');
        // The run's events as recorded against the timer's memory (core/events): only new or changed ones go out.
        await after({
          outcome: 'succeeded',
          newOrChangedEvents: newOrChanged(outcome.runEvents),
          ...(failuresInARow === null ? {} : { consecutiveFailures: failuresInARow }),
        });
        return 'succeeded';
      }
      case 'failed': {
        const { error } = outcome;
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (!error.retryable || lastAttempt) {
          // The run produced nothing: it ends failed, and whatever credit it still holds goes back.
          await failRun(deps.sql, { id: run.id, userId: timer.userId }, error.message);
          log.warn({ err: error.message, permanent: !error.retryable }, 'timer run failed');
          await after({ outcome: 'failed', newOrChangedEvents: [], error: error.message });
          throw error.retryable ? error : new UnrecoverableError(error.message);
        }
        await noteRunError(deps.sql, run.id, error.message);
        log.warn({ err: error.message, attempt: job.attemptsMade + 1 }, 'timer run failed, will retry');
        throw error;
      }
    }
  };
}
