/**
 * One event as a website's structured data states it (schema.org JSON-LD, microdata or RDFa, microformats,
 * data-vocabulary.org, or an iCalendar VEVENT, also from an .ics file the page links to). The website layer
 * reports what the source says and nothing it guessed; core/events resolves zones, values and keys.
 */
export interface EventFact {
  name: string;
  /*
   * Display fields for the prompt (short, human text). The machine-readable fields below change nothing the
   * model sees.
   */
  start?: string;
  end?: string;
  place?: string;
  url?: string;
  organizer?: string;
  offers?: string;
  description?: string;
  /** The start as the source wrote it: ISO 8601 with or without offset, or a date alone (YYYY-MM-DD). */
  startAt?: string;
  /** Like startAt; a date alone is the last day (iCalendar's exclusive DTEND date is turned into it). */
  endAt?: string;
  /**
   * IANA time zone the source itself named for its times (iCalendar TZID, a Windows zone name mapped to IANA,
   * a custom VTIMEZONE matched to IANA, schema.org scheduleTimezone). Absent when the source named none.
   */
  timezone?: string;
  venue?: string;
  /** The venue's address as written (street, postal code, city, region, country), for zone resolution. */
  address?: string;
  city?: string;
  region?: string;
  /** Country as written: a name or an ISO 3166 code. */
  country?: string;
  online?: boolean;
  /**
   * schema.org eventStatus / iCalendar STATUS when the event is not simply scheduled: moved (rescheduled,
   * postponed, or a recurrence instance whose start changed), cancelled, or tentative.
   */
  status?: 'moved' | 'cancelled' | 'tentative';
  /** The source's own identity for the event or its series (iCalendar UID, schema.org @id or identifier). */
  uid?: string;
  /**
   * A recurring series (iCalendar RRULE/RDATE/EXDATE, schema.org eventSchedule mapped onto an RRULE): startAt
   * is its first start; dates and times are written as startAt is. core/events expands it into occurrences.
   */
  recurrence?: {
    rrule?: string;
    /**
     * The further RRULEs when the source writes more than one (RFC 2445 allowed several; RFC 5545 advises
     * against it, and Zimbra still exports them): the series is the union of all.
     */
    moreRrules?: string[];
    rdates: string[];
    exdates: string[];
    /**
     * A series whose source names no first date (a schema.org eventSchedule without startDate): startAt is
     * absent, and these are the times of day its occurrences start and end, as written ('18:00:00',
     * '18:00+08:00'; absent for whole days). core/events runs the rule through its whole window.
     */
    openStart?: { startTime?: string; endTime?: string };
  };
  /**
   * An instance that overrides one occurrence of the series named by `uid` (iCalendar RECURRENCE-ID): the
   * occurrence's original start, written as startAt is; startAt/endAt are its actual times.
   */
  recurrenceId?: string;
}

/** Whitespace other than a space, or two spaces: what collapsing whitespace changes. */
const SPACES_TO_COLLAPSE = /[^\S ]| {2}/;

/** Collapses whitespace and bounds a field so one page cannot flood the prompt. */
export function clean(value: unknown, max = 300): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const raw = String(value);
  // Most values hold no whitespace but single spaces: the replace, which copies them, is left out for those.
  const text = (SPACES_TO_COLLAPSE.test(raw) ? raw.replace(/\s+/g, ' ') : raw).trim();
  if (!text) return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The fact without its absent fields, so a fact compares equal however it was built. Copied rather than
 * deleted from: an object that loses fields turns slow for every later read of it, its JSON included.
 */
export function withoutAbsent(fact: EventFact): EventFact {
  const out: Record<string, unknown> = {};
  for (const key in fact) {
    const value = fact[key as keyof EventFact];
    if (value !== undefined) out[key] = value;
  }
  return out as unknown as EventFact;
}
