import { feedToken, feedTokenHash, newFeedNonce } from '../core/events/feed-token';
import type { FoundEvent } from '../core/events/from-facts';
import type { Db } from './client';

/**
 * The feed tokens of the given timers (of one user), creating a nonce for timers that have none yet. A
 * concurrent first call loses the race harmlessly: the nonce that was stored first is the one read back.
 */
export async function feedTokensOf(sql: Db, secret: string, timerIds: number[]): Promise<Map<number, string>> {
  const tokens = new Map<number, string>();
  if (timerIds.length === 0) return tokens;
  const rows = await sql<{ id: string; feed_nonce: string | null }[]>`select id, feed_nonce from timers where id = any(${timerIds})`;
  for (const r of rows) {
    const id = Number(r.id);
    let nonce = r.feed_nonce;
    if (!nonce) {
      const fresh = newFeedNonce();
      const [stored] = await sql<{ feed_nonce: string }[]>`
        update timers set feed_nonce = coalesce(feed_nonce, ${fresh}),
          feed_token_hash = case when feed_nonce is null then ${feedTokenHash(feedToken(secret, id, fresh))} else feed_token_hash end
        where id = ${id} returning feed_nonce`;
      nonce = stored!.feed_nonce;
    }
    tokens.set(id, feedToken(secret, id, nonce));
  }
  return tokens;
}

/** A new token for the user's own active timer (the old one then matches nothing); null when not theirs. */
export async function rotateFeedToken(sql: Db, secret: string, userId: number, timerId: number): Promise<string | null> {
  const nonce = newFeedNonce();
  const token = feedToken(secret, timerId, nonce);
  const rows = await sql`
    update timers set feed_nonce = ${nonce}, feed_token_hash = ${feedTokenHash(token)}
    where id = ${timerId} and user_id = ${userId} and deleted_at is null`;
  return rows.count === 1 ? token : null;
}

export interface FeedTimer {
  id: number;
  question: string;
  website: string;
  timezone: string;
}

/** How far back a feed reaches: events that ended (or started) within this many days, and every later one. */
export const FEED_PAST_DAYS = 30;
/** The most events one feed carries (the nearest to the window's start first). */
export const FEED_MAX_EVENTS = 300;

/**
 * The window's start: midnight UTC FEED_PAST_DAYS ago. Whole days, so the window moves once a day and a poll's
 * ETag (which names the day) stays the same between a timer's changes within a day.
 */
export function feedWindowStart(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - FEED_PAST_DAYS));
}

/**
 * The active timer a feed token belongs to, with a fingerprint of what its feeds would hold now, in one
 * statement on indexes only (the token's unique index, the window index with its included changed_at, and
 * the runs' latest-first index): a calendar client polling an unchanged feed costs this one read (decision 039).
 * Null when the token is unknown, rotated away, or its timer deleted.
 */
export async function feedByToken(sql: Db, token: string, windowStart: Date): Promise<{ timer: FeedTimer; version: string } | null> {
  const [row] = await sql<
    { id: string; question: string; website: string; timezone: string; n: number; changed: Date | null; last_run: string | null }[]
  >`
    select t.id, t.question, t.website, t.timezone, w.n, w.changed,
      (select r.id::text from timer_runs r where r.timer_id = t.id and r.status = 'succeeded'
       order by r.scheduled_for desc limit 1) as last_run
    from timers t
    cross join lateral (
      select count(*)::int as n, max(e.changed_at) as changed from timer_events e
      where e.timer_id = t.id and e.feed_until >= ${windowStart}) w
    where t.feed_token_hash = ${feedTokenHash(token)} and t.deleted_at is null`;
  if (!row) return null;
  const timer = { id: Number(row.id), question: row.question, website: row.website, timezone: row.timezone };
  const version = `${windowStart.toISOString().slice(0, 10)}-${row.n}-${row.changed?.getTime() ?? 0}-${row.last_run ?? 0}`;
  return { timer, version };
}

export interface FeedEvent {
  event: FoundEvent;
  sequence: number;
  changedAt: Date;
}

/** The events of a timer's iCal feed: those of the window, the earliest first, at most FEED_MAX_EVENTS. */
export async function timerFeedEvents(sql: Db, timerId: number, windowStart: Date): Promise<FeedEvent[]> {
  const rows = await sql<{ event: FoundEvent; sequence: number; changed_at: Date }[]>`
    select event, sequence, changed_at from timer_events
    where timer_id = ${timerId} and feed_until >= ${windowStart}
    order by feed_until, key limit ${FEED_MAX_EVENTS}`;
  return rows.map((r) => ({ event: r.event, sequence: r.sequence, changedAt: r.changed_at }));
}
