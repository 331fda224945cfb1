/**
 * The words and numbers of the one date style (docs/decisions/time.md), with no zone in them: a wall clock's day and
 * time as 'Sun 12 Jul 2026, 19:00'. event-date-format.ts finds the wall clock of an instant in a zone and
 * writes it with these; the page's first paint (a renewal day) uses them alone, so no zone code (offsets, Intl
 * formats) is part of its first scripts (docs/decisions/the-page.md). No imports: browser-safe.
 */

/** How a clock reads: '19:00', or '7:00 PM' for a reader whose locale counts twelve hours. */
export type Clock = '24h' | '12h';

/** A wall clock's reading: year, month (1 to 12), day, hour (0 to 23), minute. */
export interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Between a range's two ends: 'Mon 1 Jun 2026 – Wed 3 Jun 2026'. */
export const DATE_RANGE = ' – ';

const pad = (n: number) => String(n).padStart(2, '0');

/** The weekday of a day (Date.UTC would read years 0 to 99 as 1900 to 1999). */
function weekday(y: number, mo: number, d: number): string {
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d);
  return WEEKDAYS[day.getUTCDay()]!;
}

/** 'Sun 12 Jul 2026'. */
export const dayText = ({ y, mo, d }: Pick<Wall, 'y' | 'mo' | 'd'>) => `${weekday(y, mo, d)} ${d} ${MONTHS[mo - 1]} ${y}`;

/** '19:00', or '7:00 PM' on a 12-hour clock (AM and PM after a plain space, as V8's Intl writes them). */
export function clockText({ h, mi }: Pick<Wall, 'h' | 'mi'>, clock: Clock): string {
  if (clock === '24h') return `${pad(h)}:${pad(mi)}`;
  return `${h % 12 || 12}:${pad(mi)} ${h < 12 ? 'AM' : 'PM'}`;
}

/** 'Sun 12 Jul 2026, 19:00'. */
export const momentText = (w: Wall, clock: Clock) => `${dayText(w)}, ${clockText(w, clock)}`;

/** '12 Jul, 19:00': the same without weekday and year, for a phone's one line (docs/decisions/time.md). */
export const shortMomentText = (w: Wall, clock: Clock) => `${w.d} ${MONTHS[w.mo - 1]}, ${clockText(w, clock)}`;

/** A calendar day (an ISO date, or the first 10 characters of an ISO date-time), the same in every zone: 'Sun 12 Jul 2026'. */
export function formatDay(isoDay: string): string {
  const [y, mo, d] = isoDay.slice(0, 10).split('-').map(Number);
  return dayText({ y: y!, mo: mo!, d: d! });
}
