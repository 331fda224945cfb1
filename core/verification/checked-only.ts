import type { FoundEvent } from '../contract/event';

/** The statuses a timer set to "checked events only" delivers: a page said so. */
export const CHECKED_STATUSES = new Set(['source', 'confirmed', 'corrected']);

/**
 * The events a timer that takes only checked events keeps: those a page gave, confirmed or corrected. The rest
 * are left out before the timer's memory sees them, so neither its feed nor its messages carry them, and one
 * that a later run confirms is new then.
 */
export function deliveredWhenChecked(events: FoundEvent[]): FoundEvent[] {
  return events.filter((e) => e.verification !== null && CHECKED_STATUSES.has(e.verification.status));
}
