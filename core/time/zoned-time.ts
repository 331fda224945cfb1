import { isRealDate } from './calendar-day';
import { partsFormat } from './time-zone';

/**
 * Wall-clock time in IANA zones with Intl alone (no tz database in the bundle): this module runs in the
 * browser too (event cards, .ics download).
 */

// formatToParts costs tens of microseconds; a page of thousands of events asks for the same offsets again and
// again. Zones change offset only on quarter hours, so an offset holds for its whole quarter hour.
const QUARTER_HOUR = 900_000;
const offsets = new Map<string, number>();

/** The zone's UTC offset in minutes at an instant (Europe/Berlin in summer: 120). */
export function offsetMinutes(zone: string, epochMs: number): number {
  const key = `${zone} ${Math.floor(epochMs / QUARTER_HOUR)}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  if (offsets.size >= 50_000) offsets.clear();
  const minutes = computeOffset(zone, Math.floor(epochMs / QUARTER_HOUR) * QUARTER_HOUR);
  offsets.set(key, minutes);
  return minutes;
}

function computeOffset(zone: string, epochMs: number): number {
  const p: Record<string, number> = {};
  for (const part of partsFormat(zone).formatToParts(new Date(epochMs))) p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/** The instant of a wall-clock time in a zone; a time skipped by a DST change moves forward, as calendars do. */
export function wallTimeToEpoch(wall: { y: number; mo: number; d: number; h: number; mi: number; s: number }, zone: string): number {
  const naive = Date.UTC(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s);
  let epoch = naive - offsetMinutes(zone, naive) * 60_000;
  // A second pass settles times near a DST change, where the first guess used the other side's offset.
  epoch = naive - offsetMinutes(zone, epoch) * 60_000;
  return epoch;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** '+02:00', '-05:30', 'Z' never: an explicit offset keeps the local time readable. */
export function formatOffset(minutes: number): string {
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** An instant as local ISO 8601 with offset, e.g. '2026-06-18T09:00:00+02:00'. */
export function isoWithOffset(epochMs: number, offset: number): string {
  const local = new Date(epochMs + offset * 60_000);
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${formatOffset(offset)}`;
}

export function isoInZone(epochMs: number, zone: string): string {
  return isoWithOffset(epochMs, offsetMinutes(zone, epochMs));
}

export interface ParsedTime {
  /** A date alone (YYYY-MM-DD). */
  allDay: boolean;
  date: string;
  /** For a time: the instant when the offset (or a zone) is known. */
  epochMs: number | null;
  /** The offset in minutes written in the value; null for a floating time or a date. */
  offset: number | null;
  /** Written in UTC with 'Z': the source converted the time, so the offset says nothing of the venue. */
  utc: boolean;
  wall: { y: number; mo: number; d: number; h: number; mi: number; s: number };
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Reads an ISO 8601 date or date-time (the shapes schema.org, iCalendar and models write); null otherwise,
 * and for a date that is not on the calendar (2026-02-31) or outside the years events can have.
 */
export function parseIsoTime(value: string | null | undefined): ParsedTime | null {
  const m = value ? ISO.exec(value.trim()) : null;
  if (!m) return null;
  const [, y, mo, d, h, mi, s, z] = m;
  const wall = { y: Number(y), mo: Number(mo), d: Number(d), h: Number(h ?? 0), mi: Number(mi ?? 0), s: Number(s ?? 0) };
  if (!isRealDate(wall.y, wall.mo, wall.d) || wall.h > 23 || wall.mi > 59 || wall.s > 59) return null;
  const date = `${y}-${mo}-${d}`;
  if (!h) return { allDay: true, date, epochMs: null, offset: null, utc: false, wall };
  let offset: number | null = null;
  if (z) {
    if (z.toUpperCase() === 'Z') offset = 0;
    else {
      const sign = z.startsWith('-') ? -1 : 1;
      const digits = z.slice(1).replace(':', '');
      offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
      if (Math.abs(offset) > 18 * 60) return null;
    }
  }
  const naive = Date.UTC(wall.y, wall.mo - 1, wall.d, wall.h, wall.mi, wall.s);
  return {
    allDay: false,
    date,
    epochMs: offset === null ? null : naive - offset * 60_000,
    offset,
    utc: z?.toUpperCase() === 'Z',
    wall,
  };
}

/** The next calendar day of a YYYY-MM-DD date (an all-day event's exclusive end). */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}
