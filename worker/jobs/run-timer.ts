import type { GoogleGenAI } from '@google/genai';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Config } from '../../core/config';
import { runTimerJobSchema, type RunTimerJob } from '../../core/jobs';
import type { Logger } from '../../core/logger';
import { runSearch } from '../../core/search/index';
import { takeCredit } from '../../db/accounts';
import type { Sql } from '../../db/client';
import { claimRun, failRun, finishRun, markAttempt, markCreditTaken, noteRunError } from '../../db/timer-runs';
import { finishSearchRecord, startSearchRecord } from '../../db/searches';
import { getTimer, type Timer } from '../../db/timers';

export type SearchFn = typeof runSearch;

export interface RunTimerDeps {
  sql: Sql;
  gemini: GoogleGenAI;
  config: Config;
  logger: Logger;
  /** The search pipeline; core/search's runSearch unless a caller wraps it. */
  search?: SearchFn;
}

export type RunTimerOutcome = 'timer-gone' | 'already-done' | 'skipped' | 'succeeded';

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

/** Permanent failures (bad input, refused website, no answer possible) are not retried. */
function isPermanent(err: unknown): boolean {
  if (err instanceof UnrecoverableError) return true;
  return typeof err === 'object' && err !== null && (err as { retryable?: unknown }).retryable === false;
}

const NO_CREDITS = (tier: string) =>
  `No searches left this month on the ${tier} plan, so this run was skipped. Choose a bigger plan or wait for next month.`;

/** Processes one `run-timer` job: one run row per fire, one credit per run, retried on transient errors. */
export function createRunTimerProcessor(deps: RunTimerDeps) {
  const search = deps.search ?? runSearch;

  return async (job: Job<RunTimerJob>, _token?: string, signal?: AbortSignal): Promise<RunTimerOutcome> => {
    const data = runTimerJobSchema.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`Job data is not {timerId}: ${JSON.stringify(job.data)}`);
    const timer = await getTimer(deps.sql, data.data.timerId);
    if (!timer || timer.deletedAt) return 'timer-gone';
    const log = deps.logger.child({ jobId: job.id, timerId: timer.id });
    const scheduledFor = scheduledTimeOf(job);

    const start = await deps.sql.begin(async (t) => {
      const tx = t as unknown as Sql; // postgres.js types a transaction apart; it runs the same queries
      const run = await claimRun(tx, timer.id, scheduledFor);
      if (run.status !== 'running') return { done: true as const, runId: run.id };
      if (run.creditTaken) {
        await markAttempt(tx, run.id);
        return { done: false as const, runId: run.id };
      }
      const credit = await takeCredit(tx, timer.userId);
      if (!credit.ok) {
        await finishRun(tx, run.id, { status: 'skipped', error: NO_CREDITS(credit.billing.tier) });
        return { done: true as const, runId: run.id, skipped: true };
      }
      await markCreditTaken(tx, run.id, credit.billing.usageEpoch);
      return { done: false as const, runId: run.id };
    });
    if (start.done) return 'skipped' in start ? 'skipped' : 'already-done';

    // Every search is recorded, interactive or not, for support and usage accounting.
    const record = await startSearchRecord(deps.sql, {
      userId: timer.userId,
      question: timer.ques,
      website: timer.web,
      model: deps.config.gemini.model,
      timerRunId: start.runId,
    });
    try {
      const result = await search(deps, questionOf(timer), signal);
      await finishRun(deps.sql, start.runId, { status: 'succeeded', answer: result.answer });
      await finishSearchRecord(deps.sql, record, {
        status: 'answered',
        answerChars: result.answer.length,
        promptTokens: result.promptTokens,
        outputTokens: result.outputTokens,
      });
      log.info({ scheduledFor, chars: result.answer.length }, 'timer run succeeded');
      return 'succeeded';
    } catch (err) {
      const message = (err as Error).message || String(err);
      await finishSearchRecord(deps.sql, record, { status: 'failed', error: message });
      const permanent = isPermanent(err);
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (permanent || lastAttempt) {
        // The search produced nothing: the run ends failed and its credit goes back to the user.
        await failRun(deps.sql, { id: start.runId, userId: timer.userId }, message);
        log.warn({ err: message, permanent }, 'timer run failed');
        if (permanent && !(err instanceof UnrecoverableError)) throw new UnrecoverableError(message);
        throw err;
      }
      await noteRunError(deps.sql, start.runId, message);
      log.warn({ err: message, attempt: job.attemptsMade + 1 }, 'timer run failed, will retry');
      throw err;
    }
  };
}

function questionOf(timer: Timer) {
  return { question: timer.ques, website: timer.web, timezone: timer.timezone };
}
