/** One event found in a website's structured data (schema.org JSON-LD or an iCalendar VEVENT). */
export interface EventFact {
  name: string;
  start?: string;
  end?: string;
  place?: string;
  url?: string;
  organizer?: string;
  offers?: string;
  description?: string;
  /*
   * Machine-readable fields for core/events (structured events, calendar export). The prompt shows the
   * display fields above only, so these change nothing the model sees.
   */
  /** The start as the source wrote it: ISO 8601 with or without offset, or a date alone (YYYY-MM-DD). */
  startAt?: string;
  /** Like startAt; a date alone is the last day (iCalendar's exclusive DTEND date is turned into it). */
  endAt?: string;
  /** IANA time zone the source named for its times (iCalendar TZID). */
  timezone?: string;
  venue?: string;
  city?: string;
  online?: boolean;
  /** schema.org eventStatus / iCalendar STATUS, when the source says the event moved or is cancelled. */
  status?: 'moved' | 'cancelled';
}

/** Collapses whitespace and bounds a field so one page cannot flood the prompt. */
export function clean(value: unknown, max = 300): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
