import type { Event } from '../../core/contract/event';

const formats = new Map<string, Intl.DateTimeFormat>();
function format(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formats.get(key);
  if (!f) {
    f = make();
    formats.set(key, f);
  }
  return f;
}

const dayOf = (date: string) =>
  format(
    'day',
    () => new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }),
  ).format(new Date(`${date}T12:00:00Z`));

/**
 * An event's date as people read it: 'Thu, 18 Jun 2026, 09:00 CEST' in the user's time zone, a date (or
 * date range) alone for an all-day event, whose day is the same everywhere.
 */
export function friendlyDate(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>, timeZone: string): string {
  if (!e.starts_at) return 'Date not known';
  if (e.all_day) {
    const start = e.starts_at.slice(0, 10);
    const end = e.ends_at?.slice(0, 10);
    return end && end > start ? `${dayOf(start)} – ${dayOf(end)}` : dayOf(start);
  }
  const ms = Date.parse(e.starts_at);
  if (Number.isNaN(ms)) return 'Date not known';
  let zone = timeZone;
  try {
    format(`t:${zone}`, () => makeTimeFormat(zone));
  } catch {
    zone = 'UTC';
  }
  return format(`t:${zone}`, () => makeTimeFormat(zone)).format(new Date(ms));
}

const makeTimeFormat = (timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
