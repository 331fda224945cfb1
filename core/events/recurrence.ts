import ICAL from 'ical.js';
import type { EventFact } from '../website/event-fact';
import { type Clock, instantOn, isoOn } from './event-time';
import { formatOffset, type ParsedTime, parseIsoTime } from '../time/zoned-time';

/** The occurrences a series yields: from 30 days before now to 12 months after, at most 100 (docs/decisions/events-as-data.md). */
export const WINDOW_BACK_DAYS = 30;
export const WINDOW_AHEAD_DAYS = 365;
export const OCCURRENCES_PER_SERIES = 100;
// Occurrences the rule's iterator may yield per series: a rule every minute for a year would cost seconds.
const STEP_LIMIT = 20_000;
/**
 * Periods (seconds, minutes, hours, days, weeks, months, years) ical.js may step through: per series, and for all
 * of one page's series. ical.js loops without end on a rule whose BY parts never match the periods it visits
 * (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30, or FREQ=DAILY;INTERVAL=7;BYDAY=MO from a Tuesday); these budgets
 * bound what such a series, and a page of them, can cost, far above the steps a daily rule over the window takes.
 */
export const SERIES_STEP_BUDGET = 15_000;
export const PAGE_STEP_BUDGET = 50_000;

export interface StepBudget {
  steps: number;
}

const STEPPERS = ['next_second', 'next_minute', 'next_hour', 'next_day', 'next_week', 'next_month', 'next_year'] as const;

/** The iterator with each period step counted against the budgets; a step past one throws, ending the loop. */
function guarded<T extends object>(iterator: T, page: StepBudget): T {
  const target = iterator as unknown as Record<string, (...args: unknown[]) => unknown>;
  let series = SERIES_STEP_BUDGET;
  for (const name of STEPPERS) {
    const step = target[name];
    if (typeof step !== 'function') continue;
    target[name] = function (this: unknown, ...args: unknown[]) {
      if (--series < 0 || --page.steps < 0) throw new Error('recurrence step budget spent');
      return step.apply(this, args);
    };
  }
  return iterator;
}

const DAY_MS = 86_400_000;

export interface Occurrence {
  /** Its start and end written as the series' startAt is: a wall time (with the offset when it had one) or a date. */
  startAt: string;
  endAt?: string;
  /** The occurrence's original local start ('YYYY-MM-DDTHH:MM' or a date): with the series, its identity. */
  original: string;
  /** Moved (an override changed its start), cancelled (EXDATE, or an override says so) or tentative. */
  status?: 'moved' | 'cancelled' | 'tentative';
  /** The override that replaced it (RECURRENCE-ID), whose other fields win over the series'. */
  override?: EventFact;
}

export interface Expansion {
  occurrences: Occurrence[];
  /** Occurrences inside the window that were not kept: past the per-series limit, or past the step bound. */
  dropped: number;
}

type Wall = ParsedTime['wall'];

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const dateOf = (w: Wall) => `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}`;
const minuteOf = (w: Wall) => `${dateOf(w)}T${pad(w.h)}:${pad(w.mi)}`;
const wallText = (w: Wall) => `${minuteOf(w)}:${pad(w.s)}`;
const wallMs = (w: Wall) => Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
const wallFromMs = (ms: number): Wall => {
  const d = new Date(ms);
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
};

/** A value's local wall time on the clock: a time written with an offset is first taken to its instant. */
function wallOn(t: ParsedTime, clock: Clock): Wall {
  if (t.allDay || t.epochMs === null) return t.wall;
  return parseIsoTime(isoOn(t.epochMs, clock))!.wall;
}

/** The instant of a wall time on the clock, as a floating ParsedTime would be read. */
const instantOfWall = (w: Wall, clock: Clock) =>
  instantOn({ allDay: false, date: dateOf(w), epochMs: null, offset: null, utc: false, wall: w }, clock);

