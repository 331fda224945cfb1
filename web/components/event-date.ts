import type { Event } from '../../core/contract/event';
import { formatEventDays, formatEventMoment, knownTimeZone } from '../../core/events/event-date-format';

/**
 * An event's date as people read it: 'Thu, 18 Jun 2026, 09:00 CEST' in the user's time zone, a date (or
 * date range) alone for an all-day event, whose day is the same everywhere.
 */
export function friendlyDate(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>, timeZone: string): string {
  if (!e.starts_at) return 'Date not known';
  if (e.all_day) return formatEventDays(e.starts_at, e.ends_at);
  const ms = Date.parse(e.starts_at);
  if (Number.isNaN(ms)) return 'Date not known';
  return formatEventMoment(new Date(ms), knownTimeZone(timeZone), true);
}
