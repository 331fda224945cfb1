import type { EventFact } from './event-fact';
import { htmlTitle, htmlToText } from './html-text';
import { eventsFromIcal } from './ical';
import { eventsFromJsonLd, jsonLdBlocks } from './json-ld';
import type { WebsitePage } from './fetch';

/** What the prompt learns from the user's website: its address, title, structured events and readable text. */
export interface WebsiteFacts {
  url: string;
  title?: string;
  events: EventFact[];
  text: string;
}

const TEXT_LIMIT = 20_000;

/** Extracts readable text and structured events (JSON-LD schema.org Event, iCalendar VEVENT) from a page. */
export function extractFacts(page: WebsitePage): WebsiteFacts {
  const { url, contentType, body } = page;
  if (contentType === 'text/calendar' || /^\s*BEGIN:VCALENDAR/i.test(body)) {
    // The events are the content; the raw feed adds nothing the list does not already say.
    return { url, events: eventsFromIcal(body), text: '' };
  }
  if (contentType === 'application/json' || contentType === 'application/ld+json') {
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(body);
    } catch {
      // Not valid JSON after all: pass it on as text.
    }
    const events = parsed === null ? [] : eventsFromJsonLd([parsed]);
    return { url, events, text: events.length > 0 ? '' : body.slice(0, TEXT_LIMIT) };
  }
  if (contentType === 'text/plain') return { url, events: [], text: body.slice(0, TEXT_LIMIT) };
  return { url, title: htmlTitle(body), events: eventsFromJsonLd(jsonLdBlocks(body)), text: htmlToText(body, TEXT_LIMIT) };
}
