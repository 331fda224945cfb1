import { clean, type EventFact } from './event-fact';
import { isoDateTime } from '../time/iso-time';
import { localName } from './schema-event-types';
import { ianaZone } from '../time/zone-names';

type Node = Record<string, unknown>;

const list = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const str = (value: unknown): string | undefined => {
  const v = Array.isArray(value) ? value[0] : value;
  if (v && typeof v === 'object') return str((v as Node)['@id'] ?? (v as Node)['@value'] ?? (v as Node).name);
  return clean(v);
};

// Maps: the words looked up are the page's, and a plain object would answer 'constructor' with a function.
const DAYS = new Map([
  ['monday', 'MO'],
  ['tuesday', 'TU'],
  ['wednesday', 'WE'],
  ['thursday', 'TH'],
  ['friday', 'FR'],
  ['saturday', 'SA'],
  ['sunday', 'SU'],
]);
const FREQ_WORDS = new Map([
  ['daily', 'DAILY'],
  ['weekly', 'WEEKLY'],
  ['monthly', 'MONTHLY'],
  ['yearly', 'YEARLY'],
  ['annually', 'YEARLY'],
]);

/** 'P1W' → WEEKLY, 'P2W' → WEEKLY with INTERVAL=2, 'Monthly' → MONTHLY; undefined when unreadable. */
function frequency(value: string | undefined): { freq: string; interval: number } | undefined {
  if (!value) return undefined;
  const word = FREQ_WORDS.get(localName(value).toLowerCase());
  if (word) return { freq: word, interval: 1 };
  const m = /^P(?:(\d+)Y|(\d+)M|(\d+)W|(\d+)D|T(\d+)H)$/i.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, w, d, h] = m;
  const [freq, n] = y ? ['YEARLY', y] : mo ? ['MONTHLY', mo] : w ? ['WEEKLY', w] : d ? ['DAILY', d] : ['HOURLY', h];
  return { freq: freq!, interval: Number(n) || 1 };
}

const ints = (value: unknown) =>
  list(value)
    .map((v) => Number(str(v)))
    .filter((n) => Number.isInteger(n) && n !== 0);

/** A schedule's startTime or endTime when it is a time of day ('18:00', '18:00:00+08:00'), else undefined. */
const timeOfDay = (time: string | undefined) =>
  time && /^\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?$/i.test(time.trim()) ? time.trim() : undefined;

/** The first start of a schedule: its startDate at its startTime, as written (no zone added). */
function at(date: string | undefined, time: string | undefined): string | undefined {
  const day = isoDateTime(date)?.slice(0, 10);
  if (!day) return undefined;
  const t = timeOfDay(time);
  return isoDateTime(t ? `${day}T${t}` : day);
}

/**
 * A schema.org Schedule (an Event's eventSchedule) as the RRULE it states: repeatFrequency → FREQ and
 * INTERVAL, byDay (with byMonthWeek: the nth weekday of the month) → BYDAY, byMonth, byMonthDay,
 * repeatCount → COUNT, the schedule's endDate → UNTIL, exceptDate → exdates, scheduleTimezone → timezone.
 * Undefined when it names no frequency: a schedule without one is no series.
 */
export function recurrenceOfSchedule(
  schedule: Node,
  eventStart: string | undefined,
  eventEnd: string | undefined,
): { startAt?: string; endAt?: string; timezone?: string; recurrence: NonNullable<EventFact['recurrence']> } | undefined {
  const freq = frequency(str(schedule.repeatFrequency));
  if (!freq) return undefined;
  const startAt = eventStart ?? at(str(schedule.startDate), str(schedule.startTime));
  const endAt = eventEnd ?? (str(schedule.endTime) ? at(str(schedule.startDate), str(schedule.endTime)) : undefined);
  const parts = [`FREQ=${freq.freq}`];
  if (freq.interval > 1) parts.push(`INTERVAL=${freq.interval}`);
  const weeks = ints(schedule.byMonthWeek);
  const days = list(schedule.byDay)
    .map((d) => str(d))
    .map((d) =>
      d
        ? (DAYS.get(localName(d).toLowerCase()) ?? (/^(?:[+-]?\d{1,2})?(?:MO|TU|WE|TH|FR|SA|SU)$/i.test(d) ? d.toUpperCase() : undefined))
        : undefined,
    )
    .filter((d): d is string => d !== undefined);
  if (days.length > 0) parts.push(`BYDAY=${(weeks.length > 0 ? days.flatMap((d) => weeks.map((w) => `${w}${d}`)) : days).join(',')}`);
  const months = ints(schedule.byMonth).filter((n) => n >= 1 && n <= 12);
  if (months.length > 0) parts.push(`BYMONTH=${months.join(',')}`);
  const monthDays = ints(schedule.byMonthDay).filter((n) => Math.abs(n) <= 31);
  if (monthDays.length > 0) parts.push(`BYMONTHDAY=${monthDays.join(',')}`);
  const count = Number(str(schedule.repeatCount));
  if (Number.isInteger(count) && count > 0) parts.push(`COUNT=${count}`);
  else {
    const until = isoDateTime(str(schedule.endDate))?.slice(0, 10).replaceAll('-', '');
    // RFC 5545: UNTIL is a date when the series starts on dates, else the end of that day on the start's clock.
    const timed = startAt ? startAt.length > 10 : timeOfDay(str(schedule.startTime)) !== undefined;
    if (until) parts.push(`UNTIL=${timed ? `${until}T235959` : until}`);
  }
  const exdates = list(schedule.exceptDate)
    .map((d) => isoDateTime(str(d)))
    .filter((d): d is string => d !== undefined);
  const zone = str(schedule.scheduleTimezone);
  const recurrence: NonNullable<EventFact['recurrence']> = { rrule: parts.join(';'), rdates: [], exdates };
  // schema.org lets a schedule state only its rule and times ('monthly on the second Monday at 18:00'): no
  // first date is made up here; core/events runs such a series through its window.
  if (!startAt) {
    // In ISO 8601 as startAt would write it ('+0800' → '+08:00'), without a date.
    const iso = (time: string | undefined) => (time ? isoDateTime(`2000-01-01T${time}`)?.slice(11) : undefined);
    const openStart = { startTime: iso(timeOfDay(str(schedule.startTime))), endTime: iso(timeOfDay(str(schedule.endTime))) };
    if (!openStart.startTime) delete openStart.startTime;
    if (!openStart.endTime) delete openStart.endTime;
    recurrence.openStart = openStart;
  }
  return {
    startAt,
    endAt,
    timezone: zone ? ianaZone(zone) : undefined,
    recurrence,
  };
}
