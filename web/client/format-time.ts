import { formatEventMoment, formatShortMoment, formatWallClock, localeClock, withZone } from '../../core/time/event-date-format';
import { knownTimeZone } from '../../core/time/time-zone';
import { browserTimezone } from './timezone';

// Times are shown only by what loads on demand (Manage Timers, runs, delivery, search history): kept apart
// from ./format.ts, which the first paint needs, so the zone code is not part of the page's first scripts.
// Every one is in the one style (core/time/event-date-format.ts, docs/decisions/time.md), its clock as the browser's
// locale reads it ('09:00' in en-GB, '9:00 AM' in en-US).

/** A wall-clock time "HH:MM" (a timer's time) as the browser's locale reads a clock. */
export function formatClock(hhmm: string): string {
  return formatWallClock(hhmm, localeClock());
}

/**
 * A moment (ISO 8601) in the one style, 'Thu 26 Nov 2026, 09:00'; in the browser's zone, or in `timeZone` and
 * named after it ('… (America/New York)') when that is another zone.
 */
export function formatMoment(iso: string, timeZone?: string): string {
  const own = browserTimezone();
  const zone = timeZone ? knownTimeZone(timeZone) : own;
  const moment = formatEventMoment(new Date(iso), zone, localeClock());
  return zone === own ? moment : withZone(moment, zone);
}

/** A moment in the browser's zone as a phone's short line has room for: '26 Nov, 09:00'. */
export function formatMomentShort(iso: string): string {
  return formatShortMoment(new Date(iso), browserTimezone(), localeClock());
}
