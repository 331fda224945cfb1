import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { type FeedTimer, feedByTokenHash, feedNoncesOf, replaceFeedNonce, storeFirstFeedNonce } from '../../db/feeds';

/** A fresh per-timer nonce: 128 random bits. A new nonce makes a new token and retires the old one. */
export const newFeedNonce = (): string => randomBytes(16).toString('base64url');

/**
 * The feed token of a timer: HMAC-SHA256 of the timer and its nonce under the server's secret (256 bits).
 * Postgres holds the nonce and the token's hash only, so a leaked table yields no working feed URL; the
 * server can still show the URL to its owner on every visit, which a random token stored hashed could not.
 */
export function feedToken(secret: string, timerId: number, nonce: string): string {
  return createHmac('sha256', secret).update(`feed:${timerId}:${nonce}`).digest('base64url');
}

export const feedTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as it may appear in a URL (43 base64url characters); anything else is not looked up. */
export const isFeedTokenShape = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

export function feedUrls(appUrl: string, token: string): { ical_url: string; atom_url: string } {
  return { ical_url: `${appUrl}/feeds/${token}.ics`, atom_url: `${appUrl}/feeds/${token}.atom` };
}

/** The same calendar as a webcal:// link, which calendar apps open as a subscription. */
export const webcalUrl = (icalUrl: string): string => icalUrl.replace(/^https?:/, 'webcal:');

/** The feed tokens of the given timers (of one user), giving a nonce to timers that have none yet. */
export async function feedTokensOf(sql: Db, secret: string, timerIds: number[]): Promise<Map<number, string>> {
  const tokens = new Map<number, string>();
  if (timerIds.length === 0) return tokens;
  for (const [id, stored] of await feedNoncesOf(sql, timerIds)) {
    let nonce = stored;
    if (!nonce) {
      const fresh = newFeedNonce();
      nonce = await storeFirstFeedNonce(sql, id, fresh, feedTokenHash(feedToken(secret, id, fresh)));
    }
    tokens.set(id, feedToken(secret, id, nonce));
  }
  return tokens;
}

/** A new token for the user's own active timer (the old one then matches nothing); null when not theirs. */
export async function rotateFeedToken(sql: Db, secret: string, userId: number, timerId: number): Promise<string | null> {
  const nonce = newFeedNonce();
  const token = feedToken(secret, timerId, nonce);
  return (await replaceFeedNonce(sql, userId, timerId, nonce, feedTokenHash(token))) ? token : null;
}

/**
 * The active timer a feed token belongs to, with a fingerprint of what its feeds hold from `windowStart` on, in
 * one indexed read (docs/decisions/data-lifecycle.md); null when the token is unknown, rotated away, or its timer deleted.
 */
export const feedByToken = (
  sql: Db,
  token: string,
  windowStart: Date,
): Promise<{ timer: FeedTimer; version: string; modified: Date } | null> => feedByTokenHash(sql, feedTokenHash(token), windowStart);
