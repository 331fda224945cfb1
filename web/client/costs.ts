import type { ScheduleType } from '../../core/contract/schedule-values';
import type { BillingInfo } from './app-state';
import { formatDate, searches } from './format';

// What an action costs, said before it is taken: every search (asked, run now, or run by a timer) uses one of
// the month's searches.

/** Runs in a month, roughly: the number a person plans with, not a calendar count. */
const RUNS_PER_MONTH: Record<ScheduleType, number> = { daily: 30, weekly: 4 };

/** Beside Run now: "Run now uses 1 of your 7 searches left." */
export function runNowCost(billing: BillingInfo | null): string {
  if (!billing) return 'Run now uses one of your searches this month.';
  if (billing.credits <= 0)
    return `You have no searches left, so Run now is refused until they renew on ${formatDate(billing.period_end)}.`;
  if (billing.credits === 1) return 'Run now uses your last search this month.';
  return `Run now uses 1 of your ${searchesLeft(billing.credits)}.`;
}

const searchesLeft = (n: number) => `${searches(n)} left`;

/**
 * Under a timer's schedule: "Each run uses one search. Every day: about 30 searches a month; your plan has 10."
 * and, when that is more than the plan gives, what happens to the runs beyond it.
 */
export function timerCost(scheduleType: ScheduleType, billing: BillingInfo | null): string {
  const runs = RUNS_PER_MONTH[scheduleType];
  const when = scheduleType === 'daily' ? 'Every day' : 'Every week';
  const cost = `Each run uses one search. ${when}: about ${runs} searches a month`;
  if (!billing) return `${cost}.`;
  const over = runs > billing.allowance ? ' Once they are used up, runs are skipped until they renew.' : '';
  return `${cost}; your plan has ${billing.allowance}.${over}`;
}
