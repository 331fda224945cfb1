import type ICAL from 'ical.js';
import { zoneOfRules } from '../time/vtimezone-zone';

type Timezone = InstanceType<typeof ICAL.Timezone>;

/**
 * How many times one reading may work out which IANA zone a calendar's own zone is: a TZID that no name
 * lookup names, looked up by the cities of its display name, or a VTIMEZONE's rules compared with every IANA
 * zone day by day over a year (tens of milliseconds each, under load). A real calendar has a handful of zones of
 * its own making, each over a year or two of events; a hostile one thousands, each with rules of its own.
 */
export const MAX_ZONE_WORK = 10;

/**
 * The zone work of one reading (a page, or the calendars one reading reads together), within MAX_ZONE_WORK.
 * A zone's rules are compared once per year for every zone that has the same rules (by their text, whatever
 * the TZID); a comparison already made costs nothing, also past the limit. Past it, a zone is not worked out:
 * the calendar's events are still read, at the instant the zone's own rules give.
 */
export class ZoneWork {
  private done = 0;
  private readonly byRules = new Map<string, string | undefined>();

  constructor(readonly limit = MAX_ZONE_WORK) {}

  /** Takes one piece of zone work; false when the reading has done as much as it may. */
  take(): boolean {
    if (this.done >= this.limit) return false;
    this.done++;
    return true;
  }

  /** The IANA zone with the rules of `tz` (whose rules read as `rules`) in `year`; undefined past the limit. */
  zoneOfRules(tz: Timezone, rules: string, year: number): string | undefined {
    const key = `${year} ${rules}`;
    if (this.byRules.has(key)) return this.byRules.get(key);
    if (!this.take()) return undefined;
    const zone = zoneOfRules(tz, year);
    this.byRules.set(key, zone);
    return zone;
  }
}
