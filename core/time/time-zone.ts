import { cachedFormat } from './format-cache';

/**
 * Which time zone names this runtime knows: the one check, for a timer's schedule, a searcher's zone, a zone a
 * page or calendar names and a zone a date is shown in. IANA names and their aliases ('UTC', 'US/Eastern'), in
 * any case Intl accepts. Intl alone (no tz database in the bundle): browser-safe.
 */

// No zone name is longer (the longest IANA names have about 30 characters); a longer one is refused unread.
const MAX_ZONE_NAME = 64;

/** The wall-clock parts of an instant in `zone` (year to second, 24-hour); a RangeError for an unknown zone. */
export function partsFormat(zone: string): Intl.DateTimeFormat {
  const format = cachedFormat(
    `parts|${zone}`,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      }),
  );
  if (!format) throw new RangeError(`Invalid time zone specified: ${zone}`);
  return format;
}

/** True for a time zone name the runtime knows (IANA names and their aliases, e.g. 'UTC'). */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone || zone.length > MAX_ZONE_NAME) return false;
  try {
    partsFormat(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone itself when this runtime knows it, else 'UTC': a missing or odd zone must not break a card, a message or a search. */
export function knownTimeZone(timeZone: string | null | undefined): string {
  return isTimeZone(timeZone) ? timeZone : 'UTC';
}

export type TimeZoneName = { ok: true; zone: string } | { ok: false; message: string };

/**
 * A known zone (isTimeZone) a person or a client sends, as it is stored: the runtime's IANA name for it
 * ('europe/berlin' → 'Europe/Berlin', 'US/Eastern' → 'America/New_York'). A UTC offset ('+05:00') or a POSIX
 * rule ('EST5EDT') names no place, so it is refused with a sentence naming a place to send instead.
 */
export function ianaTimeZone(zone: string): TimeZoneName {
  const named = partsFormat(zone).resolvedOptions().timeZone;
  if (/^[+-]/.test(named))
    return {
      ok: false,
      message: `The time zone "${zone}" is a fixed offset from UTC, which does not follow summer time. Send the IANA name of your place, such as Europe/Berlin.`,
    };
  if (!zone.includes('/') && /\d/.test(zone))
    return {
      ok: false,
      message: `The time zone "${zone}" is a POSIX rule, not a place. Send the IANA name of your place, such as ${named.includes('/') ? named : 'Europe/Berlin'}.`,
    };
  return { ok: true, zone: named };
}
