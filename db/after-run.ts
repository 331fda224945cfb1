import { usageEpochOf } from './accounts';
import type { Tx } from './client';
import { type NewDelivery, recordDelivery } from './deliveries';
import { markTimerPaused } from './timer-delivery';
import { lockSchedulersShared } from './timers';

/** What a timer run's end leaves to record: the pause its failures call for, and its messages. */
export interface AfterRunRecord {
  timerId: number;
  userId: number;
  /** Why the timer pauses itself now; null when its failures do not call for a pause. */
  pauseReason: string | null;
  /** Recorded whatever happens (a digest, the out-of-searches notice). */
  messages: Omit<NewDelivery, 'usageEpoch'>[];
  /** Recorded only when this call paused the timer (the pause's alert), so one pause alerts once. */
  alerts: Omit<NewDelivery, 'usageEpoch'>[];
}

/**
 * The Postgres side of what follows a timer run's end, in the caller's transaction: the pause (under the
 * schedulers lock, as every scheduler change; only an active, unpaused timer pauses), then the messages
 * recorded (the out-of-searches notice keyed on the user's allowance period). Returns whether this call paused
 * the timer and the deliveries to enqueue once the transaction has committed.
 */
export async function recordAfterRun(tx: Tx, r: AfterRunRecord): Promise<{ paused: boolean; deliveries: number[] }> {
  let paused = false;
  if (r.pauseReason !== null) {
    await lockSchedulersShared(tx);
    paused = await markTimerPaused(tx, r.timerId, r.pauseReason);
  }
  const recorded = paused ? [...r.messages, ...r.alerts] : r.messages;
  const usageEpoch = recorded.some((d) => d.kind === 'out-of-searches') ? await usageEpochOf(tx, r.userId) : undefined;
  const deliveries: number[] = [];
  for (const d of recorded) {
    const id = await recordDelivery(tx, { ...d, usageEpoch });
    if (id !== null) deliveries.push(id);
  }
  return { paused, deliveries };
}
