import type { Event } from '../contract/event';
import { googleCalendarLink } from '../events/calendar-link';

/** The Add to calendar link of a message: the page's Google Calendar link, none for a cancelled event. */
export function addToCalendarUrl(event: Event): string | null {
  return event.status === 'cancelled' ? null : googleCalendarLink(event);
}
