import type { Schedule, ScheduleType, Weekday } from '../core/timers/schedule';
import type { TimerFilters } from '../core/contract/timer-filters';
import type { Db, Tx } from './client';

export interface Timer extends Schedule {
  id: number;
  userId: number;
  ques: string;
  web: string;
  createdAt: Date;
  deletedAt: Date | null;
  /** Paused timers have no scheduler; `pausedReason` is a sentence for the page (null when paused by hand). */
  paused: boolean;
  pausedReason: string | null;
  /** Whether digests go to the user's email (one-click unsubscribe turns it off). */
  email: boolean;
  webhookUrl: string | null;
  /** Why the webhook was removed (410 Gone), until a new address is set. */
  webhookGoneNotice: string | null;
  consecutiveFailures: number;
  /** Which found events the timer keeps (null: all of them). */
  filters: TimerFilters | null;
  /** Whether its feed and messages carry only events a page confirmed, corrected or gave (docs/decisions/checked-events.md). */
  checkedOnly: boolean;
}

export interface LatestRun {
  id: number;
  at: Date;
  status: string;
  answer: string | null;
  error: string | null;
}

export type TimerRow = {
  id: string;
  user_id: string;
  schedule_type: ScheduleType;
  time: string;
  weekday: Weekday | null;
  question: string;
  website: string;
  timezone: string;
  created_at: Date;
  deleted_at: Date | null;
  paused_at: Date | null;
  paused_reason: string | null;
  email_enabled: boolean;
  webhook_url: string | null;
  webhook_gone_notice: string | null;
  consecutive_failures: number;
  filters: TimerFilters | null;
  checked_only: boolean;
};

export const TIMER_COLUMNS =
  'id, user_id, schedule_type, time, weekday, question, website, timezone, created_at, deleted_at, ' +
  'paused_at, paused_reason, email_enabled, webhook_url, webhook_gone_notice, consecutive_failures, filters, checked_only';

export function toTimer(r: TimerRow): Timer {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    scheduleType: r.schedule_type,
    time: r.time,
    weekday: r.weekday,
    ques: r.question,
    web: r.website,
    timezone: r.timezone,
    createdAt: r.created_at,
    deletedAt: r.deleted_at,
    paused: r.paused_at !== null,
    pausedReason: r.paused_reason,
    email: r.email_enabled,
    webhookUrl: r.webhook_url,
    webhookGoneNotice: r.webhook_gone_notice,
    consecutiveFailures: r.consecutive_failures,
    filters: r.filters,
    checkedOnly: r.checked_only,
  };
}

/**
 * Serialises timer creation per user for the rest of the transaction, so two concurrent saves cannot both
 * pass the 20-timer limit. The lock is released at commit or rollback.
 */
export async function lockUserTimers(tx: Tx, userId: number): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext('timers'), ${userId}::int)`;
}

export async function countActiveTimers(sql: Db, userId: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from timers where user_id = ${userId} and deleted_at is null`;
  return row!.n;
}

/** What a new timer is made of; `filters` absent or null keeps every event. */
export type NewTimer = Schedule & { ques: string; web: string; filters?: TimerFilters | null };

export async function insertTimer(sql: Db, userId: number, t: NewTimer): Promise<Timer> {
  const [row] = await insertTimers(sql, userId, [t]);
  return row!;
}

/** Several timers of one user in one multi-row insert, returned oldest (lowest id) first. */
export async function insertTimers(sql: Db, userId: number, ts: NewTimer[]): Promise<Timer[]> {
  if (!ts.length) return [];
  const rows = ts.map((t) => ({
    user_id: userId,
    schedule_type: t.scheduleType,
    time: t.time,
    weekday: t.weekday,
    question: t.ques,
    website: t.web,
    timezone: t.timezone,
    filters: t.filters ? sql.json(t.filters as never) : null,
  }));
  const inserted = await sql<TimerRow[]>`
    insert into timers ${sql(rows)}
    returning ${sql.unsafe(TIMER_COLUMNS)}`;
  return inserted.map(toTimer).sort((a, b) => a.id - b.id);
}

/** Any timer by id, deleted or not (the worker decides what a deleted one means). */
export async function getTimer(sql: Db, id: number): Promise<Timer | null> {
  const [row] = await sql<TimerRow[]>`select ${sql.unsafe(TIMER_COLUMNS)} from timers where id = ${id}`;
  return row ? toTimer(row) : null;
}

/** What a scheduler is made from: the timer's id and its schedule. */
export type ScheduledTimer = Schedule & { id: number };

