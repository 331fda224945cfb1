import {
  type Allowances,
  type Billing,
  creditLeft,
  freePeriodEnded,
  getBilling,
  refundCredit,
  rollFreePeriod,
  takeCredit,
} from './accounts';
import type { Db, Sql, Tx } from './client';
import { failedRunsInARow, recountFailures } from './timer-delivery';
import { TIMER_COLUMNS, type Timer, type TimerRow, toTimer } from './timers';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'skipped';

export interface TimerRun {
  id: number;
  timerId: number;
  scheduledFor: Date;
  startedAt: Date;
  finishedAt: Date | null;
  status: RunStatus;
  creditTaken: boolean;
  answer: string | null;
  error: string | null;
}

type RunRow = {
  id: string;
  timer_id: string;
  scheduled_for: Date;
  started_at: Date;
  finished_at: Date | null;
  status: RunStatus;
  credit_taken: boolean;
  answer: string | null;
  error: string | null;
};

function toRun(r: RunRow): TimerRun {
  return {
    id: Number(r.id),
    timerId: Number(r.timer_id),
    scheduledFor: r.scheduled_for,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    status: r.status,
    creditTaken: r.credit_taken,
    answer: r.answer,
    error: r.error,
  };
}

/**
 * The run of one scheduled fire, created on first sight: a retried or redelivered job lands on the same row
 * (unique timer + scheduled time).
 */
export async function claimRun(sql: Db, timerId: number, scheduledFor: Date): Promise<TimerRun> {
  await sql`insert into timer_runs (timer_id, scheduled_for, status) values (${timerId}, ${scheduledFor}, 'running')
            on conflict (timer_id, scheduled_for) do nothing`;
  const [row] = await sql<RunRow[]>`select * from timer_runs where timer_id = ${timerId} and scheduled_for = ${scheduledFor}`;
  return toRun(row!);
}

export type FireClaim =
  | { kind: 'timer-gone' }
  /** A paused timer's scheduled fire: no run row is made. */
  | { kind: 'paused' }
  | { kind: 'claimed'; timer: Timer; run: { id: number; status: RunStatus } };

/**
 * A fire's timer and its run in one round trip: reads the timer and, when it is live (and not paused, unless
 * `evenIfPaused`), creates the fire's run row (claimRun's unique timer + scheduled time). A row another execution
 * already made is read in a second statement: the insert's snapshot may predate that row's commit.
 */
export async function claimFire(sql: Sql, timerId: number, scheduledFor: Date, evenIfPaused: boolean): Promise<FireClaim> {
  const [row] = await sql<(TimerRow & { run_id: string | null; run_status: RunStatus | null })[]>`
    with t as (select ${sql.unsafe(TIMER_COLUMNS)} from timers where id = ${timerId}),
    claimed as (
      insert into timer_runs (timer_id, scheduled_for, status, picked_at)
      select id, ${scheduledFor}, 'running', now() from t where deleted_at is null and (paused_at is null or ${evenIfPaused})
      on conflict (timer_id, scheduled_for) do nothing
      returning id, status)
    select t.*, claimed.id as run_id, claimed.status as run_status from t left join claimed on true`;
  if (!row || row.deleted_at) return { kind: 'timer-gone' };
  if (row.paused_at && !evenIfPaused) return { kind: 'paused' };
  const timer = toTimer(row);
  if (row.run_id !== null) return { kind: 'claimed', timer, run: { id: Number(row.run_id), status: row.run_status! } };
  // A Run-now row (made before its job was queued) is marked taken, so the lost-run sweep leaves it alone.
  const [existing] = await sql<{ id: string; status: RunStatus }[]>`
    update timer_runs set picked_at = coalesce(picked_at, now())
    where timer_id = ${timerId} and scheduled_for = ${scheduledFor} returning id, status`;
  // Gone between the two statements only if the timer's runs were deleted with it.
  if (!existing) return { kind: 'timer-gone' };
  return { kind: 'claimed', timer, run: { id: Number(existing.id), status: existing.status } };
}

export type RunCredit = { kind: 'taken'; epoch: number } | { kind: 'none_left'; billing: Billing } | { kind: 'run_ended' };

/**
 * The credit of one attempt of a run, under the run's row lock: a run that already holds one (an earlier
 * execution died, or one is still going beside this) lends it to this attempt, so a fire costs one credit
 * however many executions it takes; an ended run takes nothing.
 *
 * Usually one statement: a free account whose period has ended is left alone by the first try, rolled, and
 * tried again, which is what rolling first would have given (as takeCredit does).
 */
/**
 * Whether a run cannot be paid for right now: it is running, holds no credit yet, and its account has none left
 * (nor a free period that ended). A hint read before the website is fetched, never instead of the take.
 */
export async function runUnpayable(sql: Sql, run: { id: number; userId: number }, allowances: Allowances): Promise<boolean> {
  const [row] = await sql<{ unpayable: boolean }[]>`
    select r.status = 'running' and not r.credit_taken and not (${creditLeft(sql, allowances, false)} or ${freePeriodEnded(sql)}) as unpayable
    from timer_runs r, accounts where r.id = ${run.id} and accounts.user_id = ${run.userId}`;
  return row?.unpayable === true;
}

