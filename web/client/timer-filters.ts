import type { Attendance } from '../../core/contract/filter-values';
import type { TimerFilters } from '../../core/contract/timer-filters';

/** What the filter fields hold while the user types: text as typed, read into filters on save. */
export interface FilterDraft {
  window: 'any' | 'next' | 'between';
  nextDays: string;
  from: string;
  to: string;
  place: string;
  radiusKm: string;
  attendance: Attendance;
  /** Comma-separated words. */
  exclude: string;
}

export const EMPTY_FILTER_DRAFT: FilterDraft = {
  window: 'any',
  nextDays: '14',
  from: '',
  to: '',
  place: '',
  radiusKm: '25',
  attendance: 'both',
  exclude: '',
};

/** The filters as the fields show them. */
export function draftOf(f: TimerFilters | null | undefined): FilterDraft {
  if (!f) return EMPTY_FILTER_DRAFT;
  const w = f.window;
  return {
    window: !w ? 'any' : 'next_days' in w ? 'next' : 'between',
    nextDays: w && 'next_days' in w ? String(w.next_days) : EMPTY_FILTER_DRAFT.nextDays,
    from: w && 'from' in w ? w.from : '',
    to: w && 'to' in w ? w.to : '',
    place: f.place?.name ?? '',
    radiusKm: f.place ? String(f.place.radius_km) : EMPTY_FILTER_DRAFT.radiusKm,
    attendance: f.attendance,
    exclude: f.exclude.join(', '),
  };
}

/** The request body's filters; the server checks each value and says what is wrong (400). */
export function filtersOf(d: FilterDraft): TimerFilters | null {
  const window = d.window === 'next' ? { next_days: Number(d.nextDays) } : d.window === 'between' ? { from: d.from, to: d.to } : null;
  const place = d.place.trim() ? { name: d.place.trim(), radius_km: Number(d.radiusKm) } : null;
  const exclude = d.exclude
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (!window && !place && d.attendance === 'both' && !exclude.length) return null;
  return { window, place, attendance: d.attendance, exclude };
}
