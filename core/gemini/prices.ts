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
 * Google's published paid-tier prices (ai.google.dev/gemini-api/docs/pricing, read 2026-11-25; the Flash-Lite
 * rows 2026-11-27: 3.5 Flash-Lite from ai.google.dev/gemini-api/docs/generate-content/whats-new-gemini-3.6, 3.1
 * Flash-Lite as the pricing page has listed it since 2026-03-03). Unlisted 3.x
 * Flash models are priced as the dearest listed 3.x Flash, an unlisted 3.x Flash-Lite as the dearest listed
 * 3.x Flash-Lite, an unlisted 3.x Pro as 3.1 Pro, any other model as the dearest row of the table, so an
 * estimate errs high rather than low within a model's line. Operators override or add rows with GEMINI_PRICES.
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
  { model: 'gemini-3.5-flash-lite', inputPerMillion: 0.3, outputPerMillion: 2.5, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-3.1-flash-lite', inputPerMillion: 0.25, outputPerMillion: 1.5, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-3.1-pro', inputPerMillion: 2, outputPerMillion: 12, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-3-pro', inputPerMillion: 2, outputPerMillion: 12, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-3', inputPerMillion: 1.5, outputPerMillion: 9, searchPerThousand: 14, searchBilledPer: 'query' },
  { model: 'gemini-2.5-flash-lite', inputPerMillion: 0.1, outputPerMillion: 0.4, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
  { model: 'gemini-2.5-flash', inputPerMillion: 0.3, outputPerMillion: 2.5, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
  { model: 'gemini-2.5-pro', inputPerMillion: 1.25, outputPerMillion: 10, searchPerThousand: 35, searchBilledPer: 'grounded-call' },
];

/** The defaults with the operator's rows laid over them (a row with the same model and day replaces one). */
export function priceTable(overrides: Price[]): Price[] {
  const id = (p: Price) => `${p.model}|${p.from ?? ''}`;
  const rows = new Map(DEFAULT_PRICES.map((p) => [id(p), p]));
  for (const p of overrides) rows.set(id(p), p);
  return [...rows.values()];
}

/**
 * The row for a model on a day: the longest matching name, then the latest day that has begun. A 3.x name no
 * row names is priced by its tier (a Pro as the dearest 3.x Pro, a Flash-Lite as the dearest 3.x Flash-Lite,
 * anything else by the 3.x Flash row); a name that matches nothing at all gets the dearest row in force, so an
 * unknown model is never priced at $0.
 */
export function priceFor(table: Price[], model: string, at: Date): Price | null {
  const day = at.toISOString().slice(0, 10);
  const name = model.replace(/^models\//, '');
  const inForce = latestRows(table.filter((p) => !p.from || p.from <= day));
  let best: Price | null = null;
  for (const p of inForce) {
    if (name.startsWith(p.model) && (!best || p.model.length > best.model.length)) best = p;
  }
  if (!best) return dearest(inForce);
  // The catch-all 3.x row is a Flash's price: an unlisted 3.x Pro costs what the listed Pros cost, an unlisted
  // 3.x Flash-Lite what the listed Flash-Lites cost, not a Flash's several times dearer tokens.
  if (best.model !== 'gemini-3') return best;
  const tier = /-(pro|flash-lite)\b/.exec(name)?.[1];
  if (!tier) return best;
  const sameTier = new RegExp(`^gemini-3[.\\d]*-${tier}`);
  return dearest(inForce.filter((p) => sameTier.test(p.model))) ?? best;
}

// Of the rows in force, the one with the latest day for each model name.
function latestRows(rows: Price[]): Price[] {
  const byModel = new Map<string, Price>();
  for (const p of rows) {
    const had = byModel.get(p.model);
    if (!had || (p.from ?? '') > (had.from ?? '')) byModel.set(p.model, p);
  }
  return [...byModel.values()];
}

// The row that would cost the most for a typical grounded answer (2,000 tokens in, 1,000 out, one query).
function dearest(rows: Price[]): Price | null {
  const typical = (p: Price) => 2000 * p.inputPerMillion + 1000 * p.outputPerMillion + (p.searchPerThousand / 1000) * 1e6;
  return rows.reduce<Price | null>((a, p) => (!a || typical(p) > typical(a) ? p : a), null);
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
