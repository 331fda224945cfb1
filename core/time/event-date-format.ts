/**
 * The one way a date and time reads for people (docs/decisions/time.md), on every surface: the page (event cards, runs,
 * next run, latest result, search history, renewals, tokens, filters), emails, webhooks' text, the Atom feed's
 * and the iCal feed's words, and the MCP tools' text. 'Sun 12 Jul 2026, 19:00': weekday, day, month, year and
 * the clock, in that order, in English like the rest of the product; a zone, where one is named, after it in
 * brackets as 'Sun 12 Jul 2026, 19:00 (America/New York)'. Only the clock follows the page's reader: 24-hour,
 * or '7:00 PM' where the browser's locale reads a 12-hour clock. Written from the wall clock's numbers (not
 * Intl's formats, whose words, order and commas differ between locales and between ICU versions), so Node and
 * the browser write the same string (the words: date-words.ts). Browser-safe: Intl only, through zoned-time.ts.
 */

import { type Clock, clockText, DATE_RANGE, dayText, formatDay, momentText, shortMomentText, type Wall } from './date-words';
import { cachedFormat } from './format-cache';
import { offsetMinutes, parseIsoTime, wallTimeToEpoch } from './zoned-time';
import { isTimeZone } from './time-zone';

export { type Clock, DATE_RANGE, formatDay } from './date-words';

/** The wall clock of an instant in a zone (one from knownTimeZone, time-zone.ts). */
function wallAt(epochMs: number, timeZone: string): Wall {
  const local = new Date(epochMs + offsetMinutes(timeZone, epochMs) * 60_000);
  return {
    y: local.getUTCFullYear(),
    mo: local.getUTCMonth() + 1,
    d: local.getUTCDate(),
    h: local.getUTCHours(),
    mi: local.getUTCMinutes(),
  };
}

/**
 * The clock a locale reads ('12h' for en-US, '24h' for en-GB and de); undefined is the runtime's (the
 * browser's), an unknown locale 24 hours.
 */
export function localeClock(locale?: string): Clock {
  const format = cachedFormat(`clock|${locale ?? ''}`, () => new Intl.DateTimeFormat(locale, { hour: 'numeric' }));
  const cycle = format?.resolvedOptions().hourCycle;
  return cycle === 'h11' || cycle === 'h12' ? '12h' : '24h';
}

/** A zone as people read it: 'America/New York'. */
export const zoneLabel = (timeZone: string) => timeZone.replace(/_/g, ' ');

/** A date or dates followed by the zone they are in: 'Sun 12 Jul 2026, 19:00 (Europe/Berlin)'. */
export const withZone = (text: string, timeZone: string) => `${text} (${zoneLabel(timeZone)})`;

/** An all-day event's day, or its days 'Mon 1 Jun 2026 – Wed 3 Jun 2026' (the last one included) when it lasts longer. */
export function formatEventDays(startsAt: string, endsAt?: string | null): string {
  const start = startsAt.slice(0, 10);
  const end = endsAt?.slice(0, 10);
  return end && end > start ? `${formatDay(start)}${DATE_RANGE}${formatDay(end)}` : formatDay(start);
}

/** The day an instant falls on in a zone: 'Tue 1 Dec 2026' (when searches renew, when a token was made). */
export function formatDayOf(at: Date, timeZone: string): string {
  return dayText(wallAt(at.getTime(), timeZone));
}

/** An instant in a zone: 'Sun 12 Jul 2026, 19:00'. The caller names the zone (withZone) where it is not the reader's own. */
export function formatEventMoment(at: Date, timeZone: string, clock: Clock = '24h'): string {
  return momentText(wallAt(at.getTime(), timeZone), clock);
}

/**
 * The same instant without weekday and year, '12 Jul, 19:00', for a line a phone has no room for the whole of
 * (a timer's older runs, docs/decisions/time.md); the whole one stays beside it for screen readers and on hover.
 */
export function formatShortMoment(at: Date, timeZone: string, clock: Clock = '24h'): string {
  return shortMomentText(wallAt(at.getTime(), timeZone), clock);
}

