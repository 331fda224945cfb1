import { describe, expect, it } from 'vitest';
import { planOf } from '../../core/plans';
import type { BillingInfo } from './app-state';
import { runNowCost, timerCost } from './costs';
import { planChangeNote, usedThisMonth } from './format';

const billing = (tier: BillingInfo['subscription_tier'], used: number): BillingInfo => {
  const allowance = planOf(tier).searchesPerMonth;
  return {
    subscription_tier: tier,
    allowance,
    searches_used: used,
    credits: Math.max(allowance - used, 0),
    subscription_status: 'active',
    period_end: '2027-01-01T12:00:00Z',
  };
};

describe('what things cost, said before they are spent', () => {
  it('Run now names the searches left, the last one, and none', () => {
    expect(runNowCost(billing('free', 3))).toBe('Run now uses 1 of your 7 searches left.');
    expect(runNowCost(billing('free', 9))).toBe('Run now uses your last search this month.');
    expect(runNowCost(billing('free', 10))).toBe('You have no searches left, so Run now is refused until they renew on Fri 1 Jan 2027.');
    expect(runNowCost(null)).toBe('Run now uses one of your searches this month.');
  });

  it("a timer's schedule against the plan's number", () => {
    expect(timerCost('daily', billing('free', 0))).toBe(
      'Each run uses one search. Every day: about 30 searches a month; your plan has 10. Once they are used up, runs are skipped until they renew.',
    );
    expect(timerCost('daily', billing('plus', 0))).toBe(
      'Each run uses one search. Every day: about 30 searches a month; your plan has 50.',
    );
    expect(timerCost('weekly', billing('free', 0))).toBe(
      'Each run uses one search. Every week: about 4 searches a month; your plan has 10.',
    );
  });

  it('the plans say plainly how many of the month are used, also beyond a smaller plan', () => {
    expect(usedThisMonth(billing('plus', 10))).toBe("You have used 10 of this month's 50 searches.");
    expect(usedThisMonth(billing('free', 1))).toBe("You have used 1 of this month's 10 searches.");
    expect(usedThisMonth(billing('free', 30))).toBe('You have used 30 searches this month; Free has 10 a month.');
    expect(usedThisMonth(billing('pro', 0))).toBeNull();
  });

  it("a plan change says what becomes of this month's searches", () => {
    expect(planChangeNote(billing('pro', 0), planOf('free'))).toBe(
      'Your 120 searches left this month become 10 at once: Free has 10 a month.',
    );
    expect(planChangeNote(billing('pro', 30), planOf('free'))).toBe(
      'Your 90 searches left this month become 0 at once: Free has 10 a month, and the 30 searches you used this month count.',
    );
    expect(planChangeNote(billing('plus', 20), planOf('pro'))).toBe(
      'Your 30 searches left this month become 100 at once: Pro has 120 a month, and the 20 searches you used this month count.',
    );
    expect(planChangeNote(billing('pro', 120), planOf('plus'))).toBe(
      'You still have no searches left this month: Plus has 50 a month, and the 120 searches you used this month count.',
    );
    expect(planChangeNote(billing('plus', 0), planOf('plus'))).toBe('You keep your 50 searches left this month: Plus has 50 a month.');
  });
});
