import { findIana } from 'windows-iana';
import type ICAL from 'ical.js';

type Component = InstanceType<typeof ICAL.Component>;

// Building an Intl.DateTimeFormat costs far more than the rest of reading an event, and a calendar names
// the same few zones thousands of times. Bounded: the names come from untrusted input.
const known = new Map<string, string | undefined>();

/** The runtime's canonical name for an IANA zone (or alias), or undefined when it knows no such zone. */
export function ianaZone(name: string): string | undefined {
  const key = name.trim();
  if (!key) return undefined;
  if (known.has(key)) return known.get(key);
  let zone: string | undefined;
  try {
    zone = new Intl.DateTimeFormat('en', { timeZone: key }).resolvedOptions().timeZone;
  } catch {
    zone = undefined;
  }
  if (known.size >= 1000) known.clear();
  known.set(key, zone);
  return zone;
}

/**
 * The IANA zone an iCalendar TZID names, without guessing: an IANA name as it stands; a Windows zone name
 * (Outlook, Exchange) through windows-iana's CLDR table, whose first answer is the zone CLDR lists for the
 * Windows zone's own territory ('W. Europe Standard Time' → Europe/Berlin); a name that ends in an IANA
 * name ('/mozilla.org/20050126_1/Europe/Berlin', '/citadel.org/…/America/New_York'); or the IANA name the
 * VTIMEZONE itself carries in X-LIC-LOCATION. Undefined otherwise: the caller converts with the VTIMEZONE.
 */
export function ianaZoneOf(tzid: string, vtimezone: Component | undefined): string | undefined {
  const name = tzid.trim().replace(/^"|"$/g, '');
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
