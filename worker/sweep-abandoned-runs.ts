import type { Sql } from '../db/client';
import { failRun, listAbandonedRuns } from '../db/timer-runs';

/**
 * Longer than any run can take: a search gives up on the website after seconds and an attempt after
 * `TIMER_RUN_TIMEOUT_SECONDS` (at most 30 minutes), and a stalled job is handed out again within a minute,
 * which restarts its clock (takeRunCredit).
 */
export const ABANDONED_AFTER_MS = 60 * 60_000;

export const ABANDONED_MESSAGE =
  'This run did not finish because the worker stopped while it ran. Your search was not charged; the next run happens as scheduled.';

/**
 * Ends runs nobody is working on any more. BullMQ fails a job that stalled too often inside Redis, without
 * calling our processor, so such a run would stay 'running' with its credit taken; this gives it an outcome
 * and the credit back. `failRun` only touches a run still running and refunds once, so a late execution
 * that does finish keeps its own outcome.
 */
export async function sweepAbandonedRuns(sql: Sql, now: Date = new Date()): Promise<number> {
  const runs = await listAbandonedRuns(sql, new Date(now.getTime() - ABANDONED_AFTER_MS));
  let ended = 0;
  for (const run of runs) if (await failRun(sql, run, ABANDONED_MESSAGE)) ended++;
  return ended;
}
