import type { BillingReply } from '../../core/contract/billing';
import { type Plan, planOf } from '../../core/plans';
import { formatDay } from '../../core/time/date-words';

// Dates and counts the first paint shows; times (a timer's clock, a run's moment) are in ./format-time.ts.

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The day a moment falls on in the browser's zone, in the one style (docs/decisions/time.md): "Tue 1 Dec 2026". The
 * browser's own zone is its Date's, so no zone code (core's offsets, Intl formats) is part of the first paint.
 */
export function formatDate(iso: string): string {
  const at = new Date(iso);
  return formatDay(`${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`);
}

/** "1 search", "10 searches". */
export const searches = (n: number) => `${n} ${n === 1 ? 'search' : 'searches'}`;

/** The credits badge: "1 search left", "10 searches left". */
export const searchesLeft = (credits: number) => `${searches(credits)} left`;

type Usage = Pick<BillingReply, 'subscription_tier' | 'allowance' | 'searches_used'>;

/**
 * Under the badge, why it shows fewer searches than the plan's monthly number: "You have used 10 of this
 * month's 50 searches." (after a switch mid-month too: what was used counts). Null when none are used.
 */
export function usedThisMonth({ subscription_tier, allowance, searches_used: used }: Usage): string | null {
  if (used <= 0) return null;
  if (used > allowance) return `You have used ${searches(used)} this month; ${planOf(subscription_tier).name} has ${allowance} a month.`;
  return `You have used ${used} of this month's ${searches(allowance)}.`;
}

/**
 * What switching to `plan` does to this month's searches, said before the switch is confirmed: the searches
 * used this month count against the new plan's number, at once.
 */
export function planChangeNote(billing: Usage & Pick<BillingReply, 'credits'>, plan: Plan): string {
  const used = billing.searches_used;
  const after = Math.max(plan.searchesPerMonth - used, 0);
  const why = `${plan.name} has ${plan.searchesPerMonth} a month${used > 0 ? `, and the ${searches(used)} you used this month count` : ''}`;
  if (after === billing.credits) {
    return after === 0
      ? `You still have no searches left this month: ${why}.`
      : `You keep your ${searches(after)} left this month: ${why}.`;
  }
  return `Your ${searches(billing.credits)} left this month become ${after} at once: ${why}.`;
}
