import { cityMapping } from 'city-timezones';
import ct from 'countries-and-timezones';
import type ICAL from 'ical.js';
import { findIana } from 'windows-iana';
import { canonicalZone } from './canonical-zone';
import { isTimeZone } from './time-zone';

type Component = InstanceType<typeof ICAL.Component>;

/**
 * The current IANA name of a zone (or alias) a source names (canonicalZone), or undefined when the runtime knows
 * no such zone. Asked thousands of times for the same few names a calendar writes: the formats behind it are
 * cached once (format-cache.ts).
 */
export function ianaZone(name: string): string | undefined {
  const key = name.trim();
  return isTimeZone(key) ? canonicalZone(key) : undefined;
}

/**
 * The IANA zone an iCalendar TZID names, without guessing: an IANA name as it stands; a Windows zone name
 * (Outlook, Exchange) through windows-iana's CLDR table, whose first answer is the zone CLDR lists for the
 * Windows zone's own territory ('W. Europe Standard Time' → Europe/Berlin); a name that ends in an IANA
 * name ('/mozilla.org/20050126_1/Europe/Berlin', '/citadel.org/…/America/New_York'); the IANA name the
 * VTIMEZONE itself carries in X-LIC-LOCATION; or a Windows display name (see labelZone). Undefined otherwise:
 * the caller converts with the VTIMEZONE.
 */
export function ianaZoneOf(tzid: string, vtimezone: Component | undefined): string | undefined {
  return namedZone(tzid, vtimezone) ?? labelZone(tzid, vtimezone);
}

/** The IANA zone a TZID names by a name lookup alone (see ianaZoneOf): cheap, with no table scanned. */
export function namedZone(tzid: string, vtimezone: Component | undefined): string | undefined {
  const name = unquoted(tzid);
  const direct = /^[A-Za-z]+\/[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)?$/.test(name) || name === 'UTC' ? ianaZone(name) : undefined;
  if (direct) return direct;
  const windows = findIana(name)[0];
  if (windows) return windows;
  const tail = /([A-Za-z]+\/[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)?)$/.exec(name)?.[1];
  const fromTail = tail ? ianaZone(tail) : undefined;
  if (fromTail) return fromTail;
  const location = vtimezone?.getFirstPropertyValue('x-lic-location');
  return typeof location === 'string' ? ianaZone(location) : undefined;
}

/**
 * The IANA zone of a TZID that is a Windows display name, with its offset (see windowsDisplayZone) or without
 * it (see outlookLabelZone). Looks the name's cities up in city-timezones' table: worth it for the few zones a
 * calendar names, bounded by the caller for a calendar's many.
 */
export function labelZone(tzid: string, vtimezone: Component | undefined): string | undefined {
  const name = unquoted(tzid);
  return windowsDisplayZone(name) ?? outlookLabelZone(name, vtimezone);
}

const unquoted = (tzid: string) => tzid.trim().replace(/^"|"$/g, '');

/**
 * The IANA zone of a Windows display name written without its offset, as Outlook 2003 wrote TZIDs ('Canberra,
 * Melbourne, Sydney', 'Eastern Time (US & Canada)'), read as windowsDisplayZone reads one with it, the offset
 * being the standard one its VTIMEZONE states. No guess when the VTIMEZONE states none: the VTIMEZONE converts.
 */
function outlookLabelZone(name: string, vtimezone: Component | undefined): string | undefined {
  const offset = vtimezone ? standardOffset(vtimezone) : undefined;
  if (offset === undefined || DISPLAY_NAME.test(name.trim())) return undefined;
  const key = `${offset} ${name.trim()}`;
  if (displayed.has(key)) return displayed.get(key);
  const zone = zoneOfLabel(name.trim(), offset);
  if (displayed.size >= 1000) displayed.clear();
  displayed.set(key, zone);
  return zone;
}

/** Minutes east of UTC of a VTIMEZONE's standard time: the TZOFFSETTO of its latest STANDARD part. */
function standardOffset(vtimezone: Component): number | undefined {
  let latest: { start: string; seconds: number } | undefined;
  for (const part of vtimezone.getAllSubcomponents('standard')) {
    const start = String(part.getFirstPropertyValue('dtstart') ?? '');
    const to = part.getFirstPropertyValue('tzoffsetto') as { toSeconds?: () => number } | null;
    const seconds = typeof to?.toSeconds === 'function' ? to.toSeconds() : undefined;
    if (seconds !== undefined && (!latest || start > latest.start)) latest = { start, seconds };
  }
  return latest ? latest.seconds / 60 : undefined;
}

const DISPLAY_NAME = /^\((?:UTC|GMT)(?:([+-])(\d{1,2}):?(\d{2}))?\)\s*(.+)$/i;

/**
 * The IANA zone of a Windows zone's display name, as Exchange and Outlook write TZIDs ('(UTC-05:00) Eastern
 * Time (US & Canada)', '(GMT+10:00) Canberra, Melbourne, Sydney'). CLDR's table has only the zones' ids, so the
 * name is read two ways: 'Eastern Time' as the id 'Eastern Standard Time', and each city it lists through
 * city-timezones. A candidate counts only when its standard offset is the one the name states, so a Sydney in
 * Nova Scotia never answers for the Australian one. When none does, the stated offset itself, as an Etc/GMT
 * zone (whole hours only): the instant is right outside summer time, which is better than the searcher's zone.
 */
export function windowsDisplayZone(name: string): string | undefined {
  const m = DISPLAY_NAME.exec(name.trim());
  if (!m) return undefined;
  // Each lookup scans the city table; an Exchange export names the same zone on every event.
  const key = name.trim();
  if (displayed.has(key)) return displayed.get(key);
  const zone = displayZone(m);
  if (displayed.size >= 1000) displayed.clear();
  displayed.set(key, zone);
  return zone;
}

const displayed = new Map<string, string | undefined>();

// Some names in the city table are numbers or missing.
const same = (name: unknown, lower: string) => typeof name === 'string' && name.toLowerCase() === lower;

function displayZone(m: RegExpExecArray): string | undefined {
  const [, sign, hours, minutes, rest] = m;
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) : 0;
  const zone = zoneOfLabel(rest!, offset);
  if (zone) return zone;
  if (offset === 0) return 'UTC';
  return offset % 60 === 0 ? ianaZone(`Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset) / 60}`) : undefined;
}

/** The zone a Windows display label names ('Eastern Time (US & Canada)', 'Canberra, Melbourne, Sydney') whose standard offset is `offset`. */
function zoneOfLabel(name: string, offset: number): string | undefined {
  const label = name.replace(/\([^)]*\)/g, '').trim();
  const ids = [label, label.replace(/\bTime$/i, 'Standard Time'), `${label} Standard Time`];
  const candidates = [
    ...ids.flatMap((id) => findIana(id)),
    // Windows names list at most a few cities; the TZID is untrusted, so no more are looked up.
    ...label
      .split(/\s*,\s*/)
      .slice(0, 6)
      .map((city) => city.toLowerCase())
      .flatMap((city) => cityMapping.filter((c) => same(c.city_ascii, city) || same(c.city, city)).map((c) => c.timezone)),
  ];
  for (const candidate of candidates) {
    const zone = ianaZone(candidate);
    if (zone && ct.getTimezone(zone)?.utcOffset === offset) return zone;
  }
  return undefined;
}