/** A wall-clock time 'HH:MM' (a timer's time) as the clock reads it: '18:30' or '6:30 PM'; anything else as given. */
export function formatWallClock(hhmm: string, clock: Clock = '24h'): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  const h = Number(m?.[1]);
  const mi = Number(m?.[2]);
  return m && h <= 23 && mi <= 59 ? clockText({ h, mi }, clock) : hhmm;
}

/** What formatEventDate reads of an event (core/contract/event.ts's fields of the same names). */
export interface EventTimes {
  starts_at: string | null;
  ends_at: string | null;
  all_day: boolean;
  /** The event's own zone, when known: a time written without offset is read in it. */
  timezone?: string | null;
}

export interface EventDateOptions {
  clock?: Clock;
  /** Name the zone after the time ('… (Europe/Berlin)'): where the reader may be in another zone. */
  nameZone?: boolean;
  /** Without weekday and year ('12 Jul, 19:00'), for a phone's one line; an all-day event's days stay whole. */
  short?: boolean;
}

const DATE_NOT_KNOWN = 'Date not known';

/**
 * When an event is, as every surface writes it, in `timeZone` (from knownTimeZone): 'Sun 12 Jul 2026, 19:00';
 * one that ends on a later day as a range, 'Fri 10 Jul 2026, 09:00 – Sun 12 Jul 2026, 17:00'; an all-day
 * event as its days, the same in every zone, so never with a zone; 'Date not known' without a readable start.
 * A time written without an offset is read in the event's own zone, or shown as written when it has none
 * (then no zone is named: it has none).
 */
export function formatEventDate(e: EventTimes, timeZone: string, options: EventDateOptions = {}): string {
  if (!e.starts_at) return DATE_NOT_KNOWN;
  const start = eventWall(e.starts_at, e.timezone, timeZone);
  if (!start) return DATE_NOT_KNOWN;
  if (e.all_day || start.kind === 'day') return formatEventDays(e.starts_at, e.all_day ? e.ends_at : null);
  const clock = options.clock ?? '24h';
  const write = options.short ? shortMomentText : momentText;
  const end = e.ends_at ? eventWall(e.ends_at, e.timezone, timeZone) : null;
  const laterDay =
    end?.kind === start.kind &&
    end.at > start.at &&
    Date.UTC(end.wall.y, end.wall.mo - 1, end.wall.d) > Date.UTC(start.wall.y, start.wall.mo - 1, start.wall.d);
  const text = laterDay ? `${write(start.wall, clock)}${DATE_RANGE}${write(end.wall, clock)}` : write(start.wall, clock);
  return options.nameZone && start.kind === 'instant' ? withZone(text, timeZone) : text;
}

/** Between a moved event's old date and its new one. */
export const MOVED_TO = ' → ';

/**
 * A moved event's old and new date, 'Fri 11 Dec 2026, 19:00 → Tue 15 Dec 2026, 19:00 (Europe/Berlin)': the old
 * start as formatEventDate writes a start (the zone named once, after the new one); formatEventDate's text
 * alone when the old start is not known.
 */
export function formatMovedEventDate(
  e: EventTimes & { moved_from?: string | null },
  timeZone: string,
  options: EventDateOptions = {},
): string {
  const now = formatEventDate(e, timeZone, options);
  if (!e.moved_from) return now;
  const old = { starts_at: e.moved_from, ends_at: null, all_day: e.moved_from.length === 10, timezone: e.timezone };
  return `${formatEventDate(old, timeZone, { ...options, nameZone: false })}${MOVED_TO}${now}`;
}

type ReadTime = { kind: 'day' } | { kind: 'instant' | 'floating'; at: number; wall: Wall };

/** An event's start or end as the wall clock of `timeZone`; a floating one (no offset, no zone) as written. */
function eventWall(iso: string, eventZone: string | null | undefined, timeZone: string): ReadTime | null {
  const parsed = parseIsoTime(iso);
  if (!parsed) return null;
  if (parsed.allDay) return { kind: 'day' };
  const at = parsed.epochMs ?? (isTimeZone(eventZone) ? wallTimeToEpoch(parsed.wall, eventZone) : null);
  if (at !== null) return { kind: 'instant', at, wall: wallAt(at, timeZone) };
  const { y, mo, d, h, mi } = parsed.wall;
  return { kind: 'floating', at: Date.UTC(y, mo - 1, d, h, mi), wall: { y, mo, d, h, mi } };
}