const SCHEDULE_COLUMNS = 'id, schedule_type, time, weekday, timezone';
type ScheduleRow = Pick<TimerRow, 'id' | 'schedule_type' | 'time' | 'weekday' | 'timezone'>;
const toScheduled = (r: ScheduleRow): ScheduledTimer => ({
  id: Number(r.id),
  scheduleType: r.schedule_type,
  time: r.time,
  weekday: r.weekday,
  timezone: r.timezone,
});

/**
 * One page of the active (not deleted, not paused) timers after `afterId`, in id order, for the worker's
 * reconcile pass: only what a scheduler is made from, so a page stays small at any number of timers.
 */
export async function listActiveSchedulesAfter(sql: Db, afterId: number, limit: number): Promise<ScheduledTimer[]> {
  const rows = await sql<ScheduleRow[]>`
    select ${sql.unsafe(SCHEDULE_COLUMNS)} from timers
    where id > ${afterId} and deleted_at is null and paused_at is null
    order by id limit ${limit}`;
  return rows.map(toScheduled);
}

/** Those of these timers that are active, with their schedules as they are now. */
export async function activeSchedulesOf(sql: Db, ids: number[]): Promise<ScheduledTimer[]> {
  const rows = await sql<ScheduleRow[]>`
    select ${sql.unsafe(SCHEDULE_COLUMNS)} from timers
    where id = any(${ids}::bigint[]) and deleted_at is null and paused_at is null
    order by id`;
  return rows.map(toScheduled);
}

/** The user's active timers, oldest first, each with its latest run. */
export async function listUserTimers(sql: Db, userId: number): Promise<(Timer & { lastRun: LatestRun | null })[]> {
  const rows = await sql<
    (TimerRow & {
      run_id: string | null;
      run_at: Date | null;
      run_status: string | null;
      run_answer: string | null;
      run_error: string | null;
    })[]
  >`
    select ${sql.unsafe(
      TIMER_COLUMNS.split(', ')
        .map((c) => `t.${c}`)
        .join(', '),
    )},
      r.id as run_id, r.scheduled_for as run_at, r.status as run_status, r.answer as run_answer, r.error as run_error
    from timers t
    left join lateral (
      select id, scheduled_for, status, answer, error from timer_runs
      where timer_id = t.id order by scheduled_for desc limit 1
    ) r on true
    where t.user_id = ${userId} and t.deleted_at is null
    order by t.id`;
  return rows.map((r) => ({
    ...toTimer(r),
    lastRun: r.run_at ? { id: Number(r.run_id), at: r.run_at, status: r.run_status!, answer: r.run_answer, error: r.run_error } : null,
  }));
}

/** Marks the user's own active timer deleted; false when it is unknown, deleted or someone else's. */
export async function markTimerDeleted(sql: Db, userId: number, id: number): Promise<boolean> {
  const rows = await sql`
    update timers set deleted_at = now() where id = ${id} and user_id = ${userId} and deleted_at is null`;
  return rows.count === 1;
}

/**
 * Held (shared) by a create or delete from its Postgres write until commit, and (exclusive) by the worker's
 * reconcile pass; so reconcile never sees a scheduler whose timer row is not committed yet and removes it.
 */
export async function lockSchedulersShared(tx: Tx): Promise<void> {
  await tx`select pg_advisory_xact_lock_shared(hashtext('timer-schedulers'))`;
}

export async function lockSchedulersExclusive(tx: Tx): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext('timer-schedulers'))`;
}

/** Sets whether a timer delivers only checked events (docs/decisions/checked-events.md). */
export async function updateTimerCheckedOnly(sql: Db, id: number, on: boolean): Promise<void> {
  await sql`update timers set checked_only = ${on} where id = ${id}`;
}

/** Replaces a user's own timer's filters (null: keep every event); false for an unknown or someone else's timer. */
export async function updateTimerFilters(sql: Db, userId: number, id: number, filters: TimerFilters | null): Promise<boolean> {
  const rows = await sql`
    update timers set filters = ${filters ? sql.json(filters as never) : null}
    where id = ${id} and user_id = ${userId} and deleted_at is null`;
  return rows.count === 1;
}

/** Replaces what a timer asks and when (its id, and so its runs, feeds and event memory, stay). */
export async function updateTimerDefinition(sql: Db, id: number, t: Schedule & { ques: string; web: string }): Promise<void> {
  await sql`
    update timers set schedule_type = ${t.scheduleType}, time = ${t.time}, weekday = ${t.weekday}, question = ${t.ques},
      website = ${t.web}, timezone = ${t.timezone}
    where id = ${id}`;
}
