import { ApiError, ServiceTier } from '@google/genai';
import type { ServiceTierName } from './prices';

/**
 * Runs a request on Google's Flex tier when asked (half the token price, answered within minutes: for timer
 * runs nobody watches), and once more on the standard tier when Flex refuses it: a model without Flex (400),
 * or Flex capacity used up (429, 503). The refusal comes before any answer, so the retry repeats nothing the
 * user saw. Returns the tier that answered, which is what the call is priced at.
 */
export async function withServiceTier<T>(
  tier: ServiceTierName,
  request: (config: { serviceTier?: ServiceTier }) => Promise<T>,
): Promise<{ result: T; tier: ServiceTierName }> {
  if (tier === 'standard') return { result: await request({}), tier };
  try {
    return { result: await request({ serviceTier: ServiceTier.FLEX }), tier };
  } catch (err) {
    if (!isFlexRefusal(err)) throw err;
    return { result: await request({}), tier: 'standard' };
  }
}

// A 400 is about the tier only when it says so; any other 400 would be refused on every tier alike.
function isFlexRefusal(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 429 || err.status === 503) return true;
  return err.status === 400 && /service.?tier|flex/i.test(err.message);
}
