import { ALLOWANCES } from '../plans';
import type { Queue } from 'bullmq';
import { creditLikelyLeft, getBilling } from '../../db/accounts';
import type { Sql, Tx } from '../../db/client';
import { claimRun, deleteUnqueuedRun } from '../../db/timer-runs';
import { RUN_TIMER_JOB, type RunTimerJob } from '../jobs';
import { noCreditsMessage } from '../search/charged-search';
import { TIMER_JOB_OPTS } from './job-policy';
import { SchedulerUnavailableError, withRedisDeadline } from './scheduler';

export type RunNowResult =
  | { kind: 'queued'; runId: number }
  | { kind: 'not_found' }
  | { kind: 'busy' }
  /** The allowance is used up: nothing was queued, so no website was fetched for it. */
  | { kind: 'no_credits'; message: string };

/**
 * "Run now": a fire of the timer at this moment, through the same path as a scheduled one. Postgres decides
 * (under a per-timer lock, so two clicks on two api processes cannot both pass) that no run of the timer is
 * in flight and creates the run row; the job then carries the fire time in its id, exactly as a scheduler
 * iteration does, so the worker's run-timer processor claims that same row.
 */
export async function runTimerNow(
  deps: { sql: Sql; timersQueue: Queue<RunTimerJob> },
  userId: number,
  timerId: number,
): Promise<RunNowResult> {
  // A run without a credit would still fetch the website before its credit is refused: say so now instead.
  if (!(await creditLikelyLeft(deps.sql, userId, ALLOWANCES))) {
    const billing = await getBilling(deps.sql, userId, ALLOWANCES);
    if (billing) return { kind: 'no_credits', message: noCreditsMessage(billing) };
  }
  const scheduledFor = new Date();
  const claimed = await deps.sql.begin(async (tx: Tx): Promise<RunNowResult> => {
    await tx`select pg_advisory_xact_lock(hashtext('timer-run-now'), ${timerId}::int)`;
    const [timer] = await tx`select 1 from timers where id = ${timerId} and user_id = ${userId} and deleted_at is null`;
    if (!timer) return { kind: 'not_found' };
    const [running] = await tx`select 1 from timer_runs where timer_id = ${timerId} and status = 'running' limit 1`;
    if (running) return { kind: 'busy' };
    const run = await claimRun(tx, timerId, scheduledFor);
    return { kind: 'queued', runId: run.id };
  });
  if (claimed.kind !== 'queued') return claimed;
  try {
    await withRedisDeadline(() =>
      deps.timersQueue.add(
        RUN_TIMER_JOB,
        { timerId },
        {
          // Three colon-separated parts, like a scheduler iteration's id; the last is the fire time.
          jobId: `run-now:timer-${timerId}:${scheduledFor.getTime()}`,
          // The same retries as a scheduled fire; retention is the worker's (core/timers/job-policy.ts).
          ...TIMER_JOB_OPTS,
        },
      ),
    );
  } catch (err) {
    // Nothing will pick the run up and nothing ran: the row goes (no credit was taken yet), so the next click is
    // not refused and the timer is not one failure closer to pausing itself for our outage.
    await deleteUnqueuedRun(deps.sql, claimed.runId);
    throw err instanceof SchedulerUnavailableError ? err : new SchedulerUnavailableError((err as Error).message);
  }
  return claimed;
}
