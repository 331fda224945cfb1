import type Stripe from 'stripe';
import { isLookupKey, planByLookupKey, type Tier } from '../plans';

/** What a Stripe subscription means for the account, derived from its current state only. */
export type SubscriptionState =
  | { kind: 'paid'; subscriptionId: string; tier: Tier; status: 'active' | 'payment failed'; periodStart: Date; periodEnd: Date }
  /** Over: the account goes back to free. */
  | { kind: 'ended'; subscriptionId: string }
  /** Not paid yet, or not one of our prices: nothing changes. */
  | { kind: 'ignored'; subscriptionId: string; reason: string };

/** The id of an expandable Stripe field (a string, or the object when expanded). */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Maps a subscription to the account's terms. The period comes from the subscription ITEM: Stripe moved
 * current_period_start/end off the subscription onto its items (API 2025-03-31).
 */
export function subscriptionState(sub: Stripe.Subscription): SubscriptionState {
  const subscriptionId = sub.id;
  switch (sub.status) {
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return { kind: 'ended', subscriptionId };
    case 'incomplete':
      return { kind: 'ignored', subscriptionId, reason: 'first payment not completed' };
  }
  const item = sub.items.data[0];
  const lookupKey = item?.price.lookup_key;
  if (!item || !isLookupKey(lookupKey)) {
    return { kind: 'ignored', subscriptionId, reason: `price ${item?.price.id ?? '(none)'} is not one of the plans` };
  }
  return {
    kind: 'paid',
    subscriptionId,
    tier: planByLookupKey(lookupKey).tier,
    // Stripe keeps retrying a failed renewal while past_due; unpaid means it gave up. Both need new card details.
    status: sub.status === 'past_due' || sub.status === 'unpaid' ? 'payment failed' : 'active',
    periodStart: new Date(item.current_period_start * 1000),
    periodEnd: new Date(item.current_period_end * 1000),
  };
}
