import { lockAccountByUser } from '../../db/billing';
import type { BillingDeps } from './deps';
import { retrieveOrForgetSubscription } from './missing';
import { syncSubscription } from './sync';

/** Cancels the paid subscription now; the account is free once this returns. False when there was none. */
export async function cancelSubscription(deps: BillingDeps, userId: number): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    const account = await lockAccountByUser(tx, userId);
    if (!account?.stripeSubscriptionId) return false;
    const current = await retrieveOrForgetSubscription(deps.stripe, tx, userId, account.stripeSubscriptionId);
    // Stripe does not know it (any more): nothing is billed, and the account is already free.
    if (!current) return true;
    // Already canceled in Stripe (e.g. from the portal) but not yet synced: just follow it.
    const canceled = current.status === 'canceled' ? current : await deps.stripe.subscriptions.cancel(current.id);
    await syncSubscription(tx, deps.stripe, account, canceled, { newPeriod: false, syncedAt: new Date() });
    return true;
  });
}
