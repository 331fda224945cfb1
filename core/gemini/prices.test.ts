import { describe, expect, it } from 'vitest';
import { estimateCost, priceFor, priceTable } from './prices';
import type { GeminiUsage } from './usage';

const usage: GeminiUsage = { calls: 1, promptTokens: 1000, outputTokens: 500, thinkingTokens: 300, groundingQueries: 2, groundedCalls: 1 };
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('the price table', () => {
  const table = priceTable([]);

  it('prices a Gemini 3 call per search query and thinking as output (Google, 2026-11)', () => {
    // 1,000 × $0.75/M + 800 × $3.75/M + 2 queries × $14/1,000
    expect(estimateCost(table, 'gemini-3.8-flash', usage, day('2026-11-25'))).toBeCloseTo(0.00075 + 0.003 + 0.028, 9);
  });

  it('takes the row whose day has begun: 3.8 Flash doubles on 2027-01-01', () => {
    expect(priceFor(table, 'gemini-3.8-flash', day('2026-12-31'))?.inputPerMillion).toBe(0.75);
    expect(priceFor(table, 'gemini-3.8-flash', day('2027-01-01'))?.inputPerMillion).toBe(1.5);
  });

  it('prices a Gemini 2.5 call that searched once, however many queries it ran', () => {
    const cost = estimateCost(table, 'gemini-2.5-flash', { ...usage, groundingQueries: 5 }, day('2026-11-25'));
    expect(cost).toBeCloseTo((1000 * 0.3 + 800 * 2.5) / 1e6 + 0.035, 9);
  });

  it('halves the tokens on Flex, never the search queries', () => {
    const standard = estimateCost(table, 'gemini-3.5-flash', usage, day('2026-11-25'));
    const flex = estimateCost(table, 'gemini-3.5-flash', usage, day('2026-11-25'), 'flex');
    expect(standard - flex).toBeCloseTo((1000 * 1.5 + 800 * 9) / 2e6, 9);
  });

  it('prices an unlisted model high rather than low: a 3.x Flash as the dearest 3.x Flash, a 3.x Pro as Pro', () => {
    expect(priceFor(table, 'gemini-3.6-flash', day('2026-11-25'))).toMatchObject({ model: 'gemini-3', outputPerMillion: 9 });
    expect(priceFor(table, 'gemini-3.7-pro-preview', day('2026-11-25'))).toMatchObject({ inputPerMillion: 2, outputPerMillion: 12 });
  });

  it('prices the Flash-Lites of Gemini 3 at their own rows, per search query (Google, 2026-11)', () => {
    // 3.5 Flash-Lite: 1,000 × $0.30/M + 800 × $2.50/M + 2 queries × $14/1,000
    expect(estimateCost(table, 'gemini-3.5-flash-lite', usage, day('2026-11-27'))).toBeCloseTo(0.0003 + 0.002 + 0.028, 9);
    // 3.1 Flash-Lite: 1,000 × $0.25/M + 800 × $1.50/M + the same queries
    expect(estimateCost(table, 'gemini-3.1-flash-lite', usage, day('2026-11-27'))).toBeCloseTo(0.00025 + 0.0012 + 0.028, 9);
    // The longest name wins: a Flash-Lite is not priced as the Flash of its version, and a dated name is its model's.
    expect(priceFor(table, 'gemini-3.5-flash-lite', day('2026-11-27'))).toMatchObject({ inputPerMillion: 0.3, outputPerMillion: 2.5 });
    expect(priceFor(table, 'models/gemini-3.1-flash-lite-preview', day('2026-11-27'))).toMatchObject({ inputPerMillion: 0.25 });
    expect(priceFor(table, 'gemini-3.5-flash', day('2026-11-27'))).toMatchObject({ inputPerMillion: 1.5, outputPerMillion: 9 });
    // No dated row: the same prices from 2027-01-01, when 3.8 Flash's double.
    expect(priceFor(table, 'gemini-3.5-flash-lite', day('2027-01-01'))).toMatchObject({ inputPerMillion: 0.3, outputPerMillion: 2.5 });
  });

  it('prices an unlisted 3.x Flash-Lite as the dearest listed 3.x Flash-Lite: within its line, and high', () => {
    for (const name of ['gemini-3.9-flash-lite', 'gemini-3-flash-lite-preview', 'gemini-3.6-flash-lite-preview-01-2027']) {
      // 3.5 Flash-Lite's $0.30 / $2.50, not 3.1's $0.25 / $1.50, nor a Flash's $1.50 / $9, nor 2.5's per-call search.
      expect(priceFor(table, name, day('2026-11-27'))).toMatchObject({
        inputPerMillion: 0.3,
        outputPerMillion: 2.5,
        searchBilledPer: 'query',
      });
      expect(priceFor(table, name, day('2027-06-01'))).toMatchObject({ inputPerMillion: 0.3, outputPerMillion: 2.5 });
    }
  });

  it('prices gemini-3-pro-preview at its own row, not the 3.x Flash one ($2/$12 per million, Google 2026-11)', () => {
    const pro = { calls: 1, promptTokens: 1_000_000, outputTokens: 1_000_000, thinkingTokens: 0, groundingQueries: 0, groundedCalls: 0 };
    expect(estimateCost(table, 'gemini-3-pro-preview', pro, day('2026-11-25'))).toBeCloseTo(14, 9);
    expect(estimateCost(table, 'models/gemini-3-pro-preview', pro, day('2026-11-25'))).toBeCloseTo(14, 9);
  });

  it('prices a model that matches no row at the dearest row in force, never at $0', () => {
    // Gemini 2.5 Pro is the dearest for a grounded call: $1.25 + $10 per million tokens and $35 per 1,000 grounded calls.
    expect(priceFor(table, 'learnlm-2.0-flash-experimental', day('2026-11-25'))).toMatchObject({ model: 'gemini-2.5-pro' });
    expect(estimateCost(table, 'gemini-4-ultra', usage, day('2026-11-25'))).toBeCloseTo((1000 * 1.25 + 800 * 10) / 1e6 + 0.035, 9);
  });

  it("lays the operator's rows (GEMINI_PRICES) over Google's", () => {
    const own = priceTable([
      { model: 'gemini-3.8-flash', inputPerMillion: 0, outputPerMillion: 0, searchPerThousand: 0, searchBilledPer: 'query' },
    ]);
    expect(estimateCost(own, 'gemini-3.8-flash', usage, day('2026-11-25'))).toBe(0);
    // The dated row still applies from its day.
    expect(priceFor(own, 'gemini-3.8-flash', day('2027-02-01'))?.inputPerMillion).toBe(1.5);
  });
});
