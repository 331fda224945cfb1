import { isRealDate } from '../time/calendar-day';
import { wallTimeToEpoch } from '../time/zoned-time';
import { isTimeZone } from '../time/time-zone';

/*
 * How an event repeats as the structured extraction may state it (docs/decisions/events-as-data.md): a small
 * closed form the model fills from words ("then every second Tuesday", "every first Monday of the month"),
 * turned into an RRULE by this code; the model never writes a rule. Model output is hostile: every field is
 * checked, and a form that is odd, out of bounds or at odds with the event's own start is dropped (the event
 * stays, as a one-off).
 */

/** The JSON schema of the form, as the extraction's response schema carries it under each event's `repeat`. */
export const STATED_REPEAT_SCHEMA = {
  type: ['object', 'null'],
  description:
    'Only when the text says the event repeats on a fixed rule from its start date ("then every second Tuesday", ' +
    '"every first Monday of the month"); else null.',
  properties: {
    frequency: { type: 'string', enum: ['weekly', 'monthly'] },
    interval: { type: 'integer', minimum: 1, maximum: 4, description: 'every 1, 2, 3 or 4 weeks or months' },
    weekday: { type: 'string', enum: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] },
    week_of_month: {
      type: ['integer', 'null'],
      minimum: -1,
      maximum: 4,
      description: 'monthly only: which weekday of the month (1 to 4, or -1 for the last); null for weekly',
    },
    until: { type: ['string', 'null'], description: 'YYYY-MM-DD of the last day it repeats, when the text says; else null' },
  },
  required: ['frequency', 'interval', 'weekday', 'week_of_month', 'until'],
} as const;

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

/** The form once its fields are each valid; whether it fits its event is `repeatRule`'s to say. */
export interface StatedRepeat {
  frequency: 'weekly' | 'monthly';
  /** 1 to 4. */
  interval: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  /** Monthly only: 1 to 4, or -1 for the last of the month. */
  weekOfMonth: number | null;
  /** YYYY-MM-DD, a real date. */
  until: string | null;
}

/** How far after its start a stated series may be said to end: further is no rule a page states for a meetup. */
export const UNTIL_MAX_YEARS = 5;

/** The form's fields, each checked; null for anything that is not exactly the closed form. */
export function parseStatedRepeat(value: unknown): StatedRepeat | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const frequency = v.frequency;
  if (frequency !== 'weekly' && frequency !== 'monthly') return null;
  const interval = v.interval;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 1 || interval > 4) return null;
  const weekday = typeof v.weekday === 'string' ? WEEKDAYS.indexOf(v.weekday.toLowerCase() as (typeof WEEKDAYS)[number]) : -1;
  if (weekday < 0) return null;
  const nth = v.week_of_month ?? null;
  if (nth !== null && (typeof nth !== 'number' || !Number.isInteger(nth) || nth < -1 || nth > 4 || nth === 0)) return null;
  // "Every second Tuesday" weekly is every other week; a week of the month belongs to a monthly rule only, and a
  // monthly rule without one ("monthly on Tuesdays") says no one day.
  if ((frequency === 'weekly') !== (nth === null)) return null;
  const until = v.until ?? null;
  if (until !== null && (typeof until !== 'string' || !isDay(until))) return null;
  return { frequency, interval, weekday, weekOfMonth: nth, until };
}

const isDay = (s: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return !!m && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]));
};

/**
 * The RRULE value of a stated repeat for an event starting at `startsAt` (as events carry it: a wall time with
 * its offset on the event's clock, or a date when all day), or null when the two disagree: another weekday,
 * another week of the month, an end before the start or more than UNTIL_MAX_YEARS after it, or an end on a
 * timed event whose zone is not known (its UNTIL must be an instant).
 */
export function repeatRule(
  repeat: StatedRepeat,
  event: { starts_at: string | null; all_day: boolean; timezone: string | null },
): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(event.starts_at ?? '');
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isRealDate(y, mo, d)) return null;
  const start = new Date(Date.UTC(y, mo - 1, d));
  if (start.getUTCDay() !== repeat.weekday) return null;
  const day = BYDAY[repeat.weekday]!;
  const parts = [`FREQ=${repeat.frequency === 'weekly' ? 'WEEKLY' : 'MONTHLY'}`];
  if (repeat.interval > 1) parts.push(`INTERVAL=${repeat.interval}`);
  if (repeat.frequency === 'weekly') parts.push(`BYDAY=${day}`);
  else {
    const nth = repeat.weekOfMonth!;
    const lastDay = new Date(Date.UTC(y, mo, 0)).getUTCDate();
    const fits = nth === -1 ? d + 7 > lastDay : Math.ceil(d / 7) === nth;
    if (!fits) return null;
    parts.push(`BYDAY=${nth}${day}`);
  }
  if (repeat.until) {
    const startDay = m[0];
    const latest = `${String(y + UNTIL_MAX_YEARS).padStart(4, '0')}${startDay.slice(4)}`;
    if (repeat.until < startDay || repeat.until > latest) return null;
    const [uy, umo, ud] = repeat.until.split('-').map(Number) as [number, number, number];
    if (event.all_day) parts.push(`UNTIL=${repeat.until.replace(/-/g, '')}`);
    else {
      // RFC 5545: with a DTSTART in a zone, UNTIL is the UTC instant; the whole last day counts.
      if (!isTimeZone(event.timezone)) return null;
      const end = wallTimeToEpoch({ y: uy, mo: umo, d: ud, h: 23, mi: 59, s: 59 }, event.timezone);
      parts.push(`UNTIL=${new Date(end).toISOString().replace(/[-:]|\.\d{3}/g, '')}`);
    }
  }
  return parts.join(';');
}
