import type { EventFact } from './event-fact';

/**
 * How many facts one website reading keeps, over the page and the calendars it links together. Far above any
 * real events page or calendar (a year of a city's listings); it exists only so a hostile page cannot make
 * reading cost without bound. What is over it is counted, never dropped silently.
 */
export const MAX_FACTS = 5000;

/** Collects the facts of one reading up to a bound, counting the ones over it. */
export class FactSink {
  readonly events: EventFact[] = [];
  dropped = 0;
  /**
   * Events a reader found but could not read (an iCalendar event whose RRULE ical.js refuses, an h-event
   * microformats-parser throws on), counted and not kept: one bad event never costs the others.
   */
  unreadable = 0;

  constructor(readonly limit = MAX_FACTS) {}

  add(fact: EventFact): void {
    if (this.events.length < this.limit) this.events.push(fact);
    else this.dropped++;
  }

  get full(): boolean {
    return this.events.length >= this.limit;
  }
}
