import type { Timer } from '../../db/timers';
import type { Event } from '../contract/event';
import { recordRunMessages, type RunDeliveriesDeps } from '../delivery/run-deliveries';
import { recountFailures } from '../../db/timer-delivery';
import { type AutoPauseDeps, autoPauseIfFailing } from './auto-pause';

export type AfterRunDeps = RunDeliveriesDeps & AutoPauseDeps;

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
 * - a run with new or changed events is delivered (core/delivery/run-deliveries.ts); none, nothing is sent;
 * - failures in a row are counted; the third pauses the timer (scheduler removed, auto-pause.ts) with one alert;
 * - a run skipped for lack of searches tells the user once per allowance period, not every run.
 * Safe to call again for the same run: every message is recorded under a unique key before it is sent.
 */
export async function afterTimerRun(deps: AfterRunDeps, input: AfterRunInput): Promise<AfterRunResult> {
  const { timer, runId } = input;
  switch (input.outcome) {
    case 'succeeded': {
      const consecutiveFailures = input.consecutiveFailures ?? (await recountFailures(deps.sql, timer.id));
      const message = { kind: 'digest' as const, events: input.newOrChangedEvents, now: input.now ?? new Date() };
      return { deliveries: await recordRunMessages(deps, timer, runId, message), paused: false, consecutiveFailures };
    }
    case 'failed': {
      const { consecutiveFailures, paused } = await autoPauseIfFailing(deps, timer.id, input.error ?? null);
      // Only the call that paused the timer alerts, so the user gets one alert per pause.
      const deliveries = paused ? await recordRunMessages(deps, timer, runId, { kind: 'paused' }) : [];
      return { deliveries, paused, consecutiveFailures };
    }
    case 'skipped-no-searches':
      return {
        deliveries: await recordRunMessages(deps, timer, runId, { kind: 'out-of-searches' }),
        paused: false,
        consecutiveFailures: 0,
      };
  }
}
