import { SearchError } from '../search-error';
import { sameSite } from './calendar-links';
import { extractFacts, type WebsiteFacts, withSinkCounts } from './extract';
import { FactSink } from './fact-sink';
import { fetchWebsite, type WebsiteFetchOptions } from './fetch';
import { eventsFromIcal } from './ical';

/** How many calendars a page names that one reading follows. */
export const MAX_CALENDAR_LINKS = 3;

const isCalendar = (contentType: string, body: string) => contentType === 'text/calendar' || /^\s*BEGIN:VCALENDAR/i.test(body);

/**
 * Reads a user's website: the page through the address guard, its facts, then up to three same-site
 * calendars it links (.ics, webcal:), each fetched through the same guard, size and time limits, their
 * events added to the page's under the same bound. A calendar link that fails or is not a calendar costs
 * nothing but its fetch: the page's own facts still stand. Throws only for the page itself (SearchError).
 */
export async function readWebsite(raw: string, options: WebsiteFetchOptions): Promise<WebsiteFacts> {
  const page = await fetchWebsite(raw, options);
  const sink = new FactSink();
  const facts = extractFacts(page, sink);
  const links = (facts.calendarLinks ?? []).filter((link) => link !== page.url && sameSite(link, page.url)).slice(0, MAX_CALENDAR_LINKS);
  if (links.length === 0) return facts;
  const calendars = await Promise.allSettled(links.map((link) => fetchWebsite(link, options)));
  const read: string[] = [];
  calendars.forEach((result, i) => {
    if (result.status !== 'fulfilled' || !isCalendar(result.value.contentType, result.value.body)) return;
    eventsFromIcal(result.value.body, { baseUrl: result.value.url, sink });
    read.push(links[i]!);
  });
  // A cancelled search is not a calendar that failed: it ends the reading as it would have ended the page's.
  for (const result of calendars) {
    if (result.status === 'rejected' && result.reason instanceof SearchError && result.reason.code === 'aborted') throw result.reason;
  }
  return withSinkCounts({ ...facts, events: sink.events, ...(read.length > 0 ? { calendarsRead: read } : {}) }, sink);
}
