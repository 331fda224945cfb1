import { CronExpressionParser } from 'cron-parser';
import { SCHEDULE_TYPES, type ScheduleType, WEEKDAYS, type Weekday } from '../contract/timers';
import { ianaTimeZone } from '../time/canonical-zone';
import { isTimeZone } from '../time/time-zone';

/**
 * A timer's schedule: when it fires, in the user's own time zone. The cron pattern plus `tz` is what BullMQ's
 * job scheduler stores; it (via cron-parser, the library BullMQ itself uses) computes the next fire, so the
 * page's "next run" and the real fire never disagree.
 *
 * Daylight-saving time: fires follow local wall-clock time, so 09:00 Europe/Berlin is 07:00 UTC in summer and
 * 08:00 UTC in winter. A time inside the spring-forward gap (e.g. 02:30 on the last Sunday of March in Berlin,
 * which does not exist) fires once that day, one hour later by the clock (03:30 CEST); a time inside the
 * autumn overlap (02:30 on the last Sunday of October) fires once, at its first occurrence (02:30 CEST).
 */
export type { ScheduleType, Weekday } from '../contract/timers';

export interface Schedule {
  scheduleType: ScheduleType;
  /** 'HH:MM', 24 h. */
  time: string;
  /** Only for weekly; null for daily. */
  weekday: Weekday | null;
  /** IANA name, e.g. 'Europe/Berlin'. */
  timezone: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

// Cron counts days of the week from Sunday = 0.
const CRON_DAY: Record<Weekday, number> = {
  Sunday: 0,
  Monday: 1,
  Tuesday: 2,
  Wednesday: 3,
  Thursday: 4,
  Friday: 5,
  Saturday: 6,
};

export type ScheduleCheck = { ok: true; schedule: Schedule } | { ok: false; message: string };

/** Validates the schedule fields of POST /api/schedule; messages are the sentences the page shows. */
export function parseSchedule(input: { scheduleType?: unknown; time?: unknown; weekday?: unknown; timezone?: unknown }): ScheduleCheck {
  const { scheduleType, time, weekday, timezone } = input;
  if (typeof scheduleType !== 'string' || !(SCHEDULE_TYPES as readonly string[]).includes(scheduleType)) {
    return { ok: false, message: "Schedule type must be 'daily' or 'weekly'." };
  }
  if (typeof time !== 'string' || !TIME.test(time)) {
    return { ok: false, message: 'Time must be written as HH:MM in 24-hour form, from 00:00 to 23:59 (for example 09:00).' };
  }
  let day: Weekday | null = null;
  if (scheduleType === 'weekly') {
    if (weekday === undefined || weekday === null || weekday === '') {
      return { ok: false, message: 'A weekly timer needs a day of the week (Monday to Sunday).' };
    }
    if (typeof weekday !== 'string' || !(WEEKDAYS as readonly string[]).includes(weekday)) {
      return { ok: false, message: 'Day of week must be one of Monday, Tuesday, Wednesday, Thursday, Friday, Saturday or Sunday.' };
    }
    day = weekday as Weekday;
  } else if (weekday !== undefined && weekday !== null && weekday !== '' && !(WEEKDAYS as readonly string[]).includes(weekday as string)) {
    // The page sends its default weekday with every daily timer (the spec's call), so a real day is dropped; anything else is a mistake.
    return { ok: false, message: 'A daily timer runs every day and needs no weekday: leave it out, or send a day from Monday to Sunday.' };
  }
  if (typeof timezone !== 'string' || !isTimeZone(timezone)) {
    return { ok: false, message: 'Time zone must be a valid IANA time zone name, such as Europe/Berlin.' };
  }
  const zone = ianaTimeZone(timezone);
  if (!zone.ok) return zone;
  return { ok: true, schedule: { scheduleType, time, weekday: day, timezone: zone.zone } as Schedule };
}

/** The 5-field cron pattern of a schedule (minute hour day-of-month month day-of-week), read in `timezone`. */
export function cronPattern(schedule: Pick<Schedule, 'scheduleType' | 'time' | 'weekday'>): string {
  const [hh, mm] = schedule.time.split(':').map(Number);
  const dow = schedule.scheduleType === 'weekly' && schedule.weekday ? String(CRON_DAY[schedule.weekday]) : '*';
  return `${mm} ${hh} * * ${dow}`;
}

// cron-parser with a time zone costs about a millisecond per call, and a timer list asks for one per timer on
// every load. Fires fall on whole minutes, so the first fire after `from` equals the first fire after the start
// of `from`'s minute: keyed by that minute, a memo is exact. It holds derived values only, never shared state.
const NEXT_RUN_MEMO_SIZE = 10_000;
const nextRunMemo = new Map<string, number>();

/** The first fire strictly after `from`. */
export function nextRunAt(schedule: Schedule, from: Date = new Date()): Date {
  return new Date(nextFireAfter(cronPattern(schedule), schedule.timezone, from.getTime()));
}

/**
 * The first fire of a 5-field cron `pattern` read in `timezone` strictly after `millis` (epoch ms), as
 * cron-parser computes it; also BullMQ's repeat strategy for timers (core/timers/scheduler.ts).
 */
export function nextFireAfter(pattern: string, timezone: string, millis: number): number {
  const minute = Math.floor(millis / 60_000) * 60_000;
  const key = `${pattern}|${timezone}|${minute}`;
  const known = nextRunMemo.get(key);
  if (known !== undefined) return known;
  const next = CronExpressionParser.parse(pattern, { currentDate: new Date(minute), tz: timezone })
    .next()
    .getTime();
  if (nextRunMemo.size >= NEXT_RUN_MEMO_SIZE) nextRunMemo.delete(nextRunMemo.keys().next().value!);
  nextRunMemo.set(key, next);
  return next;
}

/** The next `count` fires strictly after `from`. */
export function nextRuns(schedule: Schedule, from: Date, count: number): Date[] {
  const it = CronExpressionParser.parse(cronPattern(schedule), { currentDate: from, tz: schedule.timezone });
  return Array.from({ length: count }, () => it.next().toDate());
}
