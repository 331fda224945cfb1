import { lockAccountByUser, setStripeCustomer } from '../../db/billing';
import type Stripe from 'stripe';
import type { BillingDeps } from './deps';
import { isMissingInStripe } from './missing';

/**
 * The user's Stripe customer, created the first time. The account row stays locked while the customer is
 * created, so concurrent checkouts of one user wait and then reuse it; the idempotency key (unique per account
 * row) also makes a retry after a lost reply or a crash before commit return the same customer.
 */
export async function ensureCustomer({ sql, stripe }: BillingDeps, userId: number): Promise<string> {
  return sql.begin(async (tx) => {
    const account = await lockAccountByUser(tx, userId);
    if (!account) throw new Error(`User ${userId} has no account`);
    if (account.stripeCustomerId && (await stillInStripe(stripe, account.stripeCustomerId))) return account.stripeCustomerId;
    const customer = await stripe.customers.create(
      { email: account.email, metadata: { user_id: String(userId) } },
      // A replacement for a customer Stripe lost needs a key of its own, or Stripe would hand back the old reply.
      {
        idempotencyKey: `eventfinder-customer-${userId}-${account.createdAt.getTime()}${account.stripeCustomerId ? `-after-${account.stripeCustomerId}` : ''}`,
      },
    );
    await setStripeCustomer(tx, userId, customer.id);
    return customer.id;
  });
}

async function stillInStripe(stripe: Stripe, customerId: string): Promise<boolean> {
  try {
    const customer = await stripe.customers.retrieve(customerId);
    return !customer.deleted;
  } catch (err) {
    if (isMissingInStripe(err)) return false;
    throw err;
  }
}
