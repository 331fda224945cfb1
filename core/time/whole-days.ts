import type { ParsedTime } from './zoned-time';

/**
 * Whether a start and end written as times mean whole days: from midnight to 23:59 (or 23:59:59) of the
 * same or a later day, on the writer's own clock. WordPress's The Events Calendar writes its all-day events
 * this way in JSON-LD (00:00:00+01:00 to 23:59:59+01:00), and a calendar user expects them shown all day,
 * not as an event at midnight. A time in UTC ('Z') is left alone: the source converted it, so its midnight is
 * not the venue's.
 */
export function spansWholeDays(start: ParsedTime, end: ParsedTime | null): boolean {
  if (!end || start.allDay || end.allDay || start.utc || end.utc) return false;
  if ((start.offset === null) !== (end.offset === null)) return false;
  const fromMidnight = start.wall.h === 0 && start.wall.mi === 0 && start.wall.s === 0;
  const toLastMinute = end.wall.h === 23 && end.wall.mi === 59;
  return fromMidnight && toLastMinute && end.date >= start.date;
}
