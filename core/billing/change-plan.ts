import type Stripe from 'stripe';
import { findBillingAccount, lockAccountByUser } from '../../db/billing';
import { planByLookupKey, type LookupKey } from '../plans';
import { ensureCustomer } from './customer';
import type { BillingDeps } from './deps';
import { retrieveOrForgetSubscription } from './missing';
import { findPlanPrice } from './plan-prices';
import { subscriptionState } from './subscription-state';
import { syncSubscription } from './sync';

export type ChangePlanResult = { kind: 'checkout'; url: string } | { kind: 'updated' } | { kind: 'same' } | { kind: 'no-price' };

/**
 * Moves the user to a paid plan: a Checkout Session when there is no paid subscription yet, otherwise the
 * subscription's item switches price (prorated) and the account follows at once; usage is kept either way.
 */
export async function changePlan(deps: BillingDeps, userId: number, lookupKey: LookupKey): Promise<ChangePlanResult> {
  const price = await findPlanPrice(deps.stripe, lookupKey);
  if (!price) return { kind: 'no-price' };
  const account = await findBillingAccount(deps.sql, userId);
  if (account?.stripeSubscriptionId) {
    const switched = await switchSubscription(deps, userId, price);
    if (switched) return switched;
  }
  const customer = await ensureCustomer(deps, userId);
  const opened = await openCheckout(deps, userId, customer, price, lookupKey);
  if (opened) return opened;
  // A paid subscription turned up that the account did not know yet; it is attached now, so switch it.
  const switched = await switchSubscription(deps, userId, price);
  if (!switched) throw new Error(`User ${userId}: the subscription just attached is not live`);
  return switched;
}

/**
 * A new Checkout Session, with every other open one of this customer expired first, under the account lock:
 * two clicks (or two tabs) must not leave two payable checkouts, or both could be paid and billed. Null when
 * the customer already pays for a subscription whose webhook has not arrived yet: it is attached instead of
 * selling a second one.
 */
async function openCheckout(
  deps: BillingDeps,
  userId: number,
  customer: string,
  price: Stripe.Price,
  lookupKey: LookupKey,
): Promise<ChangePlanResult | null> {
  return deps.sql.begin(async (tx) => {
    const account = await lockAccountByUser(tx, userId);
    if (!account) throw new Error(`User ${userId} has no account`);
    const subscriptions = await deps.stripe.subscriptions.list({ customer, status: 'all', limit: 10 });
    const live = subscriptions.data.find((sub) => subscriptionState(sub).kind === 'paid');
    if (live) {
      await syncSubscription(tx, deps.stripe, account, live, { newPeriod: false, syncedAt: new Date() });
      return null;
    }
    const open = await deps.stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 });
    for (const stale of open.data) await deps.stripe.checkout.sessions.expire(stale.id);
    const session = await deps.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(userId),
      line_items: [{ price: price.id, quantity: 1 }],
      // Stripe fills {CHECKOUT_SESSION_ID} in; the page uses it for the Manage Billing form.
      success_url: `${deps.config.appUrl}/?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${deps.config.appUrl}/?canceled=true`,
      metadata: { user_id: String(userId), tier: planByLookupKey(lookupKey).tier },
    });
    if (!session.url) throw new Error(`Checkout session ${session.id} has no url`);
    return { kind: 'checkout', url: session.url };
  });
}

/** Under the account lock: null when the subscription turned out to be over (then checkout starts anew). */
async function switchSubscription(deps: BillingDeps, userId: number, price: Stripe.Price): Promise<ChangePlanResult | null> {
  return deps.sql.begin(async (tx) => {
    const account = await lockAccountByUser(tx, userId);
    if (!account?.stripeSubscriptionId) return null;
    const sub = await retrieveOrForgetSubscription(deps.stripe, tx, userId, account.stripeSubscriptionId);
    if (!sub) return null;
    const state = subscriptionState(sub);
    if (state.kind === 'ended') {
      await syncSubscription(tx, deps.stripe, account, sub, { newPeriod: false, syncedAt: new Date() });
      return null;
    }
    const item = sub.items.data[0];
    if (!item) throw new Error(`Subscription ${sub.id} has no item`);
    if (item.price.id === price.id) {
      await syncSubscription(tx, deps.stripe, account, sub, { newPeriod: false, syncedAt: new Date() });
      return { kind: 'same' };
    }
    const updated = await deps.stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: price.id }],
      proration_behavior: 'create_prorations',
    });
    await syncSubscription(tx, deps.stripe, account, updated, { newPeriod: false, syncedAt: new Date() });
    return { kind: 'updated' };
  });
}
