import type { GoogleGenAI } from '@google/genai';
import { claimFire, endRun, noteRunError, type RunEnd } from '../../db/timer-runs';
import { deadline } from '../gemini/deadline';
import { ALLOWANCES } from '../plans';
import type { RedisClient } from '../redis/client';
import type { RunEvent } from '../../db/events';
import { type ChargedSearchOutcome, runChargedSearch } from '../search/charged-search';
import { findSearchEvents } from '../search/find-events';
import type { SearchError } from '../search-error';
import { newOrChanged } from '../delivery/run-deliveries';
import { type AfterRunDeps, type AfterRunInput, afterTimerRun } from './after-run';
import { createSpendGuard } from './spend-guard';
import { workerDeathsError } from './worker-deaths';

export interface TimerRunDeps extends AfterRunDeps {
  gemini: GoogleGenAI;
  /** Shared Redis: the event check's robots.txt cache. */
  redis?: RedisClient;
}

/** One fire of a timer, as the queue hands it over. */
export interface TimerFire {
  timerId: number;
  /** The fire time this run stands for: one run row per timer and fire time, whatever the attempt. */
  scheduledFor: Date;
  /** Asked for by hand ("Run now", a job added in Bull Board): it runs even while the timer is paused. */
  byHand: boolean;
  /** 1 for the first attempt; `lastAttempt` when no retry follows a failure that could pass. */
  attempt: number;
  lastAttempt: boolean;
  signal?: AbortSignal;
  /** The queue's id of the fire, for the logs. */
  jobId?: string;
  /** How many times a worker process ended while running this fire (crash, out of memory, kill -9). */
  workerDeaths?: number;
}

export type TimerRunOutcome =
  | { kind: 'timer-gone' | 'paused' | 'already-done' | 'skipped' | 'succeeded' }
  /** Not run: its workers died running it too often (worker-deaths.ts); the run ended failed with a sentence. */
  | { kind: 'given-up' }
  /** The attempt failed and a later one may do better: the run stays running, its error noted. */
  | { kind: 'retry'; error: SearchError }
  /** Failed for good (a permanent error, or the last attempt): the run ended failed and its credit went back. */
  | { kind: 'failed'; error: SearchError };

const SPEND_GUARD =
  'Timer runs are paused until next month because this service reached its AI budget. No search was used; you can still search by hand.';

/**
 * One timer fire, whatever queue delivers it: claims the fire's run (one row per fire), checks the spend guard,
 * runs the one charged search (core/search/charged-search.ts, which takes and refunds the credit), ends the
 * run, and applies what follows a run (after-run.ts: auto-pause, deliveries). The outcome tells the caller
 * whether to retry; nothing here knows the queue.
 */
