import { createHash, createHmac, randomBytes } from 'node:crypto';

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
