import type { Sql } from '../../db/client';
import { deleteSessionReturningHash, deleteSessionsReturningHashes, type SessionsToEnd } from '../../db/sessions';
import type { SessionRevocations } from './session-revocation';

/** Ends one session (logout, a new sign-in in the same browser): its row, then its proofs on every process. */
export async function endSession(sql: Sql, revocations: SessionRevocations, token: string | undefined): Promise<void> {
  const hash = await deleteSessionReturningHash(sql, token);
  if (hash) await revocations.revoke([hash]);
}

/**
 * Ends sessions an operator names (one, or all of a user's), as logout does: the rows first, so a process that
 * misses the announcement and asks Postgres finds them gone, then `announce` tells every api process. Returns
 * how many sessions ended.
 */
export async function endSessionsByOperator(
  sql: Sql,
  announce: (tokenHashes: readonly string[]) => Promise<void>,
  target: SessionsToEnd,
): Promise<number> {
  const hashes = await deleteSessionsReturningHashes(sql, target);
  await announce(hashes);
  return hashes.length;
}
