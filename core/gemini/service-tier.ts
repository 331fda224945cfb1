import { ApiError, type GoogleGenAI, ServiceTier } from '@google/genai';
import { modelState } from './model';
import type { ServiceTierName } from './prices';
import { familyOfName } from './thinking';

/**
 * Runs a request on Google's Flex tier when asked (half the token price, answered within minutes: for timer
 * runs nobody watches), and once more on the standard tier when Flex refuses it: a model without Flex (400),
 * or Flex capacity used up (429, 503). The refusal comes before any answer, so the retry repeats nothing the
 * user saw. Gemini 2.5 has no Flex, so it is never asked; a model that refused Flex (400) is not asked again by
 * this process. Returns the tier that answered, which is what the call is priced at.
 */
export async function withServiceTier<T>(
  gemini: GoogleGenAI,
  model: string,
  tier: ServiceTierName,
  request: (config: { serviceTier?: ServiceTier }) => Promise<T>,
): Promise<{ result: T; tier: ServiceTierName }> {
  if (tier === 'standard' || !flexOffered(gemini, model)) return { result: await request({}), tier: 'standard' };
  try {
    return { result: await request({ serviceTier: ServiceTier.FLEX }), tier };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (isTierRefusal(err)) modelState(gemini).flexRefused.add(model);
    else if (err.status !== 429 && err.status !== 503) throw err;
    return { result: await request({}), tier: 'standard' };
  }
}

function flexOffered(gemini: GoogleGenAI, model: string): boolean {
  if (modelState(gemini).flexRefused.has(model)) return false;
  return !familyOfName(model)?.family.startsWith('2.');
}

// A 400 is about the tier only when it says so; any other 400 would be refused on every tier alike.
const isTierRefusal = (err: ApiError) => err.status === 400 && /service.?tier|flex/i.test(err.message);
