import { lockOwnTimer, markTimerPaused, markTimerResumed, updateTimerChannels } from '../../db/timer-delivery';
import { getTimer, lockSchedulersShared, type Timer, updateTimerCheckedOnly, updateTimerFilters } from '../../db/timers';
import type { TimerFilters } from '../contract/timer-filters';
import { newWebhookSecret } from '../delivery/webhook-signature';
import type { TimerDeps } from './lifecycle';
import { removeTimerScheduler, upsertTimerScheduler, withRedisDeadline } from './scheduler';

export interface TimerSettings {
  paused?: boolean;
  email?: boolean;
  /** null removes the webhook; an address must have passed checkWebhookUrl. */
  webhookUrl?: string | null;
  /** Replaces the filters (resolved by core/filters/resolve.ts); null keeps every event again. */
  filters?: TimerFilters | null;
  /** Deliver only events a page confirmed, corrected or gave (decision 069). */
  checkedOnly?: boolean;
}

/**
 * Changes a user's own timer's delivery settings. Pausing removes its job scheduler and resuming re-adds it,
 * inside the Postgres transaction like create and delete (core/timers/lifecycle.ts): a Redis failure changes nothing.
 * Returns the updated timer (with the webhook's new signing secret when the address is new, to show once), or
 * null for an unknown, deleted or someone else's timer.
 */
export async function updateTimerSettings(
  deps: TimerDeps,
  userId: number,
  timerId: number,
  settings: TimerSettings,
): Promise<(Timer & { webhookSecret: string | null }) | null> {
  return deps.sql.begin(async (tx) => {
    await lockSchedulersShared(tx);
    const timer = await lockOwnTimer(tx, userId, timerId);
    if (!timer) return null;
    const webhookSecret = await updateTimerChannels(
      tx,
      timerId,
      { email: settings.email, webhookUrl: settings.webhookUrl },
      typeof settings.webhookUrl === 'string' ? newWebhookSecret() : null,
    );
    if (settings.filters !== undefined) await updateTimerFilters(tx, userId, timerId, settings.filters);
    if (settings.checkedOnly !== undefined) await updateTimerCheckedOnly(tx, timerId, settings.checkedOnly);
    if (settings.paused === true && !timer.paused) {
      await markTimerPaused(tx, timerId, null);
      await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId));
    } else if (settings.paused === false && timer.paused) {
      await markTimerResumed(tx, timerId);
      await withRedisDeadline(() => upsertTimerScheduler(deps.timersQueue, timer));
    }
    const updated = await getTimer(tx, timerId);
    return updated ? { ...updated, webhookSecret } : null;
  });
}
