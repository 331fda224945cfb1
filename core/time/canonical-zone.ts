import ct from 'countries-and-timezones';
import { isTimeZone, partsFormat } from './time-zone';

/**
 * A zone's name as the IANA time zone database writes it today. Intl's own canonical name is ICU's, which keeps
 * names the database renamed long ago (Asia/Kolkata → 'Asia/Calcutta', Europe/Kyiv → 'Europe/Kiev'), so a person
 * who typed the current name would see the old one. Server-side: countries-and-timezones carries the database's
 * links (a renamed zone's old name is an alias of the current one).
 */

// Every name the database knows, by its lower case, so 'asia/kolkata' finds 'Asia/Kolkata'.
let byLowerCase: Map<string, { name: string; aliasOf: string | null }> | undefined;

function databaseEntry(zone: string) {
  const names =
    byLowerCase ??
    new Map(
      Object.values(ct.getAllTimezones({ deprecated: true })).map((z) => [
        z.name.toLowerCase(),
        { name: z.name as string, aliasOf: (z.aliasOf as string | null | undefined) ?? null },
      ]),
    );
  byLowerCase = names;
  return names.get(zone.toLowerCase());
}

/**
 * The name a known zone (isTimeZone) is kept and shown by: the database's current name for it ('asia/calcutta'
 * and 'Asia/Kolkata' → 'Asia/Kolkata', 'US/Eastern' → 'America/New_York'), else the runtime's ('utc' → 'UTC',
 * 'Etc/GMT+5'). The database's name is taken only when this runtime reads it as the same zone as the one sent.
 */
export function canonicalZone(zone: string): string {
  const runtime = partsFormat(zone).resolvedOptions().timeZone;
  // UTC stays 'UTC' (the database calls it Etc/UTC); offsets and Etc/ zones have no other name.
  if (runtime === 'UTC' || runtime.startsWith('Etc/') || !runtime.includes('/')) return runtime;
  const entry = databaseEntry(zone.trim());
  const current = entry ? (entry.aliasOf ?? entry.name) : undefined;
  if (current && isTimeZone(current) && partsFormat(current).resolvedOptions().timeZone === runtime) return current;
  return runtime;
}

export type TimeZoneName = { ok: true; zone: string } | { ok: false; message: string };

/**
 * A known zone (isTimeZone) a person or a client sends, as it is stored: its current IANA name (canonicalZone). A
 * UTC offset ('+05:00') or a POSIX rule ('EST5EDT') names no place, so it is refused with a sentence naming a
 * place to send instead.
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
      message: `The time zone "${zone}" is a POSIX rule, not a place. Send the IANA name of your place, such as ${named.includes('/') ? canonicalZone(zone) : 'Europe/Berlin'}.`,
    };
  return { ok: true, zone: canonicalZone(zone) };
}
