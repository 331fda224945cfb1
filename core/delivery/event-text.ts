import type { Event } from '../contract/event';
import { formatEventDays, formatEventMoment, knownTimeZone } from '../events/event-date-format';

// Messages are written in English, so their dates are too, in the page's style (core/events/event-date-format.ts).
const MESSAGE_LOCALE = 'en-GB';

/** How an event reads in a digest: its date in the timer's time zone, and its place. */

/**
 * "Tue, 3 Mar 2026, 18:30 (Europe/Berlin)"; all-day events as dates; "Date not known" without a start; a
 * tentative event says it is not yet confirmed.
 */
export function eventWhen(event: Event, timezone: string): string {
  const when = eventMoment(event, timezone);
  return event.status === 'tentative' ? `${when}, not yet confirmed` : when;
}

function eventMoment(event: Event, timezone: string): string {
  if (!event.starts_at) return 'Date not known';
  if (event.all_day) return formatEventDays(event.starts_at, event.ends_at, MESSAGE_LOCALE);
  const start = new Date(event.starts_at);
  if (Number.isNaN(start.getTime())) return event.starts_at;
  const zone = knownTimeZone(timezone);
  return `${formatEventMoment(start, zone, MESSAGE_LOCALE)} (${zone})`;
}

/** "Venue, City", "Online", "Venue, City · also online", or null when nothing is known. */
export function eventPlace(event: Event): string | null {
  const where = [event.venue, event.city].filter(Boolean).join(', ');
  if (where && event.online) return `${where} · also online`;
  if (where) return where;
  return event.online ? 'Online' : null;
}

/** "New", "Moved", "Cancelled" or "Changed": what makes the event worth a message. */
export function eventBadge(event: Event): string {
  if (event.status === 'cancelled') return 'Cancelled';
  if (event.status === 'moved') return 'Moved';
  return event.new ? 'New' : 'Changed';
}
