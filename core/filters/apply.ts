import type { FoundEvent } from '../contract/event';
import type { DateWindow, TimerFilters } from '../contract/timer-filters';
import { formatDay } from '../time/date-words';
import { cachedFormat } from '../time/format-cache';
import { distanceKm, findPlace } from './gazetteer';

export interface FilterContext {
  /** The timer's (or searcher's) zone: "the next 14 days" start on today's date there. */
  timezone: string;
  now: Date;
}

/**
 * The events these filters keep, in their order. Applied to a run's events before only-new (and to a
 * search's before they are stored), so digests, webhooks and feeds only ever carry kept events. An in-person
 * event whose place the offline tables cannot find is dropped when a place is asked for, as is an undated
 * event when a date window is (docs/decisions/timers-in-words-and-filters.md).
 */
export function applyFilters<E extends FoundEvent>(events: E[], filters: TimerFilters | null, ctx: FilterContext): E[] {
  if (!filters) return events;
  const why = hiddenReason(filters, ctx);
  return events.filter((e) => why(e) === null);
}

/**
 * Which of the filters leaves an event out, in words a person reads beside it ("online, and you asked for in
 * person"); null when the filters (or no filters) keep it. The first filter that leaves it out is named, in applyFilters' order.
 */
export function hiddenReason(filters: TimerFilters | null, ctx: FilterContext): (e: FoundEvent) => string | null {
  if (!filters) return () => null;
  const days = filters.window ? windowDays(filters.window, ctx) : null;
  const excluded = filters.exclude.map((word) => ({ word, pattern: wordPattern(word) }));
  const centre = filters.place ? placeCentre(filters.place) : null;
  return (e) => {
    const online = e.online === true;
    if (filters.attendance === 'in_person' && online) return 'online, and you asked for in person';
    if (filters.attendance === 'online' && !online) return 'in person, and you asked for online';
    if (centre && filters.place && !online && !withinPlace(e, centre)) {
      return `not within ${filters.place.radius_km} km of ${filters.place.name}`;
    }
    if (days && filters.window && !withinDays(e, days)) {
      const asked =
        'next_days' in filters.window ? `the next ${filters.window.next_days} days` : `${formatDay(days.from)} to ${formatDay(days.to)}`;
      return e.starts_at ? `not in ${asked}` : `no date given, and you asked for ${asked}`;
    }
    const words = `${e.title} ${e.venue ?? ''}`;
    const word = excluded.find((x) => x.pattern.test(words))?.word;
    return word === undefined ? null : `names “${word}”, which you left out`;
  };
}

interface PlaceCentre {
  lat: number;
  lng: number;
  /** The radius of the filter's own city (0 when the tables do not know it). */
  extentKm: number;
  radiusKm: number;
  near?: { country: string };
}

/** The filter's place, looked up once per run; null when it has no coordinates (then every place is kept). */
function placeCentre(place: NonNullable<TimerFilters['place']>): PlaceCentre | null {
  if (place.lat === undefined || place.lng === undefined) return null;
  const near = place.country ? { country: place.country } : undefined;
  return { lat: place.lat, lng: place.lng, extentKm: findPlace(place.name, near)?.extentKm ?? 0, radiusKm: place.radius_km, near };
}

function withinPlace(e: FoundEvent, centre: PlaceCentre): boolean {
  const at = (e.city ? findPlace(e.city, centre.near) : null) ?? (e.venue ? findPlace(e.venue, centre.near) : null);
  if (!at) return false;
  // From edge to edge: the event may be anywhere in its city, and "20 km of Berlin" starts where Berlin ends.
  return distanceKm(at, centre) - (at.extentKm + centre.extentKm) <= centre.radiusKm;
}

function withinDays(e: FoundEvent, days: { from: string; to: string }): boolean {
  if (!e.starts_at) return false;
  // The event's own local date: starts_at carries the venue's offset, or is a date alone when all-day.
  const start = e.starts_at.slice(0, 10);
  const end = (e.ends_at ?? e.starts_at).slice(0, 10);
  return start <= days.to && end >= days.from;
}

/** The window as two dates (YYYY-MM-DD, both included). */
export function windowDays(window: DateWindow, ctx: FilterContext): { from: string; to: string } {
  if ('from' in window) return { from: window.from, to: window.to };
  const today = localDate(ctx.now, ctx.timezone);
  const to = new Date(`${today}T00:00:00Z`);
  to.setUTCDate(to.getUTCDate() + window.next_days);
  return { from: today, to: to.toISOString().slice(0, 10) };
}

/** The date (YYYY-MM-DD) that `now` is in this zone. */
export function localDate(now: Date, timezone: string): string {
  const format = cachedFormat(
    `local-date|${timezone}`,
    () => new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  );
  if (!format) throw new RangeError(`Invalid time zone specified: ${timezone}`);
  return format.format(now);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word (or phrase) on its own, in any case: "crypto" drops "Crypto Night", not "cryptography". */
const wordPattern = (word: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'iu');
