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

/** The active timer whose feed token hashes to `tokenHash`, or null (unknown, rotated away, or deleted). */
export async function timerByFeedTokenHash(sql: Db, tokenHash: string): Promise<FeedTimer | null> {
  const [row] = await sql<{ id: string; question: string; website: string; timezone: string }[]>`
    select id, question, website, timezone from timers where feed_token_hash = ${tokenHash} and deleted_at is null`;
  return row ? { id: Number(row.id), question: row.question, website: row.website, timezone: row.timezone } : null;
}
