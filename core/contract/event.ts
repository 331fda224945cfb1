import * as z from 'zod/mini';

export const TIMEZONE_SOURCES = ['source', 'venue', 'page', 'offset', 'model', 'searcher', 'venue-over-offset'] as const;
export type TimezoneSource = (typeof TIMEZONE_SOURCES)[number];

export const VERIFICATION_STATUSES = ['source', 'confirmed', 'corrected', 'unconfirmed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/**
 * Why an event is `unconfirmed`: `not_listed` a page cited for it was read, gives events as data and not this
 * one, `no_event_data` its pages were read and give no events as data (a page that lists them as text only), so
 * nothing could be checked, `robots` its pages' robots.txt refused reading them, `unreachable` its pages could not
 * be fetched or read, `no_page` no page was cited for it.
 */
export const UNCONFIRMED_REASONS = ['not_listed', 'no_event_data', 'robots', 'unreachable', 'no_page'] as const;
export type UnconfirmedReason = (typeof UNCONFIRMED_REASONS)[number];

/**
 * Whether an event was checked against the page it comes from (docs/decisions/checked-events.md): `source` read from a page's
 * structured data (the user's website or a cited page), `confirmed` the model's event and its cited page gives
 * the same start, `corrected` the page gives another start or end and its values were taken (`model_starts_at`
 * keeps what the model said), `unconfirmed` no cited page could confirm it.
 */
export const verificationSchema = z.object({
  status: z.enum(VERIFICATION_STATUSES),
  /**
   * The page that confirmed, corrected or gave the event, as the answer cited it; null when none did. A link
   * that redirects to another site keeps the cited address here and the page it led to in `landing_url`.
   */
  source_url: z.nullable(z.string()),
  /** What the model said the start was, when the page corrected it; null otherwise. */
  model_starts_at: z._default(z.nullable(z.string()), null),
  /** The page read, when the cited link redirected to another site; else null, or absent (events checked before it). */
  landing_url: z.optional(z.nullable(z.string())),
  /** Why an `unconfirmed` event is not confirmed; else null, or absent (events checked before it). */
  reason: z.optional(z.nullable(z.enum(UNCONFIRMED_REASONS))),
});
export type Verification = z.output<typeof verificationSchema>;

/**
 * One real-world event as every reply that lists events carries it (docs/contract.md, "Event").
 * Written with zod/mini so the browser bundle can parse replies with the same schema the api writes with.
 */
export const eventSchema = z.object({
  /** Stable for the same real event across searches and runs (canonical URL, else title + local date + city, and the local start time when two such events share those). */
  key: z.string(),
  title: z.string(),
  /** ISO 8601 with offset, or a date alone (YYYY-MM-DD) when `all_day`. */
  starts_at: z.nullable(z.string()),
  ends_at: z.nullable(z.string()),
  all_day: z.boolean(),
  /** IANA time zone name of the event, when known. */
  timezone: z.nullable(z.string()),
  /**
   * Which rule decided the event's zone or offset (docs/decisions/events-as-data.md): `source` the source named the zone, `venue`
   * the venue's place through an offline table, `page` the page's other events, `offset` the offset the source
   * wrote with the time (no zone known), `model` the model's answer, `searcher` nothing else was known so the
   * time was read in the searcher's zone; null when no time needed one. Absent in events stored before it: null.
   */
  timezone_source: z._default(z.nullable(z.enum(TIMEZONE_SOURCES)), null),
  venue: z.nullable(z.string()),
  city: z.nullable(z.string()),
  online: z.nullable(z.boolean()),
  url: z.nullable(z.string()),
  /** Where the event was found (the website, or a grounding source of the model's answer). */
  source_url: z.nullable(z.string()),
  /** `tentative`: the source says it may not happen as planned (iCalendar STATUS:TENTATIVE). */
  status: z.enum(['scheduled', 'moved', 'cancelled', 'tentative']),
  /**
   * A moved event's start before it moved (as `starts_at` was then), when the timer saw it there; absent or
   * null otherwise (not moved, moved before this was kept, or a source that only says it was rescheduled).
   */
  moved_from: z.optional(z.nullable(z.string())),
  /**
   * How the series this occurrence belongs to repeats, in words ("every second Tuesday"), when its source gives
   * it as a series whose rule these words say exactly; absent or null otherwise.
   */
  repeats: z.optional(z.nullable(z.string())),
  /**
   * The series' rule as its source gives it (an RFC 5545 RRULE value: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"), beside
   * `repeats`, when the series is that rule alone (no extra or excluded dates, no changed occurrence, no COUNT):
   * its occurrences are then shown as one card and exported as one calendar entry with the rule, this occurrence
   * its first. Absent or null otherwise; each occurrence is then its own event.
   */
  rrule: z.optional(z.nullable(z.string())),
  /** True when the timer (or, for a search, the user) had not seen this key before. */
  new: z.boolean(),
  /** How the event was checked against its source; null when it was not (checking off, or stored before it). */
  verification: z._default(z.nullable(verificationSchema), null),
  /**
   * Only on an event the search's or timer's filters left out (`hidden_events`): which filter did, in words
   * ("online, and you asked for in person"). Absent elsewhere, and on hidden events stored before it.
   */
  hidden_by: z.optional(z.string()),
});

export type Event = z.output<typeof eventSchema>;
export type EventStatus = Event['status'];

/** An event found by a source, before its key decides whether it was seen before. */
export type FoundEvent = Omit<Event, 'new'>;

/**
 * When the event is over, in ms, or null when nothing says: its end (or, without one, its start); an all-day
 * event's last day (inclusive) once it has ended everywhere (UTC-12). The page, digests and feeds share it.
 */
export function eventOverAt(e: Pick<Event, 'starts_at' | 'ends_at' | 'all_day'>): number | null {
  const last = e.ends_at ?? e.starts_at;
  if (!last) return null;
  const end = e.all_day ? Date.parse(`${last.slice(0, 10)}T23:59:59-12:00`) : Date.parse(last);
  return Number.isNaN(end) ? null : end;
}
