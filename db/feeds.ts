import type { FoundEvent } from '../core/contract/event';
import type { Db } from './client';

/** The stored feed nonce of each given timer (null: none yet). Tokens and their hashes are made in core. */
export async function feedNoncesOf(sql: Db, timerIds: number[]): Promise<Map<number, string | null>> {
  const rows = await sql<{ id: string; feed_nonce: string | null }[]>`select id, feed_nonce from timers where id = any(${timerIds})`;
  return new Map(rows.map((r) => [Number(r.id), r.feed_nonce]));
}

/**
 * Stores a timer's first nonce and its token's hash unless it has a nonce already; returns the stored nonce.
 * A concurrent first call loses the race harmlessly: the nonce stored first is the one read back.
 */
export async function storeFirstFeedNonce(sql: Db, timerId: number, nonce: string, tokenHash: string): Promise<string> {
  const [stored] = await sql<{ feed_nonce: string }[]>`
    update timers set feed_nonce = coalesce(feed_nonce, ${nonce}),
      feed_token_hash = case when feed_nonce is null then ${tokenHash} else feed_token_hash end
    where id = ${timerId} returning feed_nonce`;
  return stored!.feed_nonce;
}

/** Replaces the nonce and token hash of the user's own active timer; false when it is not theirs. */
export async function replaceFeedNonce(sql: Db, userId: number, timerId: number, nonce: string, tokenHash: string): Promise<boolean> {
  const rows = await sql`
    update timers set feed_nonce = ${nonce}, feed_token_hash = ${tokenHash}
    where id = ${timerId} and user_id = ${userId} and deleted_at is null`;
  return rows.count === 1;
}

export interface FeedTimer {
  id: number;
  question: string;
  website: string;
  timezone: string;
}

/**
 * The active timer whose feed token hashes to `tokenHash`, with a fingerprint of what its feeds would hold now, in one
 * statement on indexes only (the token's unique index, the window index with its included changed_at, and
 * the runs' latest-first index): a calendar client polling an unchanged feed costs this one read (docs/decisions/data-lifecycle.md).
 * Null when the token is unknown, rotated away, or its timer deleted.
 */
export async function feedByTokenHash(
  sql: Db,
  tokenHash: string,
  windowStart: Date,
): Promise<{ timer: FeedTimer; version: string; modified: Date } | null> {
  const [row] = await sql<
    {
      id: string;
      question: string;
      website: string;
      timezone: string;
      n: number;
      changed: Date | null;
      last_run: string | null;
      last_run_at: Date | null;
    }[]
  >`
    select t.id, t.question, t.website, t.timezone, w.n, w.changed, lr.id::text as last_run, lr.finished_at as last_run_at
    from timers t
    cross join lateral (
      select count(*)::int as n, max(e.changed_at) as changed from timer_events e
      where e.timer_id = t.id and e.feed_until >= ${windowStart}) w
    left join lateral (
      select r.id, r.finished_at from timer_runs r where r.timer_id = t.id and r.status = 'succeeded'
      order by r.scheduled_for desc limit 1) lr on true
    where t.feed_token_hash = ${tokenHash} and t.deleted_at is null`;
  if (!row) return null;
  const timer = { id: Number(row.id), question: row.question, website: row.website, timezone: row.timezone };
  const day = windowStart.toISOString().slice(0, 10);
  const version = `${day}-${row.n}-${row.changed?.getTime() ?? 0}-${row.last_run ?? 0}`;
  // The window moves by whole days, so what a feed holds may change at each day's start as well.
  const modified = new Date(
    Math.max(
      Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`),
      row.changed?.getTime() ?? 0,
      row.last_run_at?.getTime() ?? 0,
    ),
  );
  return { timer, version, modified };
}

export interface FeedEvent {
  event: FoundEvent;
  sequence: number;
  changedAt: Date;
}

/** The events of a timer's iCal feed: those of the window, the earliest first, at most `limit`. */
export async function timerFeedEvents(sql: Db, timerId: number, windowStart: Date, limit: number): Promise<FeedEvent[]> {
  const rows = await sql<{ event: FoundEvent; sequence: number; changed_at: Date }[]>`
    select event, sequence, changed_at from timer_events
    where timer_id = ${timerId} and feed_until >= ${windowStart}
    order by feed_until, key limit ${limit}`;
  return rows.map((r) => ({ event: r.event, sequence: r.sequence, changedAt: r.changed_at }));
}
