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
}

/** Collapses whitespace and bounds a field so one page cannot flood the prompt. */
export function clean(value: unknown, max = 300): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