export async function takeRunCredit(sql: Sql, run: { id: number; userId: number }, allowances: Allowances): Promise<RunCredit> {
  let row = await chargeRun(sql, run, allowances, true);
  if (row && !row.credit_taken && row.period_ended) {
    await rollFreePeriod(sql, run.userId);
    row = await chargeRun(sql, run, allowances, false);
  }
  if (!row) return { kind: 'run_ended' };
  if (row.credit_taken) return { kind: 'taken', epoch: row.credit_epoch ?? 0 };
  const billing = await getBilling(sql, run.userId, allowances);
  if (!billing) throw new Error(`User ${run.userId} has no account`);
  return { kind: 'none_left', billing };
}

/**
 * One statement: the CTE locks the run row first (FOR UPDATE waits for another execution's lock and then reads
 * the row as that one left it), charges the account only when the locked row is running without a credit, and
 * marks the row with what it took and the attempt's start. With `inOpenPeriod` a free account whose period has
 * ended is not charged; `period_ended` tells the caller to roll it.
 */
async function chargeRun(sql: Sql, run: { id: number; userId: number }, allowances: Allowances, inOpenPeriod: boolean) {
  const [row] = await sql<{ credit_taken: boolean; credit_epoch: number | null; period_ended: boolean }[]>`
    with locked as (
      select id, status, credit_taken from timer_runs where id = ${run.id} for update
    ),
    took as (
      update accounts set searches_used = searches_used + 1, updated_at = now()
      where user_id = ${run.userId} and ${creditLeft(sql, allowances, inOpenPeriod)}
        and exists (select 1 from locked where status = 'running' and not credit_taken)
      returning usage_epoch
    ),
    marked as (
      update timer_runs r set started_at = now(),
        credit_taken = r.credit_taken or exists (select 1 from took),
        credit_epoch = coalesce((select usage_epoch from took), r.credit_epoch)
      from locked where r.id = locked.id and locked.status = 'running'
      returning r.credit_taken, r.credit_epoch
    )
    select credit_taken, credit_epoch,
      exists (select 1 from accounts where user_id = ${run.userId} and ${freePeriodEnded(sql)}) as period_ended
    from marked`;
  return row;
}

/**
 * Gives a still-running run's credit back, once and into the period it was taken in: only the call that
 * flips credit_taken refunds, and a run another execution already ended keeps its charge.
 */
export async function refundRunCredit(sql: Sql, run: { id: number; userId: number }): Promise<void> {
  await sql.begin((tx) => refundRunCreditIn(tx, run));
}

/** refundRunCredit inside a transaction the caller holds (one that also ends the run's search). */
export async function refundRunCreditIn(tx: Tx, run: { id: number; userId: number }): Promise<void> {
  const [row] = await tx<{ credit_epoch: number | null }[]>`
    update timer_runs r set credit_taken = false
    from (select id, credit_epoch from timer_runs where id = ${run.id} for update) old
    where r.id = old.id and r.status = 'running' and r.credit_taken
    returning old.credit_epoch`;
  if (row) await refundCredit(tx, run.userId, row.credit_epoch ?? 0);
}

/** Ends a still-running run as skipped; a run another execution already ended is left as it is. */
export async function finishRun(sql: Db, runId: number, outcome: { status: 'skipped'; error: string }): Promise<void> {
  await sql`update timer_runs set status = ${outcome.status}, error = ${outcome.error}, finished_at = now()
            where id = ${runId} and status = 'running'`;
}

/**
 * Ends a still-running run as succeeded with its answer. A run whose credit an earlier, failed execution gave
 * back while this one was still answering is charged again here, so an answered run always costs its credit.
 * Returns the timer's failed runs in a row after this success when this call stored them (the usual case: one
 * statement ends the run and recounts), else null.
 */
export async function succeedRun(
  sql: Sql,
  run: { id: number; userId: number },
  answer: string,
  allowances: Allowances,
): Promise<number | null> {
  // The usual case in one statement: the run still holds its credit, so ending it and recounting is all there is.
  const [held] = await sql<{ n: number }[]>`
    with done as (
      update timer_runs set status = 'succeeded', answer = ${answer}, error = null, finished_at = now()
      where id = ${run.id} and status = 'running' and credit_taken
      returning timer_id, scheduled_for
    )
    update timers t set consecutive_failures = ${failedRunsInARow(sql, sql`done.scheduled_for`)}
    from done where t.id = done.timer_id
    returning t.consecutive_failures as n`;
  if (held) return held.n;
  await sql.begin(async (tx) => {
    const [row] = await tx<{ credit_taken: boolean }[]>`
      update timer_runs set status = 'succeeded', answer = ${answer}, error = null, finished_at = now()
      where id = ${run.id} and status = 'running' returning credit_taken`;
    if (!row || row.credit_taken) return;
    const credit = await takeCredit(tx, run.userId, allowances);
    if (credit.ok) {
      await tx`update timer_runs set credit_taken = true, credit_epoch = ${credit.billing.usageEpoch} where id = ${run.id}`;
    }
  });
  return null;
}

