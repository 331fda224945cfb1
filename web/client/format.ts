// One time format for the whole page: the user's locale decides between "09:00" and "9:00 AM", and every
// place that shows a time (timer list, next run, latest result, confirmations) uses these options.
const CLOCK: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** A wall-clock time "HH:MM" (a timer's time) in the user's locale. */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return new Date(2000, 0, 1, h, m).toLocaleTimeString(undefined, CLOCK);
}

/** A moment (ISO 8601) as weekday, date and time, e.g. "Mon, 24 Nov, 09:00". */
export function formatMoment(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', ...CLOCK });
}

/** A date alone, e.g. "1 December 2026". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
}

/** The credits badge: "1 search left", "10 searches left". */
export const searchesLeft = (credits: number) => `${credits} ${credits === 1 ? 'search' : 'searches'} left`;
