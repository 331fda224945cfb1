import { type Event, eventOverAt } from '../../core/contract/event';
import { type EventTimes, formatEventDate, localeClock } from '../../core/time/event-date-format';
import { knownTimeZone } from '../../core/time/time-zone';

/**
 * An event's date as people read it, in the one style (core/time/event-date-format.ts, docs/decisions/time.md): its
 * moment in the viewer's zone ('Thu 18 Jun 2026, 09:00'), whatever zone or offset the source wrote it in (a UTC
 * time from the model's extraction too), unnamed as it is the viewer's own; a range when it ends on a later
 * day; a date (or date range) alone for an all-day event, whose day is the same everywhere. The clock as
 * `locale` reads it (undefined: the browser's).
 */
export function friendlyDate(e: EventTimes, timeZone: string, locale?: string): string {
  return formatEventDate(e, knownTimeZone(timeZone), { clock: localeClock(locale) });
}

/**
 * The same date as a phone's short line has room for ('18 Jun, 09:00', docs/decisions/time.md): a timed event's moment
 * without weekday and year; an all-day event's days and an unknown date as friendlyDate writes them.
 */
export function shortDate(e: EventTimes, timeZone: string, locale?: string): string {
  return formatEventDate(e, knownTimeZone(timeZone), { clock: localeClock(locale), short: true });
}

/** True when the event is over: its end (or, without one, its start) lies before `now`. */
export function isPast(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>, now: number): boolean {
  const end = eventOverAt(e);
  return end !== null && end < now;
}
