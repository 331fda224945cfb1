import * as z from 'zod/mini';
import { ATTENDANCE } from './filter-values';

export { ATTENDANCE };
export type { Attendance } from './filter-values';

/** Bounds a person can understand, said in the 400 that refuses a value beyond them. */
export const MAX_WINDOW_DAYS = 366;
export const MAX_RADIUS_KM = 1000;
export const MAX_EXCLUDED_WORDS = 20;

const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be written YYYY-MM-DD, e.g. 2026-12-01.'));

/** The date window: the next N days from the day of the run, or between two dates (both included). */
export const dateWindowSchema = z.union([
  z.strictObject({
    next_days: z
      .number()
      .check(
        z.int('next_days must be a whole number of days.'),
        z.minimum(1, 'next_days must be at least 1.'),
        z.maximum(MAX_WINDOW_DAYS, `next_days can be at most ${MAX_WINDOW_DAYS}.`),
      ),
  }),
  z.strictObject({ from: isoDate, to: isoDate }),
]);
export type DateWindow = z.infer<typeof dateWindowSchema>;

/**
 * A place and a radius around it. `name` is a city as people write it ("Berlin", "München"); the server
 * resolves it offline and fills `lat`/`lng`, which a client never needs to send.
 */
export const placeFilterSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Name a city for the place filter.'), z.maxLength(200, 'The place name is too long.')),
  radius_km: z
    .number()
    .check(z.minimum(1, 'The radius must be at least 1 km.'), z.maximum(MAX_RADIUS_KM, `The radius can be at most ${MAX_RADIUS_KM} km.`)),
  lat: z.optional(z.number()),
  lng: z.optional(z.number()),
  /** ISO 3166 alpha-2 of the resolved city: an event's city name shared by several countries is read there first. */
  country: z.optional(z.string()),
});
export type PlaceFilter = z.infer<typeof placeFilterSchema>;

/**
 * What a timer (or a search) keeps of the events it finds (docs/contract.md, Round 3 additions): all four
 * must hold. Missing fields mean "no limit"; `exclude` drops events whose title or venue has any of the words.
 */
export const timerFiltersSchema = z.object(
  {
    window: z._default(z.nullable(dateWindowSchema), null),
    place: z._default(z.nullable(placeFilterSchema), null),
    attendance: z._default(z.enum(ATTENDANCE, { error: 'attendance must be both, in_person or online.' }), 'both'),
    exclude: z._default(
      z
        .array(z.string().check(z.trim(), z.maxLength(60, 'Each excluded word can be at most 60 characters.')))
        .check(z.maxLength(MAX_EXCLUDED_WORDS, `At most ${MAX_EXCLUDED_WORDS} excluded words.`)),
      [],
    ),
  },
  { error: 'filters must be a JSON object with any of window, place, attendance and exclude.' },
);
export type TimerFilters = z.output<typeof timerFiltersSchema>;

/** No filter at all: every event found is kept. */
export const NO_FILTERS: TimerFilters = { window: null, place: null, attendance: 'both', exclude: [] };

/** Whether these filters keep every event (then nothing needs storing, applying or saying in the prompt). */
export function filtersAreEmpty(f: TimerFilters | null | undefined): boolean {
  return !f || (f.window === null && f.place === null && f.attendance === 'both' && f.exclude.length === 0);
}
