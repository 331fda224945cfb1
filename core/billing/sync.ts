import type Stripe from 'stripe';
import { applySubscriptionState, type BillingAccount } from '../../db/billing';
import type { Tx } from '../../db/client';
import { subscriptionState } from './subscription-state';

/**
 * Applies a subscription's state to an account locked in `tx`. Events are never trusted for state: the
 * subscription is read from Stripe now (or is a reply Stripe just gave), so an older payload, delivered late
 * or out of order, cannot overwrite a newer state; the row lock orders concurrent syncs of one account.
 */
export async function syncSubscription(
  tx: Tx,
  stripe: Stripe,
  account: BillingAccount,
  subscription: string | Stripe.Subscription,
  options: { newPeriod: boolean; syncedAt: Date },
) {
  const sub = typeof subscription === 'string' ? await stripe.subscriptions.retrieve(subscription) : subscription;
  return applySubscriptionState(tx, account, subscriptionState(sub), options);
}
