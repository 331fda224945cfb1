import { feedToken, feedTokenHash, newFeedNonce } from '../core/events/feed-token';
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

/** The active timer a feed token belongs to, or null (unknown, rotated away, or deleted). */
export async function timerByFeedToken(sql: Db, token: string): Promise<FeedTimer | null> {
  const [row] = await sql<{ id: string; question: string; website: string; timezone: string }[]>`
    select id, question, website, timezone from timers where feed_token_hash = ${feedTokenHash(token)} and deleted_at is null`;
  return row ? { id: Number(row.id), question: row.question, website: row.website, timezone: row.timezone } : null;
}
