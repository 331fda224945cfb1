import type { Sql } from '../../db/client';
import { claimFire } from '../../db/timer-runs';

/** The run of a timer's fire at `at`, claimed as the worker claims it; throws when the timer cannot be claimed. */
export async function claimedRun(sql: Sql, timerId: number, at: Date): Promise<{ id: number }> {
  const claim = await claimFire(sql, timerId, at, false);
  if (claim.kind !== 'claimed') throw new Error(`timer ${timerId} not claimed: ${claim.kind}`);
  return claim.run;
}
