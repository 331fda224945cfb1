import { refundCredit } from './accounts';
import type { Sql } from './client';

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
 * The run of one scheduled fire, created on first sight and locked for the rest of the transaction: a retried
 * or redelivered job lands on the same row (unique timer + scheduled time) and waits for any other holder.
 */
export async function claimRun(tx: Sql, timerId: number, scheduledFor: Date): Promise<TimerRun> {
  await tx`insert into timer_runs (timer_id, scheduled_for, status) values (${timerId}, ${scheduledFor}, 'running')
           on conflict (timer_id, scheduled_for) do nothing`;
  const [row] = await tx<RunRow[]>`
    select * from timer_runs where timer_id = ${timerId} and scheduled_for = ${scheduledFor} for update`;
  return toRun(row!);
}

export async function markCreditTaken(tx: Sql, runId: number, usageEpoch: number): Promise<void> {
  await tx`update timer_runs set credit_taken = true, credit_epoch = ${usageEpoch}, started_at = now() where id = ${runId}`;
}

/** A new attempt of a run that is still open: its start time is refreshed; the last error stays until it ends. */
export async function markAttempt(tx: Sql, runId: number): Promise<void> {
  await tx`update timer_runs set started_at = now(), status = 'running' where id = ${runId}`;
}

/** Ends a still-running run; a run another execution already ended is left as it is. */
export async function finishRun(
  sql: Sql,
  runId: number,
  outcome: { status: 'succeeded' | 'skipped'; answer?: string | null; error?: string | null },
): Promise<void> {
  await sql`update timer_runs set status = ${outcome.status}, answer = ${outcome.answer ?? null},
              error = ${outcome.error ?? null}, finished_at = now()
            where id = ${runId} and status = 'running'`;
}

/** Records why the latest attempt failed while BullMQ retries it. */
export async function noteRunError(sql: Sql, runId: number, error: string): Promise<void> {
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
export async function failRun(sql: Sql, run: { id: number; userId: number }, error: string): Promise<boolean> {
  return sql.begin(async (t) => {
    const tx = t as unknown as Sql; // postgres.js types a transaction apart; it runs the same queries
    const [row] = await tx<{ credit_taken: boolean; credit_epoch: number | null }[]>`
      update timer_runs r set status = 'failed', error = ${error}, finished_at = now(), credit_taken = false
      from (select id, credit_taken, credit_epoch from timer_runs where id = ${run.id} for update) old
      where r.id = old.id and r.status = 'running'
      returning old.credit_taken, old.credit_epoch`;
    if (row?.credit_taken) await refundCredit(tx, run.userId, row.credit_epoch ?? 0);
    return row !== undefined;
  });
}

/** Runs still 'running' whose latest attempt started before `startedBefore`, oldest first. */
export async function listAbandonedRuns(sql: Sql, startedBefore: Date, limit = 500): Promise<{ id: number; userId: number }[]> {
  const rows = await sql<{ id: string; user_id: string }[]>`
    select r.id, t.user_id from timer_runs r join timers t on t.id = r.timer_id
    where r.status = 'running' and r.started_at < ${startedBefore}
    order by r.started_at limit ${limit}`;
  return rows.map((r) => ({ id: Number(r.id), userId: Number(r.user_id) }));
}
