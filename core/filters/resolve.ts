import { type TimerFilters, timerFiltersSchema, filtersAreEmpty } from '../contract/timer-filters';
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
    if (Number.isNaN(Date.parse(from)) || Number.isNaN(Date.parse(to)))
      return { ok: false, message: 'The date window names a day that does not exist.' };
    if (from > to) return { ok: false, message: `The date window ends (${to}) before it starts (${from}); swap the dates.` };
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
