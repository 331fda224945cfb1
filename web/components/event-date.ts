import { type Event, eventOverAt } from '../../core/contract/event';
import { formatEventDays, formatEventMoment, formatShortMoment } from '../../core/time/event-date-format';
import { knownTimeZone } from '../../core/time/time-zone';

/**
 * An event's date as people read it, in the page's one style (core/time/event-date-format.ts): its moment in
 * the viewer's zone and locale ('Thu, 18 Jun 2026, 09:00'), whatever zone or offset the source wrote it in (a
 * UTC time from the model's extraction too); a date (or date range) alone for an all-day event, whose day is
 * the same everywhere. `locale` undefined: the browser's.
 */
export function friendlyDate(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>, timeZone: string, locale?: string): string {
  if (!e.starts_at) return 'Date not known';
  if (e.all_day) return formatEventDays(e.starts_at, e.ends_at, locale);
  const ms = Date.parse(e.starts_at);
  if (Number.isNaN(ms)) return 'Date not known';
  return formatEventMoment(new Date(ms), knownTimeZone(timeZone), locale);
}

/**
 * The same date as a phone's short line has room for ('18 Jun, 09:00', decision 050): a timed event's moment
 * without weekday and year; an all-day event's days and an unknown date as friendlyDate writes them.
 */
export function shortDate(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>, timeZone: string, locale?: string): string {
  const ms = e.starts_at && !e.all_day ? Date.parse(e.starts_at) : Number.NaN;
  return Number.isNaN(ms) ? friendlyDate(e, timeZone, locale) : formatShortMoment(new Date(ms), knownTimeZone(timeZone), locale);
}

/** True when the event is over: its end (or, without one, its start) lies before `now`. */
export function isPast(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>, now: number): boolean {
  const end = eventOverAt(e);
  return end !== null && end < now;
}
