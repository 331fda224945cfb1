import type { Event } from '../contract/event';
import type { MapPoint } from '../contract/run-map';
import { findPlace } from './gazetteer';

/** The in-person events placed at their city (the same offline tables as the place filter); online ones are not. */
export function mapPoints(events: Event[]): MapPoint[] {
  return events.flatMap((e) => {
    // A cancelled event is nowhere to go: the list says it is cancelled; the map shows only what takes place.
    if (e.online === true || e.status === 'cancelled') return [];
    const at = (e.city ? findPlace(e.city) : null) ?? (e.venue ? findPlace(e.venue) : null);
    if (!at) return [];
    return [{ key: e.key, title: e.title, place: [e.venue, e.city ?? at.name].filter(Boolean).join(', '), lat: at.lat, lng: at.lng }];
  });
}
