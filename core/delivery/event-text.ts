import type { Event } from '../contract/event';

/** How an event reads in a digest: its date in the timer's time zone, and its place. */

/** "Tue, 3 Mar 2026, 18:30 (Europe/Berlin)"; all-day events as dates; "Date not known" without a start. */
export function eventWhen(event: Event, timezone: string): string {
  if (!event.starts_at) return 'Date not known';
  if (event.all_day) {
    const day = (iso: string) =>
      new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${iso.slice(0, 10)}T00:00:00Z`),
      );
    const start = day(event.starts_at);
    const end = event.ends_at && event.ends_at.slice(0, 10) !== event.starts_at.slice(0, 10) ? day(event.ends_at) : null;
    return end ? `${start} – ${end}` : start;
  }
  const start = new Date(event.starts_at);
  if (Number.isNaN(start.getTime())) return event.starts_at;
  const format = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timezone,
  });
  return `${format.format(start)} (${timezone})`;
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
