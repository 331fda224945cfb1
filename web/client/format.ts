// Dates and counts the first paint shows; times (a timer's clock, a run's moment) are in ./format-time.ts.

/** A date alone, e.g. "1 December 2026". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

/** The credits badge: "1 search left", "10 searches left". */
export const searchesLeft = (credits: number) => `${credits} ${credits === 1 ? 'search' : 'searches'} left`;

/**
 * Why the badge shows fewer searches than the plan's monthly number: those used this month count, also after a
 * plan change in the middle of it ("40 of 50 this month: the 10 searches you already used count."). Null when
 * none are used.
 */
export function usedThisMonth({ credits, allowance }: { credits: number; allowance: number }): string | null {
  const used = allowance - credits;
  if (used <= 0 || credits < 0) return null;
  return `${credits} of ${allowance} this month: the ${used} ${used === 1 ? 'search' : 'searches'} you already used count.`;
}
