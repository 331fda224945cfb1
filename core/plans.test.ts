import { describe, expect, it } from 'vitest';
import { formatPrice, isLookupKey, planByLookupKey, planOf, PLANS } from './plans';

describe('plans', () => {
  it('holds the spec allowances and prices', () => {
    expect(PLANS.map((p) => [p.tier, p.searchesPerMonth, formatPrice(p)])).toEqual([
      ['free', 10, 'Free'],
      ['plus', 50, '$2.99/month'],
      ['pro', 120, '$6.99/month'],
    ]);
  });
  it('maps lookup keys both ways', () => {
    expect(planByLookupKey('pro_monthly').tier).toBe('pro');
    expect(planOf('plus').lookupKey).toBe('plus_monthly');
    expect(isLookupKey('plus_monthly')).toBe(true);
    expect(isLookupKey('free')).toBe(false);
  });
});
