import type { Sql } from '../../db/client';
import { failAbandonedEvents, failAbandonedSearches } from '../../db/searches';
import { failRun, listAbandonedRuns, skipLostRuns } from '../../db/timer-runs';

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
  // A stopped worker is not the timer's failure: shown as failed, not counted toward auto-pause.
  for (const run of runs) if (await failRun(sql, run, ABANDONED_MESSAGE, 'not-the-timer')) ended++;
  return ended;
}

/**
 * A Run-now job is queued within a second of its run row and a worker takes it within seconds, unless the
 * timer-runs-per-minute limit holds a backlog; past this, its job was lost (Redis emptied or failed over).
 */
export const LOST_AFTER_MS = 5 * 60_000;

export const LOST_MESSAGE = 'This run never started: its job was lost before a worker took it. Nothing was charged; use Run now again.';

export const ABANDONED_SEARCH_MESSAGE = 'This search did not finish because the server stopped while it ran.';

/**
 * Ends work nobody will finish, other than abandoned runs: Run-now runs no worker took (skipped, so they do not
 * count towards auto-pause and Run now is not refused for an hour), searches left 'running' by a process
 * that stopped (failed, with a sentence), and an ask's events still pending an hour after its answer (failed).
 */
export async function sweepLostWork(sql: Sql, now: Date = new Date()): Promise<{ lostRuns: number; searches: number; events: number }> {
  const lostRuns = await skipLostRuns(sql, new Date(now.getTime() - LOST_AFTER_MS), LOST_MESSAGE);
  const before = new Date(now.getTime() - ABANDONED_AFTER_MS);
  const searches = await failAbandonedSearches(sql, before, ABANDONED_SEARCH_MESSAGE);
  // An ask's events whose job was lost (docs/decisions/ask.md): the page and agents stop waiting for them.
  const events = await failAbandonedEvents(sql, before);
  return { lostRuns, searches, events };
}
