import type { Sql } from '../../db/client';
import { deleteSessionReturningHash } from '../../db/sessions';
import type { SessionRevocations } from './session-revocation';

/** Ends one session (logout, a new sign-in in the same browser): its row, then its proofs on every process. */
export async function endSession(sql: Sql, revocations: SessionRevocations, token: string | undefined): Promise<void> {
  const hash = await deleteSessionReturningHash(sql, token);
  if (hash) await revocations.revoke([hash]);
}
