import type Stripe from 'stripe';
import { PLANS, type LookupKey } from '../plans';

/** The active price with this lookup key, or null when `npm run stripe:setup` has not created it. */
export async function findPlanPrice(stripe: Stripe, lookupKey: LookupKey): Promise<Stripe.Price | null> {
  const prices = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
  return prices.data[0] ?? null;
}

/**
 * Creates the product and monthly price of each paid plan whose lookup key has no price yet. Safe to run
 * again: an existing lookup key is left as it is. Returns what it did per lookup key.
 */
export async function ensurePlanPrices(stripe: Stripe): Promise<Record<LookupKey, 'exists' | 'created'>> {
  const result = {} as Record<LookupKey, 'exists' | 'created'>;
  for (const plan of PLANS) {
    if (!plan.lookupKey) continue;
    if (await findPlanPrice(stripe, plan.lookupKey)) {
      result[plan.lookupKey] = 'exists';
      continue;
    }
    const product = await stripe.products.create(
      { name: `Event Finder ${plan.name}`, metadata: { tier: plan.tier } },
      // A retried run (e.g. after a network error) must not leave a second product behind.
      { idempotencyKey: `eventfinder-product-${plan.lookupKey}-${plan.priceCents}` },
    );
    await stripe.prices.create(
      {
        product: product.id,
        unit_amount: plan.priceCents,
        currency: 'usd',
        recurring: { interval: 'month' },
        lookup_key: plan.lookupKey,
        metadata: { tier: plan.tier },
      },
      { idempotencyKey: `eventfinder-price-${plan.lookupKey}-${plan.priceCents}-${product.id}` },
    );
    result[plan.lookupKey] = 'created';
  }
  return result;
}
