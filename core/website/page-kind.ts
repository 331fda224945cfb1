/**
 * How a fetched page is read: as a calendar (by its type, or by its first line whatever its type), as JSON(-LD),
 * as plain text, or as HTML. Apart from extract.ts so the reading pool's main-thread side can tell without
 * loading the parsers.
 */
export type PageKind = 'calendar' | 'json' | 'text' | 'html';

export const isCalendar = (contentType: string, body: string) => contentType === 'text/calendar' || /^\s*BEGIN:VCALENDAR/i.test(body);

export function pageKind(contentType: string, body: string): PageKind {
  if (isCalendar(contentType, body)) return 'calendar';
  if (contentType === 'application/json' || contentType === 'application/ld+json') return 'json';
  if (contentType === 'text/plain') return 'text';
  return 'html';
}
