import type { EventFact } from './event-fact';
import { FactSink } from './fact-sink';
import type { WebsitePage } from './fetch';
import { readHtml } from './html-document';
import { eventsFromIcal } from './ical';
import { eventsFromJsonLd, parseJsonLd } from './json-ld';
import { eventsFromMicrodata } from './microdata';
import { eventsFromMicroformats } from './microformats';
import { pageKind } from './page-kind';
import { eventsFromRdfa } from './rdfa';

/** What the prompt learns from the user's website: its address, title, structured events and readable text. */
export interface WebsiteFacts {
  url: string;
  title?: string;
  events: EventFact[];
  text: string;
  /** Events over the reading's bound (MAX_FACTS), counted and not kept; absent when none were. */
  droppedEvents?: number;
  /** Events found but not readable (see FactSink.unreadable); absent when none were. */
  unreadableEvents?: number;
  /** http(s) addresses of calendars (.ics, webcal:) the page names, for readWebsite to follow. */
  calendarLinks?: string[];
  /** The linked calendars whose events were read into `events` (see readWebsite). */
  calendarsRead?: string[];
  /**
   * Events read but not sent to the main thread: a finished reading keeps there only those the prompt lists
   * (core/reading/read-pages.ts, listedForTheMainThread); absent when none were held back.
   */
  unlistedEvents?: number;
  /** The links (canonical) of the events held back, for telling the website's own links from others'. */
  unlistedLinks?: string[];
}

const TEXT_LIMIT = 20_000;

/**
 * Readable text and structured events of one fetched page: HTML (parsed once, without a tree; JSON-LD, microdata, RDFa,
 * microformats2 and hCalendar, data-vocabulary.org), iCalendar, or JSON(-LD). Synchronous and bounded; the
 * calendars a page links are followed by readWebsite, not here.
 */
export function extractFacts(page: WebsitePage, sink = new FactSink()): WebsiteFacts {
  const { url, contentType, body } = page;
  const options = { baseUrl: url, sink };
  const kind = pageKind(contentType, body);
  if (kind === 'calendar') {
    // The events are the content; the raw feed adds nothing the list does not already say.
    eventsFromIcal(body, options);
    return withSinkCounts({ url, events: sink.events, text: '' }, sink);
  }
  if (kind === 'json') {
    const parsed = parseJsonLd(body);
    if (parsed !== undefined) eventsFromJsonLd([parsed], options);
    return withSinkCounts({ url, events: sink.events, text: sink.events.length > 0 ? '' : body.slice(0, TEXT_LIMIT) }, sink);
  }
  if (kind === 'text') return { url, events: [], text: body.slice(0, TEXT_LIMIT) };
  const html = readHtml(body, url, TEXT_LIMIT);
  const htmlOptions = { baseUrl: html.baseUrl, sink };
  eventsFromJsonLd(
    html.jsonLd.map(parseJsonLd).filter((v) => v !== undefined),
    htmlOptions,
  );
  eventsFromMicrodata(html.microdata, htmlOptions);
  eventsFromRdfa(html.rdfa, htmlOptions);
  eventsFromMicroformats(html, htmlOptions);
  const out = withSinkCounts({ url, title: html.title, events: sink.events, text: html.text }, sink);
  if (html.calendarLinks.length > 0) out.calendarLinks = html.calendarLinks;
  return out;
}

/** The reading's facts with what its sink counted and did not keep. */
export function withSinkCounts(base: WebsiteFacts, sink: FactSink): WebsiteFacts {
  return {
    ...base,
    ...(sink.dropped > 0 ? { droppedEvents: sink.dropped } : {}),
    ...(sink.unreadable > 0 ? { unreadableEvents: sink.unreadable } : {}),
  };
}