// Frequencies whose periods are a fixed number of wall-clock milliseconds, so a far-past start can be moved
// forward by whole periods without changing which times the rule yields.
const FIXED_PERIOD: Record<string, number> = { SECONDLY: 1000, MINUTELY: 60_000, HOURLY: 3_600_000, DAILY: DAY_MS, WEEKLY: 7 * DAY_MS };

/**
 * A series whose source names only its rule and times of day (schema.org eventSchedule without startDate),
 * anchored just before the window so that the rule runs through all of it; the anchor is no occurrence
 * (expandSeries skips it). Any other fact as it is.
 */
export function anchorOpenSeries(f: EventFact, now: Date): EventFact {
  const open = f.recurrence?.openStart;
  if (f.startAt || !open) return f;
  const day = new Date(now.getTime() - (WINDOW_BACK_DAYS + 2) * DAY_MS).toISOString().slice(0, 10);
  const startAt = open.startTime ? `${day}T${open.startTime}` : day;
  const endAt = open.startTime && open.endTime ? `${day}T${open.endTime}` : undefined;
  return endAt ? { ...f, startAt, endAt } : { ...f, startAt };
}

/**
 * The occurrences of a series (its RRULE, RDATEs and EXDATEs, iterated with ical.js over wall times on the
 * event's clock) inside the window around `now`, with the overrides (RECURRENCE-ID instances) in place of the
 * occurrences they replace. EXDATEs inside the window are kept as cancelled occurrences, so a calendar that
 * had them learns they are off. Each occurrence lasts as long as the series' first one.
 */
