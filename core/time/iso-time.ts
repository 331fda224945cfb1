import { isCalendarDay } from './calendar-day';

/**
 * Date-times as sources write them, brought to ISO 8601 without changing what they say: no zone is added,
 * none is removed, and an offset-less time stays offset-less (core/events decides its zone).
 */

// Month, day and hour may have one digit (2018-7-19, as PHP's date('Y-n-j') writes): they are padded. A dash
// may stand for the T before a time with seconds (2012-05-13-11:00:00, PHP's date('Y-m-d-H:i:s'), as old
// versions of The Events Calendar write microdata); without seconds -11:00 would be xs:date's offset. An offset's
// hour may have one digit (eventON writes +0:00, other plugins -4:00 or +000).
const DATE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[T ]|-(?=\d{1,2}:\d{2}:\d{2}))(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{1,2}(?::?\d{2})?)?)?$/i;
// ISO 8601's basic format, as iCalendar writes it and hCalendar copies it into title attributes (19970903T163000Z).
const BASIC_DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?)?$/i;

// ISO 8601's ordinal date (2016-062, the 62nd day of 2016), which microformats' value-class pattern allows.
const ORDINAL_DATE = /^(\d{4})-(\d{3})(?=$|[T ])/i;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const ORDINAL = '(?:st|nd|rd|th)?';
// An English date as a page prints it, sometimes in a date field: 'Wednesday, August  8, 2018  7:00 PM',
// 'Aug 8, 2018', '8 August 2018 19:00'. The weekday is not checked: the date says which day it is.
const PROSE_DATE_TIME = new RegExp(
  `^(?:[a-z]+\\.?,?\\s+)?(?:${MONTH}\\s+(\\d{1,2})${ORDINAL},?\\s+(\\d{4})|(\\d{1,2})${ORDINAL}\\s+${MONTH},?\\s+(\\d{4}))` +
    '(?:,?\\s+(?:at\\s+)?(\\d{1,2})(?::(\\d{2}))?\\s*([ap])?\\.?(?:m\\.?)?)?$',
  'i',
);

/** '2026-05-28 19:00' → '2026-05-28T19:00'; '19970903T163000Z' → '1997-09-03T16:30:00Z'; '+0200' → '+02:00'; '+0:00' and '+000' → '+00:00'; 'z' → 'Z'; '2016-062' → '2016-03-02'; 'Wednesday, August 8, 2018 7:00 PM' → '2018-08-08T19:00'; a date stays a date; else undefined. */
export function isoDateTime(value: string | undefined): string | undefined {
  const text = value === undefined ? undefined : calendarDate(value.trim());
  const m = text === undefined ? null : (DATE_TIME.exec(text) ?? BASIC_DATE_TIME.exec(text));
  if (!m) return text === undefined ? undefined : proseDateTime(text);
  const [, y, mo, d, h, mi, s, zone] = m as unknown as [string, string, string, string, string?, string?, string?, string?];
  const date = `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
  if (h === undefined) return date;
  return `${date}T${h.padStart(2, '0')}:${mi}${s === undefined ? '' : `:${s}`}${offsetOf(zone)}`;
}

/** An English date (and time of day) in ISO 8601, without a zone, as no zone was written; else undefined. */
function proseDateTime(text: string): string | undefined {
  const m = PROSE_DATE_TIME.exec(text.replace(/\s+/g, ' '));
  if (!m) return undefined;
  const [, month1, day1, year1, day2, month2, year2, hour, minute, half] = m;
  const month = MONTHS.indexOf((month1 ?? month2)!.slice(0, 3).toLowerCase()) + 1;
  const day = Number(day1 ?? day2);
  const year = Number(year1 ?? year2);
  if (!isCalendarDay(year, month, day)) return undefined;
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (hour === undefined) return date;
  // A bare hour is no time ('8, 2018 7' is not 7 o'clock); a 12-hour clock needs its am or pm.
  if (minute === undefined && !half) return undefined;
  let h = Number(hour);
  if (half) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  }
  if (h > 23) return undefined;
  return `${date}T${String(h).padStart(2, '0')}:${minute ?? '00'}`;
}

/** The text with a leading ordinal date written as year-month-day; an ordinal day past the year's end is no date. */
function calendarDate(text: string): string | undefined {
  const m = ORDINAL_DATE.exec(text);
  if (!m) return text;
  const [whole, year, day] = m as unknown as [string, string, string];
  const date = new Date(utc(Number(year), 0, Number(day)));
  if (Number(day) < 1 || date.getUTCFullYear() !== Number(year)) return undefined;
  return `${date.toISOString().slice(0, 10)}${text.slice(whole.length)}`;
}

// '+0:00', '+000', '-4', '+0530': the hour has one or two digits, the minutes (if any) two.
const OFFSET = /^([+-])(\d{1,2}):?(\d{2})?$/;

function offsetOf(zone: string | undefined): string {
  if (!zone) return '';
  if (zone.toUpperCase() === 'Z') return 'Z';
  const [, sign, hours, minutes] = OFFSET.exec(zone) ?? [];
  return `${sign}${hours!.padStart(2, '0')}:${minutes ?? '00'}`;
}

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i;

/**
 * The end of an event that starts at `start` and lasts `duration` (ISO 8601: P1W, P2D, PT1H30M), on the
 * wall clock the start is written in, keeping its offset. For a date alone the result is the last day the
 * duration covers (P2D from 1 July ends on 2 July), as endAt names it. Undefined when either is unreadable.
 */
export function addDuration(start: string | undefined, duration: string | undefined): string | undefined {
  const iso = isoDateTime(start);
  const d = duration === undefined ? null : DURATION.exec(duration.trim());
  if (!iso || !d || duration!.trim().toUpperCase() === 'P' || duration!.trim().toUpperCase().endsWith('T')) return undefined;
  const [w, days, h, mi, s] = d.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number];
  const m = DATE_TIME.exec(iso)!;
  const [, y, mo, da, hh, mm, ss, zone] = m;
  if (hh === undefined) {
    const totalDays = w * 7 + days + Math.floor((h * 3600 + mi * 60 + s) / 86400);
    return new Date(utc(Number(y), Number(mo) - 1, Number(da) + Math.max(totalDays - 1, 0))).toISOString().slice(0, 10);
  }
  const ms =
    utc(Number(y), Number(mo) - 1, Number(da), Number(hh), Number(mm), Number(ss ?? 0)) +
    ((w * 7 + days) * 86400 + h * 3600 + mi * 60 + s) * 1000;
  const end = new Date(ms).toISOString();
  return `${end.slice(0, 10)}T${end.slice(11, ss === undefined && end.slice(17, 19) === '00' ? 16 : 19)}${offsetOf(zone)}`;
}

// Date.UTC reads the years 0 to 99 as 1900 to 1999; setUTCFullYear takes the year as written.
function utc(year: number, month: number, day: number, h = 0, mi = 0, s = 0): number {
  const t = new Date(Date.UTC(2000, 0, 1, h, mi, s));
  t.setUTCFullYear(year, month, day);
  return t.getTime();
}
