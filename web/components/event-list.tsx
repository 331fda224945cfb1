import type { Event } from '../../core/contract/event';
import { oneCardPerSeries } from '../../core/events/series-card';
import { EventCard } from './event-card';
import { EventCardBoundary } from './event-card-boundary';
import { isPast } from './event-date';

export interface EventListProps {
  events: Event[];
  timeZone: string;
  /** Heading of the list, e.g. 'Events in this answer'. */
  title: string;
  uidDomain?: string;
  /** Compact lines without the heading and its count (a run's own line says what it found). */
  bare?: boolean;
  /** Keys of events changed since the timer last saw them (a run's `changed_keys`). */
  changedKeys?: ReadonlySet<string>;
}

/** Events still to come that are new: a past event is never counted or badged as New. */
export const freshCount = (events: Event[], now: number) => events.filter((e) => e.new && !isPast(e, now)).length;

/** A list of event cards under a heading, each guarded on its own; nothing at all when there are no events. */
export function EventList({ events: found, timeZone, title, uidDomain, bare, changedKeys }: EventListProps) {
  if (found.length === 0) return null;
  const now = Date.now();
  // A series its source gives as one rule is one card, which says how it repeats (core/events/series-card.ts).
  const events = oneCardPerSeries(found, new Date(now));
  const fresh = freshCount(events, now);
  return (
    <section className={`event-list${bare ? ' event-list--bare' : ''}`} aria-label={title}>
      {bare ? null : (
        <h3 className="event-list__title">
          {title}{' '}
          <span className="event-list__count">
            ({events.length}
            {fresh > 0 && fresh < events.length ? `, ${fresh} new` : ''})
          </span>
        </h3>
      )}
      <ul className="event-list__items">
        {events.map((e) => (
          <li key={e.key}>
            <EventCardBoundary title={typeof e.title === 'string' ? e.title : ''}>
              <EventCard event={e} timeZone={timeZone} uidDomain={uidDomain} now={now} changed={changedKeys?.has(e.key)} compact={bare} />
            </EventCardBoundary>
          </li>
        ))}
      </ul>
    </section>
  );
}
