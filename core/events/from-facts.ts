import type { Event } from '../contract/event';
import type { EventFact } from '../website/event-fact';
import type { WebsiteFacts } from '../website/extract';
import { eventKey } from './event-key';
import { eventTime } from './event-time';

/** An event found by a source, before its key decides whether it was seen before. */
export type FoundEvent = Omit<Event, 'new'>;

/** Who is looking and when: the last resort for a zone, and the anchor of the recurrence window. */
export interface FactContext {
  /** IANA zone of the searcher or the timer: used only when the source and its venue name no zone. */
  searcherTimezone: string;
  now: Date;
}

const CANCELLED_SUFFIX = /\s*\((?:cancelled|canceled)\)$/i;

/**
 * The website's own structured events (schema.org JSON-LD, iCalendar) as contract events: exact, as the site
 * states them; `source_url` is the page they were read from.
 */
export function eventsFromFacts(website: WebsiteFacts, context: FactContext): FoundEvent[] {
  return website.events.map((f) => fromFact(f, website.url, context.searcherTimezone));
}

function fromFact(f: EventFact, sourceUrl: string, userTimezone: string): FoundEvent {
  const title = f.status === 'cancelled' ? f.name.replace(CANCELLED_SUFFIX, '') : f.name;
  const when = eventTime({ start: f.startAt, end: f.endAt, timezone: f.timezone, userTimezone });
  const venue = f.venue ?? (f.place && !/^online\b/i.test(f.place) ? f.place : null);
  const online = f.online ?? (f.place && /^online\b/i.test(f.place) ? true : null);
  const event: FoundEvent = {
    key: '',
    title,
    ...when,
    venue: venue ?? null,
    city: f.city ?? null,
    online,
    url: f.url ?? null,
    source_url: sourceUrl,
    status: f.status === 'tentative' || !f.status ? 'scheduled' : f.status,
  };
  event.key = eventKey(event);
  return event;
}