/** Records why the latest attempt failed while BullMQ retries it. */
export async function noteRunError(sql: Db, runId: number, error: string): Promise<void> {
  await sql`update timer_runs set error = ${error} where id = ${runId} and status = 'running'`;
}

export async function listRuns(sql: Sql, timerId: number): Promise<TimerRun[]> {
  const rows = await sql<RunRow[]>`select * from timer_runs where timer_id = ${timerId} order by scheduled_for`;
  return rows.map(toRun);
}

/**
 * Ends a still-running run as failed and gives its credit back, in one transaction and once: only the call
 * that flips credit_taken refunds, so a duplicate execution (stalled job) cannot refund twice, a run another
 * execution already finished keeps its outcome and its charge, and the credit goes back into the allowance
 * period it was taken in. Returns whether this call ended the run.
 */
export async function failRun(
  sql: Sql,
  run: { id: number; userId: number },
  error: string,
  cause: 'the-timer' | 'not-the-timer' = 'the-timer',
): Promise<boolean> {
  return sql.begin((tx) => failRunIn(tx, run, error, cause));
}

async function failRunIn(
  tx: Tx,
  run: { id: number; userId: number },
  error: string,
  cause: 'the-timer' | 'not-the-timer',
): Promise<boolean> {
  const [row] = await tx<{ credit_taken: boolean; credit_epoch: number | null }[]>`
    update timer_runs r set status = 'failed', error = ${error}, finished_at = now(), credit_taken = false,
      not_the_timers_fault = ${cause === 'not-the-timer'}
    from (select id, credit_taken, credit_epoch from timer_runs where id = ${run.id} for update) old
    where r.id = old.id and r.status = 'running'
    returning old.credit_taken, old.credit_epoch`;
  if (row?.credit_taken) await refundCredit(tx, run.userId, row.credit_epoch ?? 0);
  return row !== undefined;
}

/**
 * How a timer fire ends its run: answered, failed for good, or skipped with a sentence. A failure that is not the
 * timer's (`cause` 'not-the-timer') is shown as failed but does not count toward auto-pause.
 */
export type RunEnd =
  | { status: 'succeeded'; answer: string }
  | { status: 'failed'; error: string; cause?: 'the-timer' | 'not-the-timer' }
  | { status: 'skipped'; error: string };

/**
 * Ends a timer fire's still-running run (as succeedRun, failRun or finishRun do) and returns the timer's failed
 * runs in a row as they stand after it: a failure is recounted in the transaction that fails the run, a success
 * in the statement that ends it (or right after, when it had to be charged again). A skipped run neither counts
 * nor breaks the streak: null. The one call a fire's end makes, so its count comes back with it.
 */
export async function endRun(
  sql: Sql,
  run: { id: number; userId: number; timerId: number },
  end: RunEnd,
  allowances: Allowances,
): Promise<number | null> {
  switch (end.status) {
    case 'skipped':
      await finishRun(sql, run.id, end);
      return null;
    case 'succeeded':
      return (await succeedRun(sql, run, end.answer, allowances)) ?? (await recountFailures(sql, run.timerId));
    case 'failed':
      return sql.begin(async (tx) => {
        await failRunIn(tx, run, end.error, end.cause ?? 'the-timer');
        return recountFailures(tx, run.timerId);
      });
  }
}

/**
 * Removes a Run-now row whose job could not be queued: nothing ran and nothing was charged, so it is no run at
 * all (and no failure towards auto-pause). Only while no worker has taken it.
 */
export async function deleteUnqueuedRun(sql: Sql, runId: number): Promise<void> {
  await sql`delete from timer_runs where id = ${runId} and status = 'running' and picked_at is null and not credit_taken`;
}

/**
 * Ends Run-now runs whose job no worker took since before `madeBefore` (the job was lost): skipped, not
 * failed, so they do not count towards auto-pause, and Run now works again. One statement, so a worker
 * taking the job at the same moment (claimFire sets picked_at) wins or loses cleanly. Returns how many.
 */
export async function skipLostRuns(sql: Sql, madeBefore: Date, error: string): Promise<number> {
  const rows = await sql`
    update timer_runs set status = 'skipped', error = ${error}, finished_at = now()
    where status = 'running' and picked_at is null and not credit_taken and started_at < ${madeBefore}`;
  return rows.count;
}

/** Runs still 'running' whose latest attempt started before `startedBefore`, oldest first. */
export async function listAbandonedRuns(sql: Sql, startedBefore: Date, limit = 500): Promise<{ id: number; userId: number }[]> {
  const rows = await sql<{ id: string; user_id: string }[]>`
    select r.id, t.user_id from timer_runs r join timers t on t.id = r.timer_id
    where r.status = 'running' and r.started_at < ${startedBefore}
    order by r.started_at limit ${limit}`;
  return rows.map((r) => ({ id: Number(r.id), userId: Number(r.user_id) }));
}
