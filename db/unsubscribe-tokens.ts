import { randomBytes } from 'node:crypto';
import type { Db } from './client';
import { hashToken } from './sessions';

/** Unsubscribe links: 256 random bits per message, only the SHA-256 stored, like session tokens. */

export async function createUnsubscribeToken(sql: Db, timerId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql`insert into unsubscribe_tokens (token_hash, timer_id) values (${hashToken(token)}, ${timerId})`;
  return token;
}

export interface UnsubscribeTarget {
  timerId: number;
  question: string;
  email: boolean;
}

/** The (not deleted) timer a token unsubscribes from, or null for an unknown token. */
export async function findUnsubscribeTarget(sql: Db, token: string): Promise<UnsubscribeTarget | null> {
  if (!token || token.length > 100) return null;
  const [row] = await sql<{ id: string; question: string; email_enabled: boolean }[]>`
    select t.id, t.question, t.email_enabled from unsubscribe_tokens u join timers t on t.id = u.timer_id
    where u.token_hash = ${hashToken(token)} and t.deleted_at is null`;
  return row ? { timerId: Number(row.id), question: row.question, email: row.email_enabled } : null;
}
