import * as z from 'zod';
import type { GeminiUsage } from './usage';

/**
 * One row of the price table: USD for a model whose name starts with `model`, from a day on. Tokens are priced
 * per million (thinking tokens as output, as Google bills them); Google Search grounding per thousand, either
 * per search query the model ran (Gemini 3) or per call that searched at all (Gemini 2.5).
 */
export const priceSchema = z.object({
  model: z.string().min(1),
  /** First day (UTC) the row applies; absent: always. */
  from: z.iso.date().optional(),
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
  searchPerThousand: z.number().nonnegative(),
  searchBilledPer: z.enum(['query', 'grounded-call']),
});
export type Price = z.infer<typeof priceSchema>;

/**
 * Google's published paid-tier prices (ai.google.dev/gemini-api/docs/pricing, read 2026-11-25). Unlisted 3.x
 * models are priced as the dearest listed 3.x Flash, anything else as the dearest listed model, so an estimate
 * errs high rather than low. Operators override or add rows with GEMINI_PRICES.
 */
export const DEFAULT_PRICES: Price[] = [
  { model: 'gemini-3.8-flash', inputPerMillion: 0.75, outputPerMillion: 3.75, searchPerThousand: 14, searchBilledPer: 'query' },
  {
    model: 'gemini-3.8-flash',
    from: '2027-01-01',
    inputPerMillion: 1.5,
    outputPerMillion: 7.5,
    searchPerThousand: 14,
    searchBilledPer: 'query',
  },
  { model: 'gemini-3.5-flash', inputPerMillion: 1.5, outputPerMillion: 9, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-3.1-pro', inputPerMillion: 2, outputPerMillion: 12, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-3', inputPerMillion: 1.5, outputPerMillion: 9, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-2.5-flash-lite', inputPerMillion: 0.1, outputPerMillion: 0.4, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
  { model: 'gemini-2.5-flash', inputPerMillion: 0.3, outputPerMillion: 2.5, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
  { model: 'gemini-2.5-pro', inputPerMillion: 1.25, outputPerMillion: 10, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
  { model: 'gemini', inputPerMillion: 2, outputPerMillion: 12, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
];

/** The defaults with the operator's rows laid over them (a row with the same model and day replaces one). */
export function priceTable(overrides: Price[]): Price[] {
  const id = (p: Price) => `${p.model}|${p.from ?? ''}`;
  const rows = new Map(DEFAULT_PRICES.map((p) => [id(p), p]));
  for (const p of overrides) rows.set(id(p), p);
  return [...rows.values()];
}

/** The row for a model on a day: the longest matching name, then the latest day that has begun. */
export function priceFor(table: Price[], model: string, at: Date): Price | null {
  const day = at.toISOString().slice(0, 10);
  let best: Price | null = null;
  for (const p of table) {
    if (!model.startsWith(p.model) || (p.from && p.from > day)) continue;
    if (!best || p.model.length > best.model.length || (p.model.length === best.model.length && (p.from ?? '') > (best.from ?? ''))) {
      best = p;
    }
  }
  return best;
}

/** Flex answers at half the token price; search queries cost the same on every tier. */
export type ServiceTierName = 'standard' | 'flex';

/** The estimated USD of what calls to `model` used, at the prices of `at`. */
export function estimateCost(table: Price[], model: string, usage: GeminiUsage, at: Date, tier: ServiceTierName = 'standard'): number {
  const price = priceFor(table, model, at);
  if (!price) return 0;
  const tokenFactor = tier === 'flex' ? 0.5 : 1;
  const tokens =
    ((usage.promptTokens * price.inputPerMillion + (usage.outputTokens + usage.thinkingTokens) * price.outputPerMillion) / 1e6) *
    tokenFactor;
  const searches = price.searchBilledPer === 'query' ? usage.groundingQueries : usage.groundedCalls;
  return tokens + (searches * price.searchPerThousand) / 1000;
}
