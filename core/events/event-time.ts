import { isTimeZone, isoInZone, isoWithOffset, parseIsoTime, wallTimeToEpoch } from './zoned-time';

export interface EventTime {
  starts_at: string | null;
  ends_at: string | null;
  all_day: boolean;
  timezone: string | null;
}

/**
 * The contract's times from what a source wrote: ISO 8601 with an explicit offset in the event's local time,
 * or a date alone for an all-day event. A time without offset is read in the event's zone, else in the user's
 * (a search for local events); a UTC time is shown in the event's or the user's zone, so the local start date
 * (part of an event's key) is the same whichever source reported it.
 */
export function eventTime(input: {
  start: string | null | undefined;
  end: string | null | undefined;
  timezone: string | null | undefined;
  userTimezone: string;
}): EventTime {
  const zone = isTimeZone(input.timezone) ? input.timezone : null;
  const fallbackZone = isTimeZone(input.userTimezone) ? input.userTimezone : 'UTC';
  const start = parseIsoTime(input.start);
  if (!start) return { starts_at: null, ends_at: null, all_day: false, timezone: zone };
  const end = parseIsoTime(input.end);
  if (start.allDay) {
    const endDate = end?.date ?? null;
    return { starts_at: start.date, ends_at: endDate && endDate > start.date ? endDate : null, all_day: true, timezone: zone };
  }
  const express = (t: NonNullable<typeof start>): string => {
    if (t.epochMs === null) return isoInZone(wallTimeToEpoch(t.wall, zone ?? fallbackZone), zone ?? fallbackZone);
    if (zone) return isoInZone(t.epochMs, zone);
    if (t.offset === 0) return isoInZone(t.epochMs, fallbackZone);
    return isoWithOffset(t.epochMs, t.offset!);
  };
  const startsAt = express(start);
  const endsAt = end && !end.allDay ? express(end) : null;
  return {
    starts_at: startsAt,
    ends_at: endsAt && Date.parse(endsAt) > Date.parse(startsAt) ? endsAt : null,
    all_day: false,
    timezone: zone,
  };
}

/** Whether two contract starts name the same moment (or the same day). */
export function sameStart(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a.length === 10 || b.length === 10) return a.slice(0, 10) === b.slice(0, 10) && a.length === b.length;
  return Date.parse(a) === Date.parse(b);
}
