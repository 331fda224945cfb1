import type { TimezoneSource } from '../contract/event';
import { isTimeZone } from '../time/time-zone';
import { spansWholeDays } from '../time/whole-days';
import { isoInZone, isoWithOffset, offsetMinutes, type ParsedTime, parseIsoTime, wallTimeToEpoch } from '../time/zoned-time';

export interface EventTime {
  starts_at: string | null;
  ends_at: string | null;
  all_day: boolean;
  timezone: string | null;
  timezone_source: TimezoneSource | null;
}

/**
 * The clock an event's times are read and shown with (docs/decisions/events-as-data.md): an IANA zone, or a fixed offset when
 * only an offset is known (the source's own, or the one the page's other events share).
 */
export type Clock =
  | { zone: string; offset?: undefined; source: TimezoneSource }
  | { zone?: undefined; offset: number; source: TimezoneSource };

/** What is known of an event's zone besides its own times, in order of trust. */
export interface ZoneKnowledge {
  /** The zone the source named or the venue's place gave, with the rule that found it. */
  own: { zone: string; source: TimezoneSource } | null;
  /** The page's other events: the zone or offset they agree on. */
  page?: { zone: string } | { offset: number } | null;
  /** The searcher's (or the timer's) zone: the last resort for a time without an offset. */
  searcherTimezone: string;
  /** The one zone the page's venues agree on (their places), whatever the event's own place says. */
  pageVenues?: string | null;
  /** Whether the page's visible text shows this wall-clock time beside the event (see venueOverOffset). */
  shown?: (wall: { h: number; mi: number }) => boolean;
  /**
   * The zone the page's place gives (its address lines, else its domain), asked only when nothing nearer names a
   * zone: a page whose events all carry one wrong offset still names its place (eventON's "+0:00" on Akron times).
   */
  pagePlace?: () => string | null;
}

/**
 * The venue's clock over a written offset that contradicts it (docs/decisions/events-as-data.md): when the offset differs from
 * the venue's zone's offset at that wall time and the page's text shows that wall time beside the event, the
 * offset is the site's mistake (WordPress plugins write "+00:00" on local times) and the wall time is read in
 * the venue's zone. Without that evidence the written offset stands. The venue's zone is the event's own (the
 * source's or its place's), else the one the page's venues agree on, else the one zone the page gives (its other
 * events', else its place's: events that agree only on an offset, the suspect one, say nothing of the venue).
 */
function venueOverOffset(start: ParsedTime, known: ZoneKnowledge): Clock | null {
  // A time written in UTC with 'Z' was converted by its writer, on purpose: only a written offset is suspect.
  if (start.allDay || start.offset === null || start.utc || !known.shown) return null;
  const page = known.page && 'zone' in known.page ? known.page.zone : null;
  const zone = known.own?.zone ?? known.pageVenues ?? page ?? known.pagePlace?.();
  if (!zone || !isTimeZone(zone)) return null;
  if (offsetMinutes(zone, wallTimeToEpoch(start.wall, zone)) === start.offset) return null;
  return known.shown(start.wall) ? { zone, source: 'venue-over-offset' } : null;
}

/**
 * The clock of an event whose start is `start`: its own zone when known; else a start written with an offset
 * keeps that offset (the instant is exact and no one else's zone is involved); else the page's agreement;
 * else the searcher's zone, the only rule that depends on who looks.
 */
export function chooseClock(start: ParsedTime | null, known: ZoneKnowledge): Clock {
  if (known.own && isTimeZone(known.own.zone)) return { zone: known.own.zone, source: known.own.source };
  if (start && !start.allDay && start.offset !== null) return { offset: start.offset, source: 'offset' };
  const page = known.page;
  if (page && 'zone' in page && isTimeZone(page.zone)) return { zone: page.zone, source: 'page' };
  if (page && 'offset' in page) return { offset: page.offset, source: 'page' };
  return { zone: isTimeZone(known.searcherTimezone) ? known.searcherTimezone : 'UTC', source: 'searcher' };
}

/** The instant of a parsed time on a clock: its own offset when written, else its wall time on the clock. */
export function instantOn(t: ParsedTime, clock: Clock): number {
  if (t.epochMs !== null) return t.epochMs;
  if (clock.zone !== undefined) return wallTimeToEpoch(t.wall, clock.zone);
  const w = t.wall;
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - clock.offset * 60_000;
}

/** An instant as the contract writes it: local ISO 8601 with the clock's offset at that instant. */
export function isoOn(epochMs: number, clock: Clock): string {
  return clock.zone !== undefined ? isoInZone(epochMs, clock.zone) : isoWithOffset(epochMs, clock.offset);
}

/**
 * The contract's times from what a source wrote: ISO 8601 with an explicit offset in the event's local time,
 * or a date alone for an all-day event. The event's own zone (source, venue) decides first; see chooseClock.
 * Impossible dates (2026-02-31) and years outside 1970–2200 are no time at all: the event keeps no date.
 * Midnight to 23:59 is whole days (spansWholeDays): all day, ending on the end's date when later.
 */
export function eventTime(input: { start: string | null | undefined; end: string | null | undefined; known: ZoneKnowledge }): EventTime {
  const own = input.known.own && isTimeZone(input.known.own.zone) ? input.known.own : null;
  const start = parseIsoTime(input.start);
  const dateless = { starts_at: null, ends_at: null, all_day: false, timezone: own?.zone ?? null, timezone_source: own?.source ?? null };
  if (!start) return dateless;
  const end = parseIsoTime(input.end);
  if (start.allDay || spansWholeDays(start, end)) {
    const endDate = end?.date ?? null;
    return {
      starts_at: start.date,
      ends_at: endDate && endDate > start.date ? endDate : null,
      all_day: true,
      timezone: own?.zone ?? null,
      timezone_source: own?.source ?? null,
    };
  }
  const overruled = venueOverOffset(start, input.known);
  const clock = overruled ?? chooseClock(start, input.known);
  // Overruled, both times are read as wall times on the venue's clock.
  const read = (t: ParsedTime) => instantOn(overruled ? { ...t, epochMs: null } : t, clock);
  const startMs = read(start);
  const endMs = end && !end.allDay ? read(end) : null;
  return {
    starts_at: isoOn(startMs, clock),
    ends_at: endMs !== null && endMs > startMs ? isoOn(endMs, clock) : null,
    all_day: false,
    timezone: clock.zone ?? null,
    timezone_source: clock.source,
  };
}

/** Whether two contract starts name the same moment (or the same day). */
export function sameStart(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a.length === 10 || b.length === 10) return a.slice(0, 10) === b.slice(0, 10) && a.length === b.length;
  return Date.parse(a) === Date.parse(b);
}
