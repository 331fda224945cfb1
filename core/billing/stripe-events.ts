import type Stripe from 'stripe';
import { lockAccountByCustomer, lockAccountByUser, recordStripeEvent } from '../../db/billing';
import type { BillingDeps } from './deps';
import { isMissingInStripe } from './missing';
import { idOf } from './subscription-state';
import { syncSubscription } from './sync';

export type EventOutcome = 'duplicate' | 'ignored' | 'no-account' | 'attached' | 'renewed' | 'updated' | 'ended' | 'unchanged';

interface Target {
  subscriptionId: string;
  customerId: string | null;
  /** checkout.session.completed names the user it was opened for. */
  userId: number | null;
}

/** Which subscription (and whose) an event is about; null for events the product does not act on. */
export function eventTarget(event: Stripe.Event): Target | null {
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = event.data.object;
      const subscriptionId = idOf(s.subscription);
      const userId = Number(s.client_reference_id);
      if (s.mode !== 'subscription' || !subscriptionId) return null;
      return { subscriptionId, customerId: idOf(s.customer), userId: Number.isSafeInteger(userId) && userId > 0 ? userId : null };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const s = event.data.object;
      return { subscriptionId: s.id, customerId: idOf(s.customer), userId: null };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      // API 2025-03-31 moved invoice.subscription under parent.subscription_details.
      const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription ?? legacy);
      return subscriptionId ? { subscriptionId, customerId: idOf(invoice.customer), userId: null } : null;
    }
    default:
      return null;
  }
}

/**
 * Applies a verified event exactly once: its id is recorded in the same transaction as its effect, so a
 * redelivery (even a concurrent one, which waits on the id's key) changes nothing. Throws on Stripe or database
 * failure, so the webhook answers 5xx and Stripe delivers again later.
 */
export async function handleStripeEvent(deps: BillingDeps, event: Stripe.Event): Promise<EventOutcome> {
  return deps.sql.begin(async (tx): Promise<EventOutcome> => {
    if (!(await recordStripeEvent(tx, event))) return 'duplicate';
    const target = eventTarget(event);
    if (!target) return 'ignored';
    let account = target.userId ? await lockAccountByUser(tx, target.userId) : null;
    // A session's client_reference_id must agree with the customer we created for that user.
    if (account && account.stripeCustomerId !== target.customerId) account = null;
    if (!account && target.customerId) account = await lockAccountByCustomer(tx, target.customerId);
    if (!account) return 'no-account';
    try {
      return await syncSubscription(tx, deps.stripe, account, target.subscriptionId, {
        // Only a paid invoice opens a new allowance period; other events follow tier and status.
        newPeriod: event.type === 'invoice.paid',
        syncedAt: new Date(event.created * 1000),
      });
    } catch (err) {
      // A subscription Stripe does not know (another account's or test-mode event, or one deleted by hand)
      // will not appear on any redelivery either: the event is recorded and dropped instead of failing for the
      // three days Stripe keeps retrying. The account is left as it is.
      if (isMissingInStripe(err)) return 'ignored';
      throw err;
    }
  });
}
