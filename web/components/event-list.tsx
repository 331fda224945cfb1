import type { Event } from '../../core/contract/event';
import { EventCard } from './event-card';
import { EventCardBoundary } from './event-card-boundary';

export interface EventListProps {
  events: Event[];
  timeZone: string;
  /** Heading of the list, e.g. 'Events in this answer'. */
  title: string;
  uidDomain?: string;
}

/** A list of event cards under a heading, each guarded on its own; nothing at all when there are no events. */
export function EventList({ events, timeZone, title, uidDomain }: EventListProps) {
  if (events.length === 0) return null;
  const fresh = events.filter((e) => e.new).length;
  return (
    <section className="event-list" aria-label={title}>
      <h3 className="event-list__title">
        {title}{' '}
        <span className="event-list__count">
          ({events.length}
          {fresh > 0 && fresh < events.length ? `, ${fresh} new` : ''})
        </span>
      </h3>
      <ul className="event-list__items">
        {events.map((e) => (
          <li key={e.key}>
            <EventCardBoundary title={typeof e.title === 'string' ? e.title : ''}>
              <EventCard event={e} timeZone={timeZone} uidDomain={uidDomain} />
            </EventCardBoundary>
          </li>
        ))}
      </ul>
    </section>
  );
}
