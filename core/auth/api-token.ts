import { createHash, randomBytes } from 'node:crypto';

// The prefix lets secret scanners (and people) recognise a leaked token; 256 random bits make guessing hopeless,
// so a plain SHA-256 is the right stored form (no slow hash needed for a high-entropy secret).
const PREFIX = 'ef_';
const SHAPE = /^ef_[A-Za-z0-9_-]{43}$/;

/** A new personal API token, its stored hash, and the first characters the page shows to tell tokens apart. */
export function newApiToken(): { token: string; hash: string; hint: string } {
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: apiTokenHash(token), hint: `${token.slice(0, 7)}…` };
}

export const apiTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Whether a presented string can be one of our tokens at all (checked before any lookup). */
export const isApiTokenShape = (token: string): boolean => SHAPE.test(token);
