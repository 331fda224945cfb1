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
