import { lockOwnTimer, markTimerPaused, markTimerResumed, updateTimerChannels } from '../../db/timer-delivery';
import {
  getTimer,
  lockSchedulersShared,
  type Timer,
  updateTimerCheckedOnly,
  updateTimerDefinition,
  updateTimerFilters,
} from '../../db/timers';
import type { TimerFilters } from '../contract/timer-filters';
import { newWebhookSecret } from '../delivery/webhook-signature';
import { type DefinitionEdit, editedDefinition, editsDefinition, sameDefinition, type TimerDefinition } from './edit';
import type { TimerDeps } from './lifecycle';
import { removeTimerScheduler, upsertTimerScheduler, withRedisDeadline } from './scheduler';

export interface TimerSettings {
  paused?: boolean;
  email?: boolean;
  /** null removes the webhook; an address must have passed checkWebhookUrl. */
  webhookUrl?: string | null;
  /** Replaces the filters (resolved by core/filters/resolve.ts); null keeps every event again. */
  filters?: TimerFilters | null;
  /** Deliver only events a page confirmed, corrected or gave (docs/decisions/checked-events.md). */
  checkedOnly?: boolean;
  /** New values for what the timer asks and when (POST /api/schedule's fields); those left out are kept. */
  definition?: DefinitionEdit;
}

/** Checks a website address the edit gives the timer (the private-address guard); throws TimerEditError. */
export type WebsiteGuard = (web: string) => Promise<void>;

/** An edit that cannot be saved, with the sentence that says why (the api answers `status` with it). */
export class TimerEditError extends Error {
  override name = 'TimerEditError';
  constructor(
    message: string,
    readonly status: 400 | 409,
  ) {
    super(message);
  }
}

const CHANGED_MEANWHILE = 'This timer was changed elsewhere while you edited it. Reload Manage Timers and edit it again.';

/**
 * Changes a user's own timer in place: what it asks and when, its filters and its delivery settings, keeping
 * its id and so its runs, feeds, only-new memory and subscribers. A new schedule replaces the job scheduler
 * in one upsertJobScheduler (BullMQ drops the old next fire); pausing removes it and resuming re-adds it, all
 * inside the Postgres transaction like create and delete (core/timers/lifecycle.ts): a Redis failure changes
 * nothing. A new website is checked before any lock is taken (a DNS look-up must not hold the schedulers lock);
 * if the timer changed in between, the edit is refused rather than merged onto values the person did not see.
 * Returns the updated timer (with the webhook's new signing secret when the address is new, to show once), or
 * null for an unknown, deleted or someone else's timer; throws TimerEditError for an edit creation would refuse.
 */
export async function updateTimerSettings(
  deps: TimerDeps,
  userId: number,
  timerId: number,
  settings: TimerSettings,
  guardWebsite: WebsiteGuard = async () => {},
): Promise<(Timer & { webhookSecret: string | null }) | null> {
  return deps.sql.begin(async (tx) => {
    let edited: { from: TimerDefinition; to: TimerDefinition } | null = null;
    if (settings.definition && editsDefinition(settings.definition)) {
      const before = await getTimer(tx, timerId);
      if (!before || before.userId !== userId || before.deletedAt) return null;
      const check = editedDefinition(before, settings.definition);
      if (!check.ok) throw new TimerEditError(check.message, 400);
      if (check.definition.web && check.definition.web !== before.web) await guardWebsite(check.definition.web);
      edited = { from: before, to: check.definition };
    }
    await lockSchedulersShared(tx);
    const timer = await lockOwnTimer(tx, userId, timerId);
    if (!timer) return null;
    if (edited && !sameDefinition(timer, edited.from)) throw new TimerEditError(CHANGED_MEANWHILE, 409);
    const webhookSecret = await updateTimerChannels(
      tx,
      timerId,
      { email: settings.email, webhookUrl: settings.webhookUrl },
      typeof settings.webhookUrl === 'string' ? newWebhookSecret() : null,
    );
    if (settings.filters !== undefined) await updateTimerFilters(tx, userId, timerId, settings.filters);
    if (settings.checkedOnly !== undefined) await updateTimerCheckedOnly(tx, timerId, settings.checkedOnly);
    const rescheduled = edited !== null && !sameDefinition(timer, edited.to);
    if (edited && rescheduled) await updateTimerDefinition(tx, timerId, edited.to);
    const next = { ...timer, ...edited?.to };
    const paused = settings.paused ?? timer.paused;
    if (settings.paused === true && !timer.paused) {
      await markTimerPaused(tx, timerId, null);
      await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId));
    } else if (settings.paused === false && timer.paused) {
      await markTimerResumed(tx, timerId);
      await withRedisDeadline(() => upsertTimerScheduler(deps.timersQueue, next));
    } else if (rescheduled && !paused) {
      await withRedisDeadline(() => upsertTimerScheduler(deps.timersQueue, next));
    }
    const updated = await getTimer(tx, timerId);
    return updated ? { ...updated, webhookSecret } : null;
  });
}
