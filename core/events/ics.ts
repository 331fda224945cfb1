import type { Event } from '../contract/event';
import { formatEventDate, formatMovedEventDate } from '../time/event-date-format';
import { isTimeZone, knownTimeZone } from '../time/time-zone';
import { vtimezoneLines } from '../time/vtimezone';
import { isoInZone } from '../time/zoned-time';
import { calendarSpan } from './calendar-link';
import { placeLine } from './event-place';
import { keyDigest } from './event-key';
import { seriesIdentity } from './series-card';
import { safeLink } from './strict-values';
import { verificationText } from './verification-text';

/*
 * RFC 5545 writing, shared by the browser (one event's .ics download) and the api (a timer's feed). Timed
 * one-off events are written in UTC: exact, and calendars show UTC times in their user's zone. A series its
 * source gives as one rule (`rrule`, core/events/series-card.ts) is one entry with that RRULE, its times on its
 * own clock (DTSTART;TZID with a VTIMEZONE for the zone), so each occurrence keeps its local time across DST
 * changes. All-day events are DATE values with an exclusive end.
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

/**
 * The rule an event is exported with, or null: a series' `rrule` when its times can be written on its own clock
 * (a zone this runtime knows, or all day); in UTC its local time would shift at each DST change.
 */
function exportedRule(e: Event): { rule: string; zone: string | null } | null {
  if (!e.rrule || !e.starts_at || e.status === 'cancelled' || seriesIdentity(e) === null) return null;
  if (e.all_day) return { rule: e.rrule, zone: null };
  return isTimeZone(e.timezone) ? { rule: e.rrule, zone: e.timezone } : null;
}

/** '20261215T190000': an instant's wall time in a zone, as a DATE-TIME with TZID writes it. */
const wallStamp = (ms: number, zone: string) => isoInZone(ms, zone).slice(0, 19).replace(/[-:]/g, '');

/** The VEVENT lines of one event (unfolded), or null when its start is unknown (DTSTART is required). */
export function veventLines(e: Event, options: VeventOptions): string[] | null {
  const span = calendarSpan(e);
  if (!span) return null;
  const series = exportedRule(e);
  // A series is one entry whichever occurrence stands for it: its UID is the series', not an occurrence's.
  const uid = keyDigest(series ? seriesIdentity(e)! : e.key);
  const lines = ['BEGIN:VEVENT', `UID:${uid}@${options.uidDomain}`, `DTSTAMP:${utcStamp(options.stamp.getTime())}`];
  // An end only where the source gave one: without DTEND, RFC 5545 makes a dated event last its day and a timed
  // one a moment, which Google Calendar and Apple Calendar show as it is, not an hour nobody announced.
  const endGiven = Boolean(e.ends_at);
  if (span.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${span.start.replace(/-/g, '')}`);
    if (endGiven) lines.push(`DTEND;VALUE=DATE:${span.endExclusive.replace(/-/g, '')}`);
  } else if (series?.zone) {
    lines.push(`DTSTART;TZID=${series.zone}:${wallStamp(span.startMs, series.zone)}`);
    if (endGiven && Date.parse(e.ends_at ?? '') > span.startMs)
      lines.push(`DTEND;TZID=${series.zone}:${wallStamp(span.endMs, series.zone)}`);
  } else {
    lines.push(`DTSTART:${utcStamp(span.startMs)}`);
    if (endGiven && Date.parse(e.ends_at ?? '') > span.startMs) lines.push(`DTEND:${utcStamp(span.endMs)}`);
  }
  if (series) lines.push(`RRULE:${series.rule}`);
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
    series && e.repeats ? `Repeats ${e.repeats}.` : null,
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

// How far a series' zone is written past the entry's start: a calendar reads later times at the last offset
// written, and a feed is read again within the hour, a download rarely kept for longer.
const ZONE_YEARS = 10;

/**
 * The VTIMEZONE lines of each zone the exported series among `events` are written in, from the earliest start in
 * that zone to ZONE_YEARS past the latest.
 */
export function timezonesOf(events: Event[]): string[][] {
  const spans = new Map<string, { from: number; to: number }>();
  for (const e of events) {
    const zone = exportedRule(e)?.zone;
    if (!zone) continue;
    const start = Date.parse(e.starts_at!);
    const span = spans.get(zone);
    spans.set(zone, { from: Math.min(span?.from ?? start, start), to: Math.max(span?.to ?? start, start) });
  }
  const day = 86_400_000;
  return [...spans].map(([zone, { from, to }]) => vtimezoneLines(zone, from - day, to + ZONE_YEARS * 365.25 * day));
}

/** A whole iCalendar object: folded CRLF lines, each VTIMEZONE its entries name before them. */
export function calendarText(header: string[], events: string[][], timezones: string[][] = []): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    ...header,
    ...timezones.flat(),
    ...events.flat(),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** One event as a downloadable .ics file (METHOD:PUBLISH: an event to add, not an invitation). */
export function singleEventIcs(e: Event, uidDomain: string, now = new Date()): string | null {
  const vevent = veventLines(e, { stamp: now, uidDomain });
  return vevent ? calendarText(['METHOD:PUBLISH'], [vevent], timezonesOf([e])) : null;
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
