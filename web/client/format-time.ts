import { formatEventMoment, formatShortMoment, zoneLabel } from '../../core/time/event-date-format';
import { knownTimeZone } from '../../core/time/time-zone';
import { browserTimezone } from './timezone';

// Times are shown only by what loads on demand (Manage Timers, runs, delivery): kept apart from ./format.ts,
// which the first paint needs, so the Intl date code is not part of the page's first scripts.

// One time format for the whole page: the locale's own short time ("09:00" in en-GB, "9:00 AM" in en-US), used
// by every place that shows a time (timer list, next run, latest result, runs, event cards).
const CLOCK: Intl.DateTimeFormatOptions = { timeStyle: 'short' };

/** A wall-clock time "HH:MM" (a timer's time) in the user's locale. */
export function formatClock(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  if (h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m)) return hhmm;
  return new Date(2000, 0, 1, h, m).toLocaleTimeString(undefined, CLOCK);
}

/**
 * A moment (ISO 8601) in the page's one style, 'Thu, 26 Nov 2026, 09:00' in the browser's locale; in the
 * browser's zone, or in `timeZone` and named after it ('… (America/New York)') when that is another zone.
 */
export function formatMoment(iso: string, timeZone?: string): string {
  const own = browserTimezone();
  const zone = timeZone ? knownTimeZone(timeZone) : own;
  const moment = formatEventMoment(new Date(iso), zone);
  return zone === own ? moment : `${moment} (${zoneLabel(zone)})`;
}

/** A moment in the browser's zone as a phone's short line has room for: '26 Nov, 09:00'. */
export function formatMomentShort(iso: string): string {
  return formatShortMoment(new Date(iso), browserTimezone());
}
