import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from './client';

export const SESSION_COOKIE = 'ef_session';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session ends this long after it was unused (the sliding lifetime)... */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/** ...and at the latest this long after sign-in, however active it is, so a stolen cookie does not live on. */
export const SESSION_MAX_AGE_MS = 30 * DAY_MS;
// Extending on every request would write on every request; half the idle time keeps expiry sliding cheaply.
const RENEW_WHEN_LEFT_MS = SESSION_IDLE_MS / 2;

export interface SessionUser {
  id: number;
  email: string;
  name: string;
}

export type SessionCheck = { valid: true; user: SessionUser; expiresAt: Date; renewed: boolean } | { valid: false };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a session and returns the raw token for the cookie; only its hash is stored. */
export async function createSession(sql: Sql, userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + Math.min(SESSION_IDLE_MS, SESSION_MAX_AGE_MS));
  await sql`insert into sessions (token_hash, user_id, expires_at)
            values (${hashToken(token)}, ${userId}, ${expiresAt})`;
  return { token, expiresAt };
}

/**
 * Validates a cookie token; slides the expiry forward once half of the idle time has passed, but never past
 * the session's absolute end (SESSION_MAX_AGE_MS after sign-in).
 */
export async function validateSession(sql: Sql, token: string | undefined): Promise<SessionCheck> {
  if (!token || token.length > 100) return { valid: false };
  const hash = hashToken(token);
  const [row] = await sql<{ user_id: string; email: string; name: string; expires_at: Date; created_at: Date }[]>`
    select s.user_id, u.email, u.name, s.expires_at, s.created_at
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${hash} and s.expires_at > now() and s.created_at > ${new Date(Date.now() - SESSION_MAX_AGE_MS)}`;
  if (!row) return { valid: false };
  let expiresAt = row.expires_at;
  let renewed = false;
  const slid = Math.min(Date.now() + SESSION_IDLE_MS, row.created_at.getTime() + SESSION_MAX_AGE_MS);
  if (expiresAt.getTime() - Date.now() < RENEW_WHEN_LEFT_MS && slid > expiresAt.getTime()) {
    expiresAt = new Date(slid);
    await sql`update sessions set expires_at = ${expiresAt} where token_hash = ${hash}`;
    renewed = true;
  }
  return { valid: true, user: { id: Number(row.user_id), email: row.email, name: row.name }, expiresAt, renewed };
}

/** Whether this cookie token's session exists, is unexpired and belongs to `userId` (a session proof's check). */
export async function sessionHeldBy(sql: Sql, token: string, userId: number): Promise<boolean> {
  if (token.length > 100) return false;
  const rows = await sql`select 1 from sessions
                         where token_hash = ${hashToken(token)} and user_id = ${userId} and expires_at > now()`;
  return rows.length > 0;
}

export async function deleteSession(sql: Sql, token: string | undefined): Promise<void> {
  if (!token) return;
  await sql`delete from sessions where token_hash = ${hashToken(token)}`;
}

/** Deletes a cookie token's session; its `token_hash`, or null when there was none. */
export async function deleteSessionReturningHash(sql: Sql, token: string | undefined): Promise<string | null> {
  if (!token || token.length > 100) return null;
  const [row] = await sql<{ token_hash: string }[]>`delete from sessions where token_hash = ${hashToken(token)} returning token_hash`;
  return row?.token_hash ?? null;
}

/** The `token_hash` of every session a user holds. */
export async function sessionTokenHashes(sql: Sql, userId: number): Promise<string[]> {
  const rows = await sql<{ token_hash: string }[]>`select token_hash from sessions where user_id = ${userId}`;
  return rows.map((r) => r.token_hash);
}

/** Deletes ended sessions; every write caps expires_at at the absolute end, so that column alone decides. */
export async function deleteExpiredSessions(sql: Sql): Promise<number> {
  const rows = await sql`delete from sessions where expires_at <= now()`;
  return rows.count;
}

/** Who an operator ends sessions of: one session (its `token_hash`), or every session of a user. */
export type SessionsToEnd = { tokenHash: string } | { userId: number } | { email: string };

/** Deletes the sessions `target` names; their `token_hash`es (none when nothing matched). */
export async function deleteSessionsReturningHashes(sql: Sql, target: SessionsToEnd): Promise<string[]> {
  const rows =
    'tokenHash' in target
      ? await sql<{ token_hash: string }[]>`delete from sessions where token_hash = ${target.tokenHash} returning token_hash`
      : 'userId' in target
        ? await sql<{ token_hash: string }[]>`delete from sessions where user_id = ${target.userId} returning token_hash`
        : await sql<{ token_hash: string }[]>`delete from sessions s using users u
                                              where u.id = s.user_id and lower(u.email) = lower(${target.email})
                                              returning s.token_hash`;
  return rows.map((r) => r.token_hash);
}
