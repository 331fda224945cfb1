// Dates and counts the first paint shows; times (a timer's clock, a run's moment) are in ./format-time.ts.

/** A date alone, e.g. "1 December 2026". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

/** The credits badge: "1 search left", "10 searches left". */
export const searchesLeft = (credits: number) => `${credits} ${credits === 1 ? 'search' : 'searches'} left`;
