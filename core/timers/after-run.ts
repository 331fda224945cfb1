import type { Queue } from 'bullmq';
import type { Sql } from '../../db/client';
import type { RunEvent } from '../../db/events';
import { recordDelivery, type DeliveryChannel, type DeliveryKind } from '../../db/deliveries';
import { markTimerPaused, recountFailures } from '../../db/timer-delivery';
import { lockSchedulersShared, type Timer } from '../../db/timers';
import type { Config } from '../config';
import type { Event } from '../contract/event';
import type { DeliverJob, RunTimerJob } from '../jobs';
import type { Logger } from '../logger';
import { removeTimerScheduler, withRedisDeadline } from '../timers/scheduler';
import { digestWindow } from './digest-window';
import { enqueueDelivery } from './queue';
import { AUTO_PAUSE_AFTER_FAILURES, autoPauseReason } from './rules';

export interface AfterRunDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
  timersQueue: Queue<RunTimerJob>;
  deliveriesQueue: Queue<DeliverJob>;
  /** First retry delay of delivery jobs; the default (30 s) unless a test shortens it. */
  deliveryBackoffMs?: number;
}

/** How a timer run ended: searched, failed for good (after its retries), or skipped with no searches left. */
export type RunOutcome = 'succeeded' | 'failed' | 'skipped-no-searches';

export interface AfterRunInput {
  timer: Timer;
  runId: number;
  outcome: RunOutcome;
  /** The run's events the timer had not seen, or whose status moved or was cancelled (empty for failed runs). */
  newOrChangedEvents: Event[];
  /** The failed or skipped run's sentence (shown in the alert). */
  error?: string | null;
  /** A succeeded run's failures in a row, when the statement that ended it already recounted them (succeedRun). */
  consecutiveFailures?: number;
  /** When the run ended: events that ended 30 days before it are left out of digests (default: now). */
  now?: Date;
}

export interface AfterRunResult {
  /** Deliveries recorded and enqueued by this call. */
  deliveries: number[];
  /** True when this call paused the timer. */
  paused: boolean;
  consecutiveFailures: number;
}

/** What a run found that is worth a message: events the timer never saw, and ones that moved or were cancelled. */
export function newOrChanged(runEvents: RunEvent[]): Event[] {
  return runEvents.filter((r) => r.event.new || r.changed).map((r) => r.event);
}

/**
 * Every rule that applies once a timer run has ended, in one place, so the run path calls one thing:
 * - a run with new or changed events is delivered (email when on, webhook when set); none, nothing is sent;
 *   events that ended more than 30 days before, and new ones already over, are left out (counted and logged);
 * - failures in a row are counted; the third pauses the timer (scheduler removed) with one alert;
 * - a run skipped for lack of searches tells the user once per allowance period, not every run.
 * Safe to call again for the same run: every message is recorded under a unique key before it is sent.
 */
export async function afterTimerRun(deps: AfterRunDeps, input: AfterRunInput): Promise<AfterRunResult> {
  const { timer, runId } = input;
  const result: AfterRunResult = { deliveries: [], paused: false, consecutiveFailures: 0 };
  const record = async (channel: DeliveryChannel, kind: DeliveryKind, extra: { events?: Event[]; usageEpoch?: number } = {}) => {
    const id = await recordDelivery(deps.sql, { timerId: timer.id, runId, userId: timer.userId, channel, kind, ...extra });
    if (id === null) return;
    await enqueueDelivery(deps.deliveriesQueue, id, deps.deliveryBackoffMs);
    result.deliveries.push(id);
  };
  const emailOn = deps.config.mail.url !== null && timer.email;

  if (input.outcome === 'succeeded') {
    result.consecutiveFailures = input.consecutiveFailures ?? (await recountFailures(deps.sql, timer.id));
    const { kept, dropped, past } = digestWindow(input.newOrChangedEvents, input.now ?? new Date());
    if (dropped > 0 || past > 0) {
      deps.logger.info(
        { timerId: timer.id, runId, dropped, past, kept: kept.length },
        `left ${dropped} long-past and ${past} new but already over events out of the digest`,
      );
    }
    if (kept.length === 0) return result;
    if (emailOn) await record('email', 'digest', { events: kept });
    if (timer.webhookUrl) await record('webhook', 'digest', { events: kept });
    return result;
  }

  if (input.outcome === 'failed') {
    result.consecutiveFailures = await recountFailures(deps.sql, timer.id);
    if (result.consecutiveFailures < AUTO_PAUSE_AFTER_FAILURES) return result;
    result.paused = await autoPause(deps, timer.id, autoPauseReason(result.consecutiveFailures, input.error ?? null));
    // Only the call that paused the timer alerts, so the user gets one alert per pause.
    if (!result.paused) return result;
    deps.logger.warn({ timerId: timer.id, failures: result.consecutiveFailures }, 'timer paused after failed runs');
    if (emailOn) await record('email', 'paused');
    if (timer.webhookUrl) await record('webhook', 'paused');
    return result;
  }

  // Skipped: one notice per user and allowance period (a unique index), whichever timer hits it first.
  if (emailOn) {
    const [account] = await deps.sql<{ usage_epoch: number }[]>`select usage_epoch from accounts where user_id = ${timer.userId}`;
    await record('email', 'out-of-searches', { usageEpoch: account?.usage_epoch ?? 0 });
  }
  return result;
}

/**
 * Pauses the timer in Postgres and removes its scheduler. Unlike a pause from the page, a Redis failure does
 * not undo it: the timer stays paused and the worker's reconcile pass removes the scheduler of a paused timer.
 */
async function autoPause(deps: AfterRunDeps, timerId: number, reason: string): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    await lockSchedulersShared(tx);
    if (!(await markTimerPaused(tx, timerId, reason))) return false;
    await withRedisDeadline(() => removeTimerScheduler(deps.timersQueue, timerId)).catch((err: Error) =>
      deps.logger.warn({ timerId, err: err.message }, 'paused timer keeps its scheduler until the next reconcile'),
    );
    return true;
  });
}
