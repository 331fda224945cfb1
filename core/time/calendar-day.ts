/**
 * Whether a year, month and day name a day on the calendar: the one check, for the website layer's readers
 * (which take any year a source writes) and for the times events carry (which take only YEAR_MIN to YEAR_MAX).
 * Browser-safe.
 */

/** Years an event can have: a two-digit or mistyped year (0026, 1926 for 26) is refused, not guessed (docs/decisions/events-as-data.md). */
export const YEAR_MIN = 1970;
export const YEAR_MAX = 2200;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Whether a year, month (1 to 12) and day name a day on the calendar: no 31 April, no 29 February 2026. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(day) || day < 1) return false;
  const days = [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** A date that exists on the calendar, in the years events can have: 2026-02-31 and 0026-05-28 do not. */
export function isRealDate(y: number, month: number, day: number): boolean {
  return y >= YEAR_MIN && y <= YEAR_MAX && isCalendarDay(y, month, day);
}
