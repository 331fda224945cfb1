import type { PendingQuery, Row } from 'postgres';
import type { Db, Tx } from './client';
import { getTimer, type Timer } from './timers';

/** A timer's delivery settings and pause state (the columns of migration 005). */

export interface TimerSettingsPatch {
  email?: boolean;
  webhookUrl?: string | null;
}

/**
 * The user's own active timer, locked for the rest of the transaction; null when it is unknown, deleted or
 * someone else's (the API answers 404 for all three alike).
 */
export async function lockOwnTimer(tx: Tx, userId: number, timerId: number): Promise<Timer | null> {
  const [row] = await tx<{ id: string }[]>`
    select id from timers where id = ${timerId} and user_id = ${userId} and deleted_at is null for update`;
  return row ? getTimer(tx, timerId) : null;
}

/**
 * Sets the timer's channels. A webhook address that is new (or the timer's first) gets a new signing secret,
 * `newSecret`, which is returned so the user can be shown it once; the same address saved again keeps its
 * secret (and null is returned). Removing the webhook removes its secret.
 */
export async function updateTimerChannels(
  tx: Db,
  timerId: number,
  patch: TimerSettingsPatch,
  newSecret: string | null = null,
): Promise<string | null> {
  if (patch.email !== undefined) await tx`update timers set email_enabled = ${patch.email} where id = ${timerId}`;
  if (patch.webhookUrl === null)
    await tx`update timers set webhook_url = null, webhook_secret = null, webhook_gone_notice = null where id = ${timerId}`;
  if (typeof patch.webhookUrl === 'string' && newSecret) {
    const [row] = await tx<{ fresh: boolean }[]>`
      update timers t set webhook_url = ${patch.webhookUrl}, webhook_gone_notice = null,
        webhook_secret = case when old.webhook_url is distinct from ${patch.webhookUrl} or old.webhook_secret is null
                              then ${newSecret} else old.webhook_secret end
      from (select webhook_url, webhook_secret from timers where id = ${timerId}) old
      where t.id = ${timerId}
      returning t.webhook_secret = ${newSecret} as fresh`;
    return row?.fresh ? newSecret : null;
  }
  return null;
}

/** Pauses an active, unpaused timer; false when it was already paused or is gone (so only one caller acts). */
export async function markTimerPaused(sql: Db, timerId: number, reason: string | null): Promise<boolean> {
  const rows = await sql`
    update timers set paused_at = now(), paused_reason = ${reason}
    where id = ${timerId} and paused_at is null and deleted_at is null`;
  return rows.count === 1;
}

/** Resumes a paused timer; failures before now no longer count towards the next auto-pause. */
export async function markTimerResumed(sql: Db, timerId: number): Promise<boolean> {
  const rows = await sql`
    update timers set paused_at = null, paused_reason = null, consecutive_failures = 0, failures_since = now()
    where id = ${timerId} and paused_at is not null and deleted_at is null`;
  return rows.count === 1;
}

/**
 * The failed runs in a row of the timers row `t`, as an SQL expression: failed runs after its latest succeeded one
 * and after its latest resume (skipped runs neither count nor break the streak). `succeededNow` is the scheduled
 * time of a run that the same statement ends as succeeded, which the statement's own snapshot does not show.
 */
export function failedRunsInARow(sql: Db, succeededNow: PendingQuery<Row[]> = sql`'-infinity'::timestamptz`) {
  return sql`(
    select count(*)::int from timer_runs r
    where r.timer_id = t.id and r.status = 'failed' and not r.not_the_timers_fault
      and r.scheduled_for > greatest(${succeededNow}, coalesce(
        (select max(s.scheduled_for) from timer_runs s where s.timer_id = t.id and s.status = 'succeeded'), '-infinity'))
      and coalesce(r.finished_at, r.started_at) > coalesce(t.failures_since, '-infinity'))`;
}

/**
 * Recomputes the timer's consecutive failed runs from the run history and stores it. Derived, not incremented,
 * so calling it twice for the same run cannot count that run twice.
 */
export async function recountFailures(sql: Db, timerId: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    update timers t set consecutive_failures = ${failedRunsInARow(sql)}
    where t.id = ${timerId}
    returning consecutive_failures as n`;
  return row?.n ?? 0;
}

/** Turns a timer's email on or off (unsubscribe links); false for a deleted timer. */
export async function setTimerEmail(sql: Db, timerId: number, on: boolean): Promise<boolean> {
  const rows = await sql`update timers set email_enabled = ${on} where id = ${timerId} and deleted_at is null`;
  return rows.count === 1;
}
