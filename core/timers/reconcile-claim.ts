import type { RedisClient } from '../redis/client';

/** The claim's key; a test that starts workers afresh clears it, as a Redis flush would. */
export const reconcileClaimKey = (queuePrefix: string) => `${queuePrefix}:timers:reconcile-pass`;

/**
 * A reconcile pass reads every timer and scheduler, so with many workers one pass per period is enough: the
 * first worker to claim the period, at its start or at a tick of its timer, runs it. The claim lapses a little
 * before the period ends, so the next period's first tick, whichever worker's it is, finds it free. Under the
 * queue prefix (a hash tag), so it sits in the queue's own Redis Cluster slot.
 */
export async function claimReconcilePass(redis: RedisClient, queuePrefix: string, periodMs: number): Promise<boolean> {
  const lapseMs = Math.max(1, Math.floor(periodMs * 0.9));
  return (await redis.set(reconcileClaimKey(queuePrefix), '1', 'PX', lapseMs, 'NX')) === 'OK';
}
