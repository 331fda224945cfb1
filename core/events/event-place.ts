import type { Event } from '../contract/event';

/*
 * Where an event is, written the same on every surface: the card, the digest email, a webhook's text, the Atom
 * feed and the MCP tools' text; a calendar's location field takes the line without the online note.
 */

/** "Venue, City" (the city left out when the venue already names it), "Online", or '' when nothing is known. */
export function placeLine(e: Pick<Event, 'venue' | 'city' | 'online'>): string {
  const parts = [e.venue, e.city && !e.venue?.includes(e.city) ? e.city : null].filter(Boolean);
  if (parts.length === 0) return e.online ? 'Online' : '';
  return parts.join(', ');
}

/** The place as a person reads it: `placeLine`, with "· also online" when a place also streams; null when nothing is known. */
export function eventPlace(e: Pick<Event, 'venue' | 'city' | 'online'>): string | null {
  const line = placeLine(e);
  if (!line) return null;
  return e.online && (e.venue || e.city) ? `${line} · also online` : line;
}
