import ICAL from 'ical.js';
import { clean, type EventFact, withoutAbsent } from './event-fact';
import type { FactSink } from './fact-sink';
import { textValue } from './ical-text';
import { isCalendarDay } from '../time/calendar-day';
import { addDuration } from '../time/iso-time';
import { resolveLink } from './links';
import { ianaZoneOf, labelZone, namedZone } from '../time/zone-names';
import { ZoneWork } from './zone-work';

export interface IcalOptions {
  /** The calendar's address: URL values resolve against it. */
  baseUrl: string;
  sink: FactSink;
  /** The zone work of the reading this calendar is part of (several calendars read together share it). */
  zoneWork?: ZoneWork;
}

type Component = InstanceType<typeof ICAL.Component>;
type Property = InstanceType<typeof ICAL.Property>;

// A recurrence rule has no space in its grammar; Microsoft CDO writes 'BYDAY=MO, TU, WE'.
const recurWithoutSpaces = (line: string) => (/^(?:RRULE|EXRULE):/i.test(line) ? line.replace(/\s+/g, '') : line);

/**
 * Parses iCalendar text with ical.js, leniently. Real exports carry stray lines (a wrapped line that lost its
 * leading space, an HTML error page's leftovers): when the strict parse refuses the text, the lines that are
 * not `NAME[;params]:value` are left out, recurrence rules lose the spaces Microsoft CDO writes into them
 * (`BYDAY=MO, TU`), and it is parsed again. ical.js also refuses a whole calendar for one
 * value it reads at once (an RRULE whose COUNT is no number): then each line it refuses alone is left out, and
 * an event that loses a line saying when it happens is left out whole and counted in `unreadable`.
 */
