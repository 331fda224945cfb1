import type { Queue } from 'bullmq';
import { recordAfterRun } from '../../db/after-run';
import type { Sql } from '../../db/client';
import { activeTimerChannels } from '../../db/timer-channels';
import type { Timer } from '../../db/timers';
import type { Event } from '../contract/event';
import { enqueueDelivery } from '../delivery/queue';
import { planRunMessages, type RunDeliveriesDeps, type RunMessage } from '../delivery/run-deliveries';
import type { DeliverJob } from '../jobs';
import { type AutoPauseDeps, autoPauseAfter, removePausedScheduler } from './auto-pause';

export interface AfterRunDeps extends RunDeliveriesDeps, AutoPauseDeps {
  sql: Sql;
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
  /** The timer's failed runs in a row as the run's end left them (db/timer-runs.ts `endRun`); unused for a skipped run. */
  consecutiveFailures: number;
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

/**
 * Every rule that applies once a timer run has ended, in one place, so the run calls one thing:
 * - the failures in a row, counted as the run ended; the third pauses the timer and removes its scheduler
 *   (auto-pause.ts), with one alert;
 * - a run with new or changed events is delivered (core/delivery/run-deliveries.ts); none, nothing is sent;
 * - a run skipped for lack of searches tells the user once per allowance period, not every run.
 * The pause and the messages are one Postgres transaction (db/after-run.ts), in which the paused timer's
 * scheduler is removed; the messages are enqueued once it has committed. Safe to call again for the same run:
 * every message is recorded under a unique key before it is sent, and only the call that paused alerts.
 */
export async function afterTimerRun(deps: AfterRunDeps, input: AfterRunInput): Promise<AfterRunResult> {
  const { timer, runId, outcome } = input;
  // Counted by the run's end after a success or a failure; a skipped run changes no count.
  const consecutiveFailures = outcome === 'skipped-no-searches' ? 0 : input.consecutiveFailures;
  const pauseReason = outcome === 'failed' ? autoPauseAfter(consecutiveFailures, input.error ?? null) : null;
  const planned = planRunMessages(deps, timer, runId, messageAfter(input), await activeTimerChannels(deps.sql, timer.id));
  // A failed run's one message is the alert of the pause it caused.
  const messages = outcome === 'failed' ? [] : planned;
  const alerts = outcome === 'failed' ? planned : [];
  if (pauseReason === null && messages.length === 0) return { deliveries: [], paused: false, consecutiveFailures };
  const { paused, deliveries } = await deps.sql.begin(async (tx) => {
    const recorded = await recordAfterRun(tx, { timerId: timer.id, userId: timer.userId, pauseReason, messages, alerts });
    if (recorded.paused) await removePausedScheduler(deps, timer.id);
    return recorded;
  });
  if (paused) deps.logger.warn({ timerId: timer.id, failures: consecutiveFailures }, 'timer paused after failed runs');
  for (const id of deliveries) await enqueueDelivery(deps.deliveriesQueue, id, deps.deliveryBackoffMs);
  return { deliveries, paused, consecutiveFailures };
}

/** What the run's end is worth telling: its news, the pause it may cause, or that searches ran out. */
function messageAfter(input: AfterRunInput): RunMessage {
  if (input.outcome === 'succeeded') return { kind: 'digest', events: input.newOrChangedEvents, now: input.now ?? new Date() };
  if (input.outcome === 'failed') return { kind: 'paused' };
  return { kind: 'out-of-searches' };
}
