/** The product's plans; the page and the server read this one table. */
export const PLANS = [
  { tier: 'free', name: 'Free', priceCents: 0, searchesPerMonth: 10, lookupKey: null },
  { tier: 'plus', name: 'Plus', priceCents: 299, searchesPerMonth: 50, lookupKey: 'plus_monthly' },
  { tier: 'pro', name: 'Pro', priceCents: 699, searchesPerMonth: 120, lookupKey: 'pro_monthly' },
] as const;

export type Plan = (typeof PLANS)[number];
export type Tier = Plan['tier'];
export type LookupKey = NonNullable<Plan['lookupKey']>;

/** Searches per month of each tier, the argument db/accounts.ts's credit queries take. */
export const ALLOWANCES = Object.fromEntries(PLANS.map((p) => [p.tier, p.searchesPerMonth])) as Readonly<Record<Tier, number>>;

export const TIERS: readonly Tier[] = PLANS.map((p) => p.tier);
export const LOOKUP_KEYS: readonly LookupKey[] = PLANS.flatMap((p) => (p.lookupKey ? [p.lookupKey] : []));

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export function isLookupKey(value: unknown): value is LookupKey {
  return typeof value === 'string' && (LOOKUP_KEYS as readonly string[]).includes(value);
}

export function planOf(tier: Tier): Plan {
  const plan = PLANS.find((p) => p.tier === tier);
  if (!plan) throw new Error(`Unknown tier ${tier}`);
  return plan;
}

export function planByLookupKey(key: LookupKey): Plan {
  const plan = PLANS.find((p) => p.lookupKey === key);
  if (!plan) throw new Error(`Unknown lookup key ${key}`);
  return plan;
}

/** '$2.99/month', or 'Free' for the plan without a charge. */
export function formatPrice(plan: Plan): string {
  return plan.priceCents === 0 ? 'Free' : `$${(plan.priceCents / 100).toFixed(2)}/month`;
}
