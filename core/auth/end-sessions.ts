import type { Sql } from '../../db/client';
import { deleteSessionReturningHash, deleteUserSessions } from '../../db/sessions';
import type { SessionRevocations } from './session-revocation';

/** Ends one session (logout, a new sign-in in the same browser): its row, then its proofs on every process. */
export async function endSession(sql: Sql, revocations: SessionRevocations, token: string | undefined): Promise<void> {
  const hash = await deleteSessionReturningHash(sql, token);
  if (hash) await revocations.revoke([hash]);
}

/** Ends every session of a user (an operator's sign-out everywhere); how many there were. */
export async function endSessionsOf(sql: Sql, revocations: SessionRevocations, userId: number): Promise<number> {
  const hashes = await deleteUserSessions(sql, userId);
  await revocations.revoke(hashes);
  return hashes.length;
}
