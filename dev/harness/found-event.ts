import type { Event, FoundEvent } from '../../core/contract/event';

/**
 * An event as a reader or the model gives it, for tests: every field empty or unknown, then the test's own. Its
 * key is its title unless the test gives one.
 */
export function foundEvent(over: Partial<FoundEvent> & Pick<FoundEvent, 'title'>): FoundEvent {
  return {
    key: over.title,
    starts_at: null,
    ends_at: null,
    all_day: false,
    timezone: null,
    timezone_source: null,
    venue: null,
    city: null,
    online: null,
    url: null,
    source_url: null,
    status: 'scheduled',
    verification: null,
    ...over,
  };
}

/** The same event as a run delivers it: new unless the test says otherwise. */
export function deliveredEvent(over: Partial<Event> & Pick<Event, 'title'>): Event {
  return { new: true, ...foundEvent(over) };
}
