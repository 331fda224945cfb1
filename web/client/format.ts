// One time format for the whole page: the locale's own short time ("09:00" in en-GB, "9:00 AM" in en-US), used
// by every place that shows a time (timer list, next run, latest result, confirmations).
const CLOCK: Intl.DateTimeFormatOptions = { timeStyle: 'short' };

/** A wall-clock time "HH:MM" (a timer's time) in the user's locale. */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return new Date(2000, 0, 1, h, m).toLocaleTimeString(undefined, CLOCK);
}

/** A moment (ISO 8601) as weekday, date and time, e.g. "Mon 24 Nov, 09:00" or "Mon, Nov 24, 9:00 AM". */
export function formatMoment(iso: string): string {
  const at = new Date(iso);
  // timeStyle cannot be combined with a weekday, so the date and the clock are formatted apart.
  return `${at.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}, ${at.toLocaleTimeString(undefined, CLOCK)}`;
}

/** A date alone, e.g. "1 December 2026". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

/** The credits badge: "1 search left", "10 searches left". */
export const searchesLeft = (credits: number) => `${credits} ${credits === 1 ? 'search' : 'searches'} left`;
