import { deleteExpiredSessions } from '../db/sessions';
import { retentionIfDue } from './retention';
import { type RepairDeps, repairTimers } from './timers/repair';
import type { ReconcileResult } from './timers/reconcile';

/**
 * The periodic pass one worker of the fleet runs (the worker decides when, and which worker): timers repaired
 * (core/timers/repair.ts), expired sessions deleted and, once a day, what is kept no longer removed
 * (core/retention.ts, docs/decisions/data-lifecycle.md).
 */
export async function upkeepPass(deps: RepairDeps & { queuePrefix: string }): Promise<ReconcileResult> {
  const result = await repairTimers(deps);
  // Ended sessions are refused anyway; deleting them keeps the table (and its index) to live ones.
  const sessions = await deleteExpiredSessions(deps.sql);
  if (sessions) deps.logger.info({ sessions }, 'deleted expired sessions');
  const retained = await retentionIfDue(deps.sql, deps.redis, deps.queuePrefix);
  if (retained) deps.logger.info(retained, 'retention pass: deleted old searches, timer runs and remembered events');
  return result;
}
