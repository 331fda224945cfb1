import type { Event } from '../contract/event';
import { formatMovedEventDate } from '../time/event-date-format';
import { knownTimeZone } from '../time/time-zone';
import { verificationText } from '../events/verification-text';

/** How an event reads in a message: its date in the timer's time zone (the one style, docs/decisions/time.md), and its place. */

/**
 * "Tue 3 Mar 2026, 18:30 (Europe/Berlin)" ("zone: false" leaves the zone to a line above: a digest says it
 * once); all-day events as dates; "Date not known" without a start; a moved event as old → new; a
 * tentative event says it is not yet confirmed.
 */
export function eventWhen(event: Event, timezone: string, options: { zone?: boolean } = {}): string {
  const when = formatMovedEventDate(event, knownTimeZone(timezone), { nameZone: options.zone ?? true });
  return event.status === 'tentative' ? `${when}, not yet confirmed` : when;
}

/**
 * How the event was checked, as its card says it ("Checked on example.org", "Corrected from example.org (the
 * answer said …)", "Not confirmed"); the model's start in the message's zone. Null when it was not checked.
 */
export function eventCheck(event: Event, timezone: string): string | null {
  return verificationText(event, (iso) =>
    eventWhen({ ...event, starts_at: iso, ends_at: null, status: 'scheduled' }, timezone, { zone: false }),
  );
}

/** The zone a message's dates are in: the timer's, or UTC when this runtime does not know it. */
export const messageZone = (timezone: string) => knownTimeZone(timezone);

/** "New", "Moved", "Cancelled" or "Changed": what makes the event worth a message. */
export function eventBadge(event: Event): string {
  if (event.status === 'cancelled') return 'Cancelled';
  if (event.status === 'moved') return 'Moved';
  return event.new ? 'New' : 'Changed';
}

/** "3 new events", "1 changed event", "1 new and 2 changed events". */
export function digestCounts(events: Event[]): string {
  const fresh = events.filter((e) => e.new).length;
  const changed = events.length - fresh;
  const noun = (n: number) => `event${n === 1 ? '' : 's'}`;
  if (changed === 0) return `${fresh} new ${noun(fresh)}`;
  if (fresh === 0) return `${changed} changed ${noun(changed)}`;
  return `${fresh} new and ${changed} changed ${noun(changed)}`;
}
