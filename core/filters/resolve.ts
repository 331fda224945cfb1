import { MAX_WINDOW_DAYS, type TimerFilters, timerFiltersSchema, filtersAreEmpty } from '../contract/timer-filters';
import { isCalendarDay, YEAR_MAX, YEAR_MIN } from '../time/calendar-day';
import { formatDay, formatEventDays } from '../time/event-date-format';
import { findPlace } from './gazetteer';

export type FiltersCheck = { ok: true; filters: TimerFilters | null } | { ok: false; message: string };

/**
 * The filters of a request body (a timer's or a search's), checked and with the place resolved offline to
 * coordinates. Null or absent means none; filters that keep everything are stored as none.
 */
export function resolveFilters(body: unknown): FiltersCheck {
  if (body === undefined || body === null) return { ok: true, filters: null };
  const parsed = timerFiltersSchema.safeParse(body);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'The filters are not valid.' };
  const filters = parsed.data;
  if (filters.window && 'from' in filters.window) {
    const { from, to } = filters.window;
    for (const day of [from, to]) {
      if (!isCalendarDay(Number(day.slice(0, 4)), Number(day.slice(5, 7)), Number(day.slice(8, 10))))
        return { ok: false, message: `The date window names a day that does not exist (${day}); check the month and day.` };
    }
    if (from > to)
      return { ok: false, message: `The date window ends on ${formatDay(to)}, before it starts on ${formatDay(from)}; swap the dates.` };
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
    if (days > MAX_WINDOW_DAYS)
      return {
        ok: false,
        message: `The date window spans ${days} days (${formatEventDays(from, to)}); it can span at most ${MAX_WINDOW_DAYS} days. Choose closer dates.`,
      };
    // A window outside the years an event can have keeps nothing; it is a mistyped year.
    for (const day of [from, to]) {
      const year = Number(day.slice(0, 4));
      if (year < YEAR_MIN || year > YEAR_MAX)
        return { ok: false, message: `The date window names the year ${day.slice(0, 4)}; choose dates from ${YEAR_MIN} to ${YEAR_MAX}.` };
    }
  }
  const exclude = [...new Set(filters.exclude.filter((w) => w.length > 0))];
  let place = filters.place;
  if (place) {
    const found = findPlace(place.name);
    if (!found) {
      return {
        ok: false,
        message: `We do not know the place "${place.name}". Write the name of a city, e.g. "Berlin" or "München", or leave the place empty.`,
      };
    }
    place = { name: place.name, radius_km: place.radius_km, lat: found.lat, lng: found.lng, country: found.country };
  }
  const resolved: TimerFilters = { ...filters, exclude, place };
  return { ok: true, filters: filtersAreEmpty(resolved) ? null : resolved };
}