export function expandSeries(
  series: EventFact,
  overrides: EventFact[],
  clock: Clock,
  now: Date,
  budget: StepBudget = { steps: PAGE_STEP_BUDGET },
): Expansion {
  const start = parseIsoTime(series.startAt);
  if (!start || !series.recurrence) return { occurrences: [], dropped: 0 };
  const allDay = start.allDay;
  const from = now.getTime() - WINDOW_BACK_DAYS * DAY_MS;
  const to = now.getTime() + WINDOW_AHEAD_DAYS * DAY_MS;
  const first = wallOn(start, clock);
  const end = parseIsoTime(series.endAt);
  // All-day ends are the last day (inclusive); timed ones an instant.
  const spanDays = allDay && end?.allDay ? Math.max(0, Math.round((wallMs(end.wall) - wallMs(first)) / DAY_MS)) : null;
  const spanMs = !allDay && end && !end.allDay ? instantOn(end, clock) - instantOn(start, clock) : null;
  const instantOf = (w: Wall) => (allDay ? wallMs(w) : instantOfWall(w, clock));
  const inWindow = (w: Wall) => {
    const at = instantOf(w);
    return at >= from && at <= to;
  };
  // A clock from the source's own offset writes that offset; every other clock is the reader's to apply.
  const suffix = clock.source === 'offset' && clock.offset !== undefined ? formatOffset(clock.offset) : '';
  const write = (w: Wall) => (allDay ? dateOf(w) : `${wallText(w)}${suffix}`);
  const identity = (w: Wall) => (allDay ? dateOf(w) : minuteOf(w));

  const excluded = new Set<string>();
  const excludedDays = new Set<string>();
  for (const value of series.recurrence.exdates) {
    const t = parseIsoTime(value.split('/')[0]);
    if (!t) continue;
    if (t.allDay) excludedDays.add(t.date);
    else excluded.add(identity(wallOn(t, clock)));
  }
  const isExcluded = (w: Wall) => excluded.has(identity(w)) || excludedDays.has(dateOf(w));

  const found = new Map<string, Wall>();
  let dropped = 0;
  // The last occurrence before the window: a series that finished there is its last occurrence, a past event as
  // a past one-off is (docs/decisions/events-as-data.md).
  let lastBefore: Wall | null = null;
  const take = (w: Wall) => {
    if (instantOf(w) < from && !isExcluded(w) && (!lastBefore || wallMs(w) > wallMs(lastBefore))) lastBefore = w;
    if (!inWindow(w) || found.has(identity(w))) return;
    if (found.size >= OCCURRENCES_PER_SERIES) dropped++;
    else found.set(identity(w), w);
  };

  // RFC 5545 3.3.10: the DTSTART always counts as the first occurrence, even on a day the rule would not
  // yield (Exchange writes weekly Thursday-and-Friday series that start on a Monday); ical.js's iterator skips it.
  // A series whose source named no first date starts at an anchor before the window: no occurrence of its own.
  if (!series.recurrence.openStart) take(first);
  // Several RRULEs (RFC 2445; Zimbra) make one series of all their occurrences.
  for (const rrule of [series.recurrence.rrule, ...(series.recurrence.moreRrules ?? [])]) {
    const rule = ruleOf(rrule);
    if (!rule) continue;
    // A UTC UNTIL (RFC 5545 asks for one when DTSTART has a zone) bounds the instants; the iterator walks
    // wall times on the event's clock, so the bound is taken onto that clock (Google: UNTIL=20160828T110000Z
    // is 14:00 in Kiev, and includes the 14:00 occurrence of that day).
    const until = rule.until;
    if (until && !until.isDate && !allDay && until.zone === ICAL.Timezone.utcTimezone) {
      const w = wallOn(parseIsoTime(`${until.toString().slice(0, 19)}Z`)!, clock);
      rule.until = ICAL.Time.fromData({ year: w.y, month: w.mo, day: w.d, hour: w.h, minute: w.mi, second: w.s, isDate: false });
    } else if (until?.isDate && !allDay) {
      // A date UNTIL on a timed series (Google: UNTIL=20211020, DTSTART at 13:00) names its last day, all of it;
      // ical.js would read it as that day's midnight and drop the day's occurrence.
      rule.until = ICAL.Time.fromData({
        year: until.year,
        month: until.month,
        day: until.day,
        hour: 23,
        minute: 59,
        second: 59,
        isDate: false,
      });
    } else if (until && !until.isDate && allDay && until.zone === ICAL.Timezone.utcTimezone) {
      // Exchange writes an all-day series' UNTIL as the UTC instant its last day starts in the organiser's zone
      // (20210701T220000Z: Friday 2 July in Berlin). The nearest midnight is that day's start for any zone within
      // ±12 hours, whoever reads it; ical.js would compare the day's UTC midnight and drop the last day.
      const last = new Date(Date.parse(`${until.toString().slice(0, 19)}Z`) + DAY_MS / 2);
      rule.until = ICAL.Time.fromData({ year: last.getUTCFullYear(), month: last.getUTCMonth() + 1, day: last.getUTCDate(), isDate: true });
    }
    // COUNT is counted here, over the distinct times the rule yields: ical.js finds a time twice when a MONTHLY
    // rule's BYMONTH starts before DTSTART's month (BYMONTH=1,…,9 from September) and counts it twice.
    const count = rule.count;
    rule.count = null;
    let dtstart = first;
    const period = FIXED_PERIOD[rule.freq];
    // A series that ends before the window is walked from its start, to find its last occurrence.
    const endsBefore = rule.until !== null && rule.until !== undefined && rule.until.toJSDate().getTime() < from;
    if (period && !count && !endsBefore) {
      // Move a far-past start forward by whole periods, to just before the window (never inside it).
      const step = period * (rule.interval || 1);
      const gap = from - 2 * DAY_MS - wallMs(first);
      if (gap > step) dtstart = wallFromMs(wallMs(first) + Math.floor(gap / step) * step);
    }
    // A rule ical.js cannot follow to the end (odd BY parts from an untrusted file) keeps what it yielded so far.
    try {
      const iterator = guarded(
        rule.iterator(
          ICAL.Time.fromData({
            year: dtstart.y,
            month: dtstart.mo,
            day: dtstart.d,
            hour: dtstart.h,
            minute: dtstart.mi,
            second: dtstart.s,
            isDate: allDay,
          }),
        ),
        budget,
      );
      let steps = 0;
      // RFC 5545 counts the DTSTART as the first occurrence even when the rule does not yield it.
      let yielded = 0;
      let countsStart = false;
      let previous: string | undefined;
      for (let t = iterator.next(); t; t = iterator.next()) {
        const w: Wall = { y: t.year, mo: t.month, d: t.day, h: allDay ? 0 : t.hour, mi: allDay ? 0 : t.minute, s: allDay ? 0 : t.second };
        if (identity(w) === previous) continue;
        previous = identity(w);
        if (yielded++ === 0) countsStart = !series.recurrence.openStart && identity(w) !== identity(first);
        if (count && yielded + (countsStart ? 1 : 0) > count) break;
        if (instantOf(w) > to) break;
        if (++steps > STEP_LIMIT) {
          dropped++;
          break;
        }
        // A start moved forward is yielded first even when the rule would not yield it; it lies before the window.
        take(w);
      }
    } catch {
      dropped++;
    }
  }
  for (const value of series.recurrence.rdates) {
    const t = parseIsoTime(value.split('/')[0]);
    if (t && t.allDay === allDay) take(wallOn(t, clock));
  }

  if (found.size === 0 && lastBefore) found.set(identity(lastBefore), lastBefore);
  const occurrences = [...found.values()]
    .sort((a, b) => wallMs(a) - wallMs(b))
    .map((w): Occurrence => {
      const occurrence: Occurrence = { startAt: write(w), original: identity(w) };
      if (spanDays !== null && spanDays > 0) occurrence.endAt = dateOf(wallFromMs(wallMs(w) + spanDays * DAY_MS));
      if (spanMs !== null && spanMs > 0) occurrence.endAt = write(parseIsoTime(isoOn(instantOf(w) + spanMs, clock))!.wall);
      if (isExcluded(w)) occurrence.status = 'cancelled';
      else if (series.status) occurrence.status = series.status;
      return occurrence;
    });

  const byOriginal = new Map(occurrences.map((o, i) => [o.original, i]));
  for (const o of overrides) {
    const id = parseIsoTime(o.recurrenceId);
    if (!id) continue;
    const original = identity(wallOn(id, clock));
    const actual = parseIsoTime(o.startAt) ?? id;
    const actualWall = wallOn(actual, clock);
    const moved = identity(actualWall) !== original || !!actual.allDay !== allDay;
    // An override without its own end lasts as long as the series' occurrences.
    const spanEnd =
      spanMs !== null && spanMs > 0 && !actual.allDay
        ? `${wallText(parseIsoTime(isoOn(instantOfWall(actualWall, clock) + spanMs, clock))!.wall)}${suffix}`
        : undefined;
    const replaced: Occurrence = {
      startAt: o.startAt
        ? actual.allDay
          ? actual.date
          : actual.epochMs === null
            ? `${wallText(actualWall)}${suffix}`
            : o.startAt
        : write(wallOn(id, clock)),
      endAt: o.endAt ?? spanEnd,
      original,
      status: o.status === 'cancelled' ? 'cancelled' : moved ? 'moved' : o.status,
      override: o,
    };
    const at = byOriginal.get(original);
    if (at !== undefined) occurrences[at] = replaced;
    else if (inWindow(actualWall) || inWindow(wallOn(id, clock))) {
      // An override that adds an occurrence counts inside the series' limit like any other.
      if (occurrences.length >= OCCURRENCES_PER_SERIES) dropped++;
      else byOriginal.set(original, occurrences.push(replaced) - 1);
    }
  }
  return { occurrences, dropped };
}

/** An RRULE value read by ical.js, or null when it names no frequency or cannot be read. */
export function ruleOf(rrule: string | undefined): ReturnType<typeof ICAL.Recur.fromString> | null {
  if (!rrule) return null;
  try {
    const rule = ICAL.Recur.fromString(rrule.replace(/^RRULE:/i, '').trim());
    return rule.freq ? rule : null;
  } catch {
    return null;
  }
}
