import { countGeminiUsage, type GeminiCallKind } from '../metrics';
import { estimateCost, type Price, type ServiceTierName } from './prices';
import type { GeminiUsage } from './usage';

/** A Gemini call's estimated USD at the configured prices, counted in the metrics under its model and `kind`. */
export function priceCall(
  prices: Price[],
  kind: GeminiCallKind,
  model: string,
  usage: GeminiUsage,
  tier: ServiceTierName = 'standard',
): number {
  const cost = estimateCost(prices, model, usage, new Date(), tier);
  countGeminiUsage(kind, model, usage, cost);
  return cost;
}
