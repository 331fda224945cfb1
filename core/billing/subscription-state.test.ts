import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { subscriptionState } from './subscription-state';

const subscription = (status: string, lookupKey: string | null = 'plus_monthly') =>
  ({
    id: 'sub_1',
    status,
    items: {
      data: [{ price: { id: 'price_1', lookup_key: lookupKey }, current_period_start: 1_700_000_000, current_period_end: 1_702_592_000 }],
    },
  }) as unknown as Stripe.Subscription;

describe('subscriptionState', () => {
  it('takes tier from the lookup key and the period from the subscription item', () => {
    expect(subscriptionState(subscription('active', 'pro_monthly'))).toEqual({
      kind: 'paid',
      subscriptionId: 'sub_1',
      tier: 'pro',
      status: 'active',
      periodStart: new Date(1_700_000_000_000),
      periodEnd: new Date(1_702_592_000_000),
    });
  });

  it.each(['past_due', 'unpaid'])('%s means payment failed', (status) => {
    expect(subscriptionState(subscription(status))).toMatchObject({ kind: 'paid', status: 'payment failed' });
  });

  it.each(['canceled', 'incomplete_expired', 'paused'])('%s ends the paid plan', (status) => {
    expect(subscriptionState(subscription(status))).toEqual({ kind: 'ended', subscriptionId: 'sub_1' });
  });

  it('ignores a subscription not paid yet or not on one of the plans', () => {
    expect(subscriptionState(subscription('incomplete')).kind).toBe('ignored');
    expect(subscriptionState(subscription('active', 'gold_monthly')).kind).toBe('ignored');
    expect(subscriptionState(subscription('active', null)).kind).toBe('ignored');
  });
});
