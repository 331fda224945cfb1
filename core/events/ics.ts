import type { Event } from '../contract/event';
import { formatEventDate, formatMovedEventDate } from '../time/event-date-format';
import { knownTimeZone } from '../time/time-zone';
import { calendarSpan } from './calendar-link';
import { placeLine } from './event-place';
import { keyDigest } from './event-key';
import { safeLink } from './strict-values';
import { verificationText } from './verification-text';

/*
 * RFC 5545 writing, shared by the browser (one event's .ics download) and the api (a timer's feed). Timed
 * events are written in UTC: exact, and a TZID would need a VTIMEZONE block per zone; calendars show UTC
 * times in their user's zone. All-day events are DATE values with an exclusive end.
 */

const ICS_STATUS: Record<Event['status'], string> = {
  scheduled: 'CONFIRMED',
  moved: 'CONFIRMED',
  cancelled: 'CANCELLED',
  tentative: 'TENTATIVE',
};

export const PRODID = '-//Event Finder//Events//EN';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters no content line may carry
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/**
 * TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma, newline; other control characters (which RFC
 * 5545 forbids in content lines, and which could end a line early in a lax reader) are removed.
 */
export function escapeText(value: string): string {
  return value
    .replace(/\t/g, ' ')
    .replace(CONTROLS, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/** Folds a content line at 75 octets (RFC 5545 3.1) without splitting a UTF-8 character. */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    // The first line holds 75 octets; continuation lines start with a space, so they hold 74 more.
    if (octets + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const utcStamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export interface VeventOptions {
  /** When this version of the event was written (DTSTAMP, LAST-MODIFIED). */
  stamp: Date;
  /** Bumped each time the event changes, so subscribed calendars replace their copy. */
  sequence?: number;
  /** Domain part of the UID. */
  uidDomain: string;
}

/** The VEVENT lines of one event (unfolded), or null when its start is unknown (DTSTART is required). */
export function veventLines(e: Event, options: VeventOptions): string[] | null {
  const span = calendarSpan(e);
  if (!span) return null;
  const lines = ['BEGIN:VEVENT', `UID:${keyDigest(e.key)}@${options.uidDomain}`, `DTSTAMP:${utcStamp(options.stamp.getTime())}`];
  // An end only where the source gave one: without DTEND, RFC 5545 makes a dated event last its day and a timed
  // one a moment, which Google Calendar and Apple Calendar show as it is, not an hour nobody announced.
  const endGiven = Boolean(e.ends_at);
  if (span.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${span.start.replace(/-/g, '')}`);
    if (endGiven) lines.push(`DTEND;VALUE=DATE:${span.endExclusive.replace(/-/g, '')}`);
  } else {
    lines.push(`DTSTART:${utcStamp(span.startMs)}`);
    if (endGiven && Date.parse(e.ends_at ?? '') > span.startMs) lines.push(`DTEND:${utcStamp(span.endMs)}`);
  }
  lines.push(`SEQUENCE:${options.sequence ?? 0}`, `LAST-MODIFIED:${utcStamp(options.stamp.getTime())}`);
  lines.push(`SUMMARY:${escapeText(e.title)}`);
  const location = placeLine(e);
  if (location) lines.push(`LOCATION:${escapeText(location)}`);
  // Stored events from before strict values may hold any scheme: only http(s) links are written.
  const url = safeLink(e.url);
  const source = safeLink(e.source_url);
  if (url) lines.push(`URL:${url}`);
  // How the event was checked, in the words a card uses; the model's start in the event's own zone, named.
  const zone = knownTimeZone(e.timezone);
  const checked = verificationText(e, (iso) => formatEventDate({ ...e, starts_at: iso, ends_at: null }, zone, { nameZone: true }));
  const description = [
    e.status === 'moved' ? (e.moved_from ? `Moved: ${formatMovedEventDate(e, zone, { nameZone: true })}.` : 'This event was moved.') : null,
    checked,
    url,
    source && source !== url ? `Found on ${source}` : null,
  ]
    .filter(Boolean)
    .join('\n');
  if (description) lines.push(`DESCRIPTION:${escapeText(description)}`);
  lines.push(`STATUS:${ICS_STATUS[e.status]}`, 'END:VEVENT');
  return lines;
}

/** A whole iCalendar object: folded CRLF lines. */
export function calendarText(header: string[], events: string[][]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODID}`, 'CALSCALE:GREGORIAN', ...header, ...events.flat(), 'END:VCALENDAR'];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** One event as a downloadable .ics file (METHOD:PUBLISH: an event to add, not an invitation). */
export function singleEventIcs(e: Event, uidDomain: string, now = new Date()): string | null {
  const vevent = veventLines(e, { stamp: now, uidDomain });
  return vevent ? calendarText(['METHOD:PUBLISH'], [vevent]) : null;
}

/** A file name for an event's .ics download. */
export function icsFileName(e: Pick<Event, 'title'>): string {
  const base = e.title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60);
  return `${base || 'event'}.ics`;
}
