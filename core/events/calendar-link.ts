import type { Event } from '../contract/event';
import { placeLine } from './event-place';
import { safeLink } from './strict-values';
import { nextDay } from '../time/zoned-time';

const compactUtc = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const compactDate = (date: string) => date.replace(/-/g, '');
const HOUR_MS = 3_600_000;

/**
 * Start and end for a calendar: an all-day event as dates with an exclusive end, a timed one as UTC instants;
 * an event without an end lasts one day or one hour here, because a Google Calendar link needs an end (an .ics
 * file writes no end it was not given: ics.ts). Null when the start is unknown.
 */
export function calendarSpan(
  e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>,
): { allDay: true; start: string; endExclusive: string } | { allDay: false; startMs: number; endMs: number } | null {
  if (!e.starts_at) return null;
  if (e.all_day) {
    const start = e.starts_at.slice(0, 10);
    const last = e.ends_at && e.ends_at.slice(0, 10) >= start ? e.ends_at.slice(0, 10) : start;
    return { allDay: true, start, endExclusive: nextDay(last) };
  }
  const startMs = Date.parse(e.starts_at);
  if (Number.isNaN(startMs)) return null;
  const endMs = e.ends_at ? Date.parse(e.ends_at) : Number.NaN;
  return { allDay: false, startMs, endMs: endMs > startMs ? endMs : startMs + HOUR_MS };
}

/** A Google Calendar "create event" template link, or null when the start is unknown. */
export function googleCalendarLink(e: Event): string | null {
  const span = calendarSpan(e);
  if (!span) return null;
  const dates = span.allDay
    ? `${compactDate(span.start)}/${compactDate(span.endExclusive)}`
    : `${compactUtc(new Date(span.startMs).toISOString())}/${compactUtc(new Date(span.endMs).toISOString())}`;
  const params = new URLSearchParams({ action: 'TEMPLATE', text: e.title, dates });
  const url = safeLink(e.url);
  const source = safeLink(e.source_url);
  const details = [url, source && source !== url ? `Found on ${source}` : null].filter(Boolean).join('\n');
  if (details) params.set('details', details);
  const location = placeLine(e);
  if (location) params.set('location', location);
  if (e.timezone) params.set('ctz', e.timezone);
  // A series its source gives as one rule repeats in the calendar too, on the event's clock (ctz).
  if (e.rrule && e.status !== 'cancelled' && (e.all_day || e.timezone)) params.set('recur', `RRULE:${e.rrule}`);
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}