function parseCalendars(written: string): { calendars: Component[]; unreadable: number } {
  const ics = withLineFeeds(written);
  const attempt = (text: string) => {
    try {
      return ICAL.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  let unreadable = 0;
  let jcal = attempt(ics);
  if (jcal === undefined) {
    const lines = ics
      .replace(/\r?\n[ \t]/g, '')
      .split(/\r?\n/)
      .filter((line) => /^[A-Za-z0-9-]+(?:;[^:]*)?:/.test(line))
      .map(recurWithoutSpaces);
    jcal = attempt(lines.join('\r\n'));
    if (jcal === undefined) {
      const kept = withoutUnreadableLines(lines);
      unreadable = kept.unreadable;
      jcal = attempt(kept.lines.join('\r\n'));
    }
  }
  if (!Array.isArray(jcal) || jcal.length === 0) return { calendars: [], unreadable };
  const roots = typeof jcal[0] === 'string' ? [jcal] : jcal;
  return { calendars: roots.map((root) => new ICAL.Component(root as unknown[])), unreadable };
}

/**
 * ical.js ends lines at LF only, so a calendar written with CR alone (classic Mac OS: Lotus Notes, old iCal)
 * reads as one line and yields nothing. A text with no LF at all has its CRs made line ends; a text that has
 * LFs keeps a stray CR as written, so a value with a CR inside is not cut in two.
 */
const withLineFeeds = (ics: string) => (ics.includes('\n') ? ics : ics.replace(/\r/g, '\r\n'));

// The lines that say when an event happens: without one the event would be read at a wrong time or as one-off.
const TIME_LINES = new Set(['dtstart', 'dtend', 'due', 'duration', 'rrule', 'exrule', 'rdate', 'exdate', 'recurrence-id']);

/** The lines ical.js reads alone; an event with an unreadable time line is left out whole. */
function withoutUnreadableLines(lines: string[]): { lines: string[]; unreadable: number } {
  const kept: string[] = [];
  let event: string[] | null = null;
  let eventReadable = true;
  let unreadable = 0;
  for (const line of lines) {
    const name = line.slice(0, line.search(/[;:]/)).toLowerCase();
    if (name === 'begin' && /^begin:vevent$/i.test(line.trim())) {
      event = [line];
      eventReadable = true;
      continue;
    }
    if (event && name === 'end' && /^end:vevent$/i.test(line.trim())) {
      if (eventReadable) kept.push(...event, line);
      else unreadable++;
      event = null;
      continue;
    }
    // BEGIN and END delimit components: ical.js reads them only within a calendar.
    const readableLine = name === 'begin' || name === 'end' || readable(() => ICAL.parse.property(line)) !== undefined;
    if (!readableLine && event && TIME_LINES.has(name)) eventReadable = false;
    if (readableLine) (event ?? kept).push(line);
  }
  return { lines: kept, unreadable };
}

/**
 * A time as the calendar says it: `at` in ISO 8601 (UTC with Z, a date alone, or local time without offset),
 * the IANA zone the calendar named for it, and the line the prompt shows.
 */
interface CalendarTime {
  at: string;
  zone?: string;
  display: string;
}

interface Zones {
  /** VTIMEZONE components by TZID. */
  custom: Map<string, Component>;
  /** Each TZID as read, once per calendar. */
  read: Map<string, TzidZone>;
  /** The calendar's own zones built for ical.js, by their rules as written: TZIDs with the same rules share one. */
  built: Map<string, TzidZone['own']>;
  /** X-WR-TIMEZONE: the zone an export names for its floating times (Google, Apple). */
  calendarZone?: string;
  work: ZoneWork;
}

/**
 * A TZID as read: the IANA zone it names, or else the calendar's own zone, built by ical.js once (it caches the
 * transitions it has computed), with its rules' text (zones with the same rules are worked out once).
 */
interface TzidZone {
  zone?: string;
  own?: { tz: InstanceType<typeof ICAL.Timezone>; rules: string };
}

const clock = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)}`;

function offsetText(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  return `${sign}${String(Math.floor(abs / 3600)).padStart(2, '0')}:${String(Math.floor((abs % 3600) / 60)).padStart(2, '0')}`;
}

/** ical.js passes a day no month has ('DTSTART:20171032T000000') through as it is written: a date no calendar holds. */
const onTheCalendar = (value: string) => isCalendarDay(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10)));

/** One jCal value ('2026-06-09T18:30:00', '…Z', '2026-07-01', or a period's start) with its TZID read. */
function timeOf(value: unknown, type: string, tzid: string | undefined, zones: Zones): CalendarTime | undefined {
  const given = type === 'period' && Array.isArray(value) ? value[0] : value;
  // A date written without VALUE=DATE (DTSTART:20240215, Synology) comes out of ical.js as '2024-02-15T::'.
  const raw = typeof given === 'string' && /^\d{4}-\d{2}-\d{2}T:*$/.test(given) ? given.slice(0, 10) : given;
  if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(raw) || !onTheCalendar(raw)) return undefined;
  if (raw.length === 10) return { at: raw, display: raw };
  if (raw.endsWith('Z')) return { at: raw, display: `${clock(raw)} UTC` };
  const { zone, own } = tzid ? tzidZone(tzid, zones) : { zone: zones.calendarZone, own: undefined };
  if (zone) return { at: raw, zone, display: `${clock(raw)} (${zone})` };
  if (own) {
    // A zone of the calendar's own making that names no IANA zone: named by the IANA zone with the same rules
    // when one has them (and the reading's zone work allows), so a series keeps them across DST changes; else
    // its rules still give the instant.
    const named = readable(() => zones.work.zoneOfRules(own.tz, own.rules, Number(raw.slice(0, 4))));
    if (named) return { at: raw, zone: named, display: `${clock(raw)} (${named})` };
    const offset = readable(() => offsetText(own.tz.utcOffset(ICAL.Time.fromDateTimeString(raw))));
    if (offset) return { at: `${raw}${offset}`, display: `${clock(raw)} (UTC${offset})` };
  }
  return { at: raw, display: `${clock(raw)} (local time)` };
}

/**
 * A TZID read once per calendar: the IANA zone its name names, or its display name's cities do (as zone work
 * allows), or else the calendar's own VTIMEZONE by that TZID, built for ical.js. When ical.js cannot read it (a
 * broken TZOFFSET), neither: its times are read as local time, as with no zone.
 */
function tzidZone(tzid: string, zones: Zones): TzidZone {
  const known = zones.read.get(tzid);
  if (known) return known;
  const custom = zones.custom.get(tzid);
  // Naming the zone reads the VTIMEZONE's offsets too, which ical.js may refuse.
  const zone = readable(() => namedZone(tzid, custom)) ?? (zones.work.take() ? readable(() => labelZone(tzid, custom)) : undefined);
  const read: TzidZone = zone ? { zone } : { own: custom && builtZone(custom, zones) };
  zones.read.set(tzid, read);
  return read;
}

/** The ical.js zone of a calendar's own VTIMEZONE, built once for every TZID with the same rules. */
function builtZone(vtimezone: Component, zones: Zones): TzidZone['own'] {
  const written = vtimezone
    .getAllSubcomponents()
    .map((part) => part.toString())
    .join('\n');
  if (zones.built.has(written)) return zones.built.get(written);
  const own = readable(() => ownZone(vtimezone));
  zones.built.set(written, own);
  return own;
}

/** The ical.js zone of a calendar's own VTIMEZONE, and the text of its rules. */
function ownZone(vtimezone: Component): TzidZone['own'] {
  const recent = recentObservances(vtimezone);
  return {
    tz: new ICAL.Timezone(recent),
    rules: recent
      .getAllSubcomponents()
      .map((part) => part.toString())
      .join('\n'),
  };
}

/**
 * A value ical.js reads only when asked (a DURATION, an RRULE, a VTIMEZONE's offsets), or undefined when it
 * refuses it: one value written wrong costs that value, not the calendar.
 */
function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * The VTIMEZONE with its observances starting no earlier than 1970, and only the rules a time zone can have.
 * Outlook starts every rule in 1601, and ical.js walks a rule from its start: four centuries of transitions for
 * each zone. A yearly rule gives the same transitions whichever year it starts in, and no event of ours is older
 * than 1970. ical.js expands every observance's rule in one synchronous go, from its start to five years past
 * the latest year asked: a rule of a calendar's own making that changes the offset every minute (FREQ=MINUTELY,
 * or a YEARLY one with BYHOUR and BYMINUTE lists) would make millions of transitions. Zones change their
 * offset at most a few times a year, on a rule of one month and one weekday or a week of month days; any other
 * rule is set aside, its observance kept as the one change at its start.
 */
function recentObservances(vtimezone: Component): Component {
  const copy = new ICAL.Component(JSON.parse(JSON.stringify(vtimezone.toJSON())) as unknown[]);
  for (const observance of copy.getAllSubcomponents()) {
    const start = observance.getFirstProperty('dtstart');
    const value = start?.getFirstValue();
    if (start && value instanceof ICAL.Time && value.year < 1970) {
      const moved = value.clone();
      moved.year = 1970;
      start.setValue(moved);
    }
    const rules = observance.getAllProperties('rrule');
    if (rules.length > 1 || (rules.length === 1 && !isZoneRule(rules[0]!.getFirstValue()))) observance.removeAllProperties('rrule');
  }
  return copy;
}

/** The parts a real zone's rule uses (RFC 5545's examples, every tz database export): see recentObservances. */
const ZONE_RULE_PARTS = new Set(['BYMONTH', 'BYDAY', 'BYMONTHDAY']);

/** Whether an observance's rule is one a time zone can have: yearly, one month, one weekday, at most a week of days. */
function isZoneRule(rule: unknown): boolean {
  if (!(rule instanceof ICAL.Recur) || rule.freq !== 'YEARLY' || (rule.interval ?? 1) !== 1) return false;
  return Object.entries(rule.parts).every(([part, values]) => {
    if (!ZONE_RULE_PARTS.has(part) || !Array.isArray(values)) return false;
    return values.length <= (part === 'BYMONTHDAY' ? 7 : 1);
  });
}

function propertyTime(prop: Property | null, zones: Zones): CalendarTime | undefined {
  if (!prop) return undefined;
  const [, params, type, value] = prop.toJSON() as [string, Record<string, string>, string, unknown];
  return timeOf(value, type, params.tzid, zones);
}

/** Every value of every RDATE or EXDATE property, converted as DTSTART is. */
function allTimes(component: Component, name: string, zones: Zones): string[] {
  const out: string[] = [];
  for (const prop of component.getAllProperties(name)) {
    const [, params, type, ...values] = prop.toJSON() as [string, Record<string, string>, string, ...unknown[]];
    for (const value of values) {
      const t = timeOf(value, type, params.tzid, zones);
      if (t) out.push(t.at);
    }
  }
  return out;
}

/** A DATE DTEND is exclusive (RFC 5545 3.6.1); endAt and the prompt name the last day, as schema.org's endDate does. */
function lastDay(end: string, start: string): string {
  const [y, m, d] = end.split('-').map(Number);
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(y!, m! - 1, d! - 1);
  const last = t.toISOString().slice(0, 10);
  return last < start ? start : last;
}

/** Every VEVENT of an iCalendar text (a feed, an .ics file the page links, an iCalendar body). */
export function eventsFromIcal(ics: string, options: IcalOptions): void {
  const { calendars, unreadable } = parseCalendars(ics);
  options.sink.unreadable += unreadable;
  const work = options.zoneWork ?? new ZoneWork();
  for (const calendar of calendars) {
    const custom = new Map<string, Component>();
    for (const tz of calendar.getAllSubcomponents('vtimezone')) {
      const id = tz.getFirstPropertyValue('tzid');
      if (typeof id === 'string') custom.set(id, tz);
    }
    const wr = calendar.getFirstPropertyValue('x-wr-timezone');
    const zones: Zones = {
      custom,
      read: new Map(),
      built: new Map(),
      calendarZone: typeof wr === 'string' ? ianaZoneOf(wr, undefined) : undefined,
      work,
    };
    const events = calendar.name === 'vevent' ? [calendar] : calendar.getAllSubcomponents('vevent');
    for (const event of events) {
      if (options.sink.full) {
        options.sink.dropped++;
        continue;
      }
      // An event ical.js cannot read (its RRULE written wrong: the series is unknown) is counted, and the
      // calendar's other events still read.
      const fact = readable(() => toFact(event, zones, options.baseUrl));
      if (fact === undefined) options.sink.unreadable++;
      else if (fact) options.sink.add(fact);
    }
  }
}

/** A wall time without zone, offset or Z: RFC 5545's floating time. */
const isFloating = (t: CalendarTime | undefined): t is CalendarTime =>
  !!t && !t.zone && t.at.length > 10 && !/(Z|[+-]\d\d:\d\d)$/.test(t.at);

/**
 * One event's start and end in one zone: when one of them is floating and the other names a zone
 * (DTSTART:20250814T180000 beside DTEND;TZID=Europe/Brussels:20250814T190000, an editor that dropped one TZID),
 * the floating one is read in the zone its event names rather than in the reader's (docs/decisions/events-as-data.md).
 */
function sharingTheirZone(
  start: CalendarTime | undefined,
  end: CalendarTime | undefined,
): [CalendarTime | undefined, CalendarTime | undefined] {
  const inZone = (t: CalendarTime, zone: string): CalendarTime => ({ at: t.at, zone, display: `${clock(t.at)} (${zone})` });
  if (isFloating(start) && end?.zone) return [inZone(start, end.zone), end];
  if (isFloating(end) && start?.zone) return [start, inZone(end, start.zone)];
  return [start, end];
}

function toFact(event: Component, zones: Zones, baseUrl: string): EventFact | null {
  const text = (name: string, max?: number) => clean(textValue(event.getFirstProperty(name)), max);
  const summary = text('summary');
  if (!summary) return null;
  const dtstart = event.getFirstProperty('dtstart');
  let start = propertyTime(dtstart, zones);
  // A DTSTART that is no date ('DTSTART;VALUE=DATE:Next Year') leaves nothing a calendar could hold.
  if (dtstart && !start) return null;
  let end = propertyTime(event.getFirstProperty('dtend') ?? event.getFirstProperty('due'), zones);
  if (!end && start) {
    const duration = readable(() => event.getFirstPropertyValue('duration'));
    const endAt = duration ? addDuration(start.at, duration.toString()) : undefined;
    if (endAt)
      end = { at: endAt, zone: start.zone, display: endAt.length === 10 ? endAt : start.display.replace(clock(start.at), clock(endAt)) };
  } else if (end && start && end.at.length === 10) {
    const last = lastDay(end.at, start.at);
    end = { at: last, display: last };
  }
  [start, end] = sharingTheirZone(start, end);
  const status = text('status')?.toUpperCase();
  const [rrule, ...moreRrules] = event.getAllProperties('rrule').map((p) => p.getFirstValue());
  const rdates = allTimes(event, 'rdate', zones);
  const exdates = allTimes(event, 'exdate', zones);
  const organizer = event.getFirstProperty('organizer');
  const cn = organizer?.getParameter('cn');
  const organizerValue = organizer?.getFirstValue();
  const url = text('url', 2000);
  const location = text('location');
  const fact: EventFact = {
    name: status === 'CANCELLED' ? `${summary} (cancelled)` : summary,
    start: start?.display,
    // A one-day all-day event ends on the day it starts: the prompt says nothing more than its date.
    end: end && !(end.at.length === 10 && end.at === start?.at) ? end.display : undefined,
    place: location,
    url: url ? resolveLink(url, baseUrl) : undefined,
    organizer: clean(
      typeof cn === 'string' ? cn : typeof organizerValue === 'string' ? organizerValue.replace(/^mailto:/i, '') : undefined,
    ),
    description: text('description', 240),
    startAt: start?.at,
    endAt: end?.at,
    timezone: start?.zone,
    venue: location,
    status: status === 'CANCELLED' ? 'cancelled' : status === 'TENTATIVE' ? 'tentative' : undefined,
    uid: text('uid', 1000),
    recurrence: rrule || rdates.length > 0 ? { rrule: rrule ? rrule.toString() : undefined, rdates, exdates } : undefined,
    recurrenceId: propertyTime(event.getFirstProperty('recurrence-id'), zones)?.at,
  };
  if (fact.recurrence && fact.recurrence.rrule === undefined) delete fact.recurrence.rrule;
  if (fact.recurrence && moreRrules.length > 0) fact.recurrence.moreRrules = moreRrules.map(String);
  return withoutAbsent(fact);
}