export function createTimerRun(deps: TimerRunDeps): (fire: TimerFire) => Promise<TimerRunOutcome> {
  const spendGuard = createSpendGuard({ sql: deps.sql, logger: deps.logger, budgetUsd: deps.config.gemini.monthlyBudgetUsd });
  return async (fire) => {
    // A scheduled fire taken just before the pause removed the scheduler does not run; "Run now" (its own job,
    // its run row already made) is the user's explicit request and runs even while the timer is paused.
    const claim = await claimFire(deps.sql, fire.timerId, fire.scheduledFor, fire.byHand);
    if (claim.kind !== 'claimed') return { kind: claim.kind };
    const { timer, run } = claim;
    if (run.status !== 'running') return { kind: 'already-done' };
    const log = deps.logger.child({ jobId: fire.jobId, timerId: timer.id });
    /**
     * The run's end, one call to Postgres that brings back the timer's failures in a row, its log line once it
     * has ended, then what follows it (after-run.ts) unless `after` is null. Delivery, the pause and notices never
     * fail the run: it has ended, and a retry would not redo them.
     */
    const end = async (
      runEnd: RunEnd,
      logEnded: () => void,
      after: Omit<AfterRunInput, 'timer' | 'runId' | 'consecutiveFailures'> | null,
    ) => {
      const consecutiveFailures = await endRun(deps.sql, { id: run.id, userId: timer.userId, timerId: timer.id }, runEnd, ALLOWANCES);
      logEnded();
      if (!after) return;
      await afterTimerRun(deps, { timer, runId: run.id, ...after, consecutiveFailures: consecutiveFailures ?? 0 }).catch((err: Error) =>
        log.error({ err: err.message }, 'after-run step failed (messages of this run may be missing)'),
      );
    };

    const died = workerDeathsError(fire.workerDeaths ?? 0, timer.web);
    if (died) {
      await end(
        { status: 'failed', error: died.error, cause: died.cause },
        () => log.warn({ workerDeaths: fire.workerDeaths }, 'timer run failed: its workers stopped while running it'),
        { outcome: 'failed', newOrChangedEvents: [], error: died.error },
      );
      return { kind: 'given-up' };
    }

    if (!(await spendGuard.timerRunsAllowed())) {
      await end({ status: 'skipped', error: SPEND_GUARD }, () => log.warn('timer run skipped: the monthly Gemini budget is reached'), null);
      return { kind: 'skipped' };
    }

    const input = { question: timer.ques, website: timer.web, timezone: timer.timezone, filters: timer.filters };
    // One limit for the whole attempt: a whole answer has no pieces to watch for (docs/decisions/gemini-and-cost.md).
    const attempt = deadline(fire.signal, deps.config.worker.runTimeoutMs);
    const timerRun = { id: run.id, timerId: timer.id, checkedOnly: timer.checkedOnly };
    let runEvents: RunEvent[] = [];
    let outcome: ChargedSearchOutcome;
    try {
      outcome = await runChargedSearch(deps, { userId: timer.userId, input, signal: attempt.signal, timerRun });
      if ('unrecorded' in outcome && outcome.unrecorded) log.error({ err: outcome.unrecorded }, 'could not finish search record');
      // The run's events, found within the attempt's limit and recorded against the timer's memory (new / changed).
      if (outcome.kind === 'answered' && !outcome.unrecorded) {
        const found = await findSearchEvents(deps, outcome.searchId, { timerRun, signal: attempt.signal });
        if (found.unrecorded) log.error({ err: found.unrecorded }, 'could not finish search record');
        runEvents = found.runEvents;
      }
    } finally {
      attempt.clear();
    }
    switch (outcome.kind) {
      case 'run_ended':
        return { kind: 'already-done' };
      case 'no_credits':
        // The same sentence as an ask's and Run now's (noCreditsMessage).
        await end({ status: 'skipped', error: outcome.message }, () => {}, {
          outcome: 'skipped-no-searches',
          newOrChangedEvents: [],
          error: outcome.message,
        });
        return { kind: 'skipped' };
      case 'answered': {
        const { answer } = outcome.result;
        // The run's events as recorded against the timer's memory (core/events): only new or changed ones go out.
        await end(
          { status: 'succeeded', answer },
          () => log.info({ scheduledFor: fire.scheduledFor, chars: answer.length }, 'timer run succeeded'),
          { outcome: 'succeeded', newOrChangedEvents: newOrChanged(runEvents) },
        );
        return { kind: 'succeeded' };
      }
      case 'failed': {
        const { error } = outcome;
        if (!error.retryable || fire.lastAttempt) {
          // The run produced nothing: it ends failed, and whatever credit it still holds goes back.
          await end(
            { status: 'failed', error: error.message },
            () => log.warn({ err: error.message, permanent: !error.retryable }, 'timer run failed'),
            { outcome: 'failed', newOrChangedEvents: [], error: error.message },
          );
          return { kind: 'failed', error };
        }
        await noteRunError(deps.sql, run.id, error.message);
        log.warn({ err: error.message, attempt: fire.attempt }, 'timer run failed, will retry');
        return { kind: 'retry', error };
      }
    }
  };
}
