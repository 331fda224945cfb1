import { cityMapping } from 'city-timezones';
import ct from 'countries-and-timezones';
import ICAL from 'ical.js';
import { partsFormat } from './time-zone';

type Timezone = InstanceType<typeof ICAL.Timezone>;

const DAY_MS = 86_400_000;

/** Minutes east of UTC an IANA zone is at an instant. */
function ianaOffset(zone: string, epochMs: number): number {
  const format = partsFormat(zone);
  const part = (parts: Intl.DateTimeFormatPart[], type: string) => Number(parts.find((p) => p.type === type)?.value);
  const parts = format.formatToParts(new Date(epochMs));
  const wall = Date.UTC(part(parts, 'year'), part(parts, 'month') - 1, part(parts, 'day'), part(parts, 'hour'), part(parts, 'minute'));
  return Math.round((wall - epochMs) / 60_000);
}

/** Minutes east of UTC a VTIMEZONE's rules give at an instant (its wall time found from a first guess). */
function rulesOffset(tz: Timezone, epochMs: number, guess: number): number {
  const at = (offset: number) => {
    const d = new Date(epochMs + offset * 60_000);
    const wall = ICAL.Time.fromData({
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: 0,
      isDate: false,
    });
    return Math.round(tz.utcOffset(wall) / 60);
  };
  return at(at(guess));
}

let people: Map<string, number> | undefined;

/** How many people city-timezones counts in each zone's cities: the zone a reader most likely means first. */
function population(zone: string): number {
  if (!people) {
    people = new Map();
    for (const city of cityMapping) {
      if (typeof city.timezone === 'string' && typeof city.pop === 'number')
        people.set(city.timezone, (people.get(city.timezone) ?? 0) + city.pop);
    }
  }
  return people.get(zone) ?? 0;
}

/**
 * The IANA zone whose offsets are the VTIMEZONE's on every day of `year`, for a zone of the
 * calendar's own making that names no place (Outlook's "Customized Time Zone", a display name in another
 * language: "Sarajewo, Skopie, Warszawa, Zagrzeb"). A series read on a fixed offset would be an hour off
 * across each DST change; read in a zone with the same rules it is right. Of the zones that agree, the one
 * with the most people. Undefined when none agrees (a zone no country keeps, or rules that contradict).
 * Costly (a year of days against every zone with the same offsets): a reading asks through its ZoneWork, which
 * bounds and shares it.
 */
export function zoneOfRules(tz: Timezone, year: number): string | undefined {
  const start = Date.UTC(year, 0, 1, 12);
  const days = Array.from({ length: 366 }, (_, i) => start + i * DAY_MS);
  const offsets = days.map((day) => rulesOffset(tz, day, 0));
  const [standard, daylight] = [Math.min(...offsets), Math.max(...offsets)];
  // The most populous first: the first that agrees is the answer, and the others need no year of days each.
  const candidates = Object.values(ct.getAllTimezones())
    .filter((z) => !z.aliasOf && z.utcOffset === standard && z.dstOffset === daylight)
    .sort((a, b) => population(b.name) - population(a.name));
  for (const candidate of candidates) {
    try {
      if (days.every((day, i) => ianaOffset(candidate.name, day) === offsets[i])) return candidate.name;
    } catch {
      // A zone countries-and-timezones knows and this runtime does not.
    }
  }
  return undefined;
}
