import type Stripe from 'stripe';
import { forgetStripeSubscription } from '../../db/billing';
import type { Tx } from '../../db/client';

/**
 * True for Stripe's "No such customer / subscription" answer: the id we stored is unknown to the account the
 * secret key belongs to (switched from test to live keys, a different account, an object deleted by hand).
 * Such an id is treated as gone rather than as an outage, so the user can start over instead of being stuck.
 */
export function isMissingInStripe(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'resource_missing';
}

/**
 * The account's subscription as Stripe has it now; null when Stripe does not know it, in which case nothing
 * is billed and the (locked) account is made free.
 */
export async function retrieveOrForgetSubscription(
  stripe: Stripe,
  tx: Tx,
  userId: number,
  subscriptionId: string,
): Promise<Stripe.Subscription | null> {
  try {
    return await stripe.subscriptions.retrieve(subscriptionId);
  } catch (err) {
    if (!isMissingInStripe(err)) throw err;
    await forgetStripeSubscription(tx, userId);
    return null;
  }
}
