import type { Queue } from 'bullmq';
import { recountFailures } from '../../db/timer-delivery';
import type { Timer } from '../../db/timers';
import type { Event } from '../contract/event';
import { enqueueDelivery } from '../delivery/queue';
import { type RunDeliveriesDeps, type RunMessage, recordRunMessages } from '../delivery/run-deliveries';
import type { DeliverJob } from '../jobs';
import { type AutoPauseDeps, autoPauseIfFailing } from './auto-pause';

export interface AfterRunDeps extends RunDeliveriesDeps, AutoPauseDeps {
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

/**
 * Every rule that applies once a timer run has ended, in one place, so the run calls one thing:
 * - failures in a row are counted; the third pauses the timer and removes its scheduler (auto-pause.ts), with
 *   one alert;
 * - a run with new or changed events is delivered (core/delivery/run-deliveries.ts); none, nothing is sent;
 * - a run skipped for lack of searches tells the user once per allowance period, not every run.
 * The messages are recorded, then enqueued. Safe to call again for the same run: every message is recorded under
 * a unique key before it is sent.
 */
export async function afterTimerRun(deps: AfterRunDeps, input: AfterRunInput): Promise<AfterRunResult> {
  const { timer, runId, outcome } = input;
  // Counted after a success or a failure (a skipped run changes no count); a success may bring the count from
  // the statement that ended it (succeedRun).
  const consecutiveFailures =
    outcome === 'skipped-no-searches'
      ? 0
      : ((outcome === 'succeeded' ? input.consecutiveFailures : undefined) ?? (await recountFailures(deps.sql, timer.id)));
  // Only the call that paused the timer alerts, so the user gets one alert per pause.
  const paused = outcome === 'failed' && (await autoPauseIfFailing(deps, timer.id, consecutiveFailures, input.error ?? null));
  const deliveries = await recordRunMessages(deps, timer, runId, messageAfter(input, paused));
  for (const id of deliveries) await enqueueDelivery(deps.deliveriesQueue, id, deps.deliveryBackoffMs);
  return { deliveries, paused, consecutiveFailures };
}

/** What the run's end is worth telling: its news, the pause it caused, or that searches ran out; null: nothing. */
function messageAfter(input: AfterRunInput, paused: boolean): RunMessage | null {
  if (input.outcome === 'succeeded') return { kind: 'digest', events: input.newOrChangedEvents, now: input.now ?? new Date() };
  if (input.outcome === 'failed') return paused ? { kind: 'paused' } : null;
  return { kind: 'out-of-searches' };
}
