import { formatDay } from '../../core/time/date-words';

// Dates and counts the first paint shows; times (a timer's clock, a run's moment) are in ./format-time.ts.

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The day a moment falls on in the browser's zone, in the one style (docs/decisions/time.md): "Tue 1 Dec 2026". The
 * browser's own zone is its Date's, so no zone code (core's offsets, Intl formats) is part of the first paint.
 */
export function formatDate(iso: string): string {
  const at = new Date(iso);
  return formatDay(`${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`);
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
