import * as z from 'zod/mini';

/**
 * One real-world event as every reply that lists events carries it (docs/contract.md, "Event").
 * Written with zod/mini so the browser bundle can parse replies with the same schema the api writes with.
 */
export const eventSchema = z.object({
  /** Stable for the same real event across searches and runs (canonical URL, else title + local date + city). */
  key: z.string(),
  title: z.string(),
  /** ISO 8601 with offset, or a date alone (YYYY-MM-DD) when `all_day`. */
  starts_at: z.nullable(z.string()),
  ends_at: z.nullable(z.string()),
  all_day: z.boolean(),
  /** IANA time zone name of the event, when known. */
  timezone: z.nullable(z.string()),
  venue: z.nullable(z.string()),
  city: z.nullable(z.string()),
  online: z.nullable(z.boolean()),
  url: z.nullable(z.string()),
  /** Where the event was found (the website, or a grounding source of the model's answer). */
  source_url: z.nullable(z.string()),
  status: z.enum(['scheduled', 'moved', 'cancelled']),
  /** True when the timer (or, for a search, the user) had not seen this key before. */
  new: z.boolean(),
});

export type Event = z.infer<typeof eventSchema>;
export type EventStatus = Event['status'];
