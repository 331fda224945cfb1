import type { Event } from '../contract/event';

/**
 * A Google Calendar "add event" template link (calendar.google.com/calendar/render?action=TEMPLATE), or null
 * when the event has no start or is cancelled. Timed events go as UTC instants, all-day ones as dates with the
 * exclusive end date Google expects. NOTE: the events work may bring its own helper for the page; keep one.
 */
export function googleCalendarUrl(event: Event): string | null {
  if (!event.starts_at || event.status === 'cancelled') return null;
  let dates: string;
  if (event.all_day) {
    const start = event.starts_at.slice(0, 10);
    const end = addDays((event.ends_at ?? event.starts_at).slice(0, 10), 1);
    dates = `${start.replace(/-/g, '')}/${end.replace(/-/g, '')}`;
  } else {
    const start = new Date(event.starts_at);
    if (Number.isNaN(start.getTime())) return null;
    const parsedEnd = event.ends_at ? new Date(event.ends_at) : null;
    // Google needs an end; an hour is what its own form proposes.
    const end = parsedEnd && parsedEnd.getTime() > start.getTime() ? parsedEnd : new Date(start.getTime() + 3_600_000);
    dates = `${utcStamp(start)}/${utcStamp(end)}`;
  }
  const params = new URLSearchParams({ action: 'TEMPLATE', text: event.title, dates });
  const details = event.url ?? event.source_url;
  if (details) params.set('details', details);
  const location = [event.venue, event.city].filter(Boolean).join(', ');
  if (location) params.set('location', location);
  if (event.timezone && !event.all_day) params.set('ctz', event.timezone);
  return `https://calendar.google.com/calendar/render?${params}`;
}

function utcStamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
