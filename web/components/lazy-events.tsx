import { lazy, Suspense } from 'react';
import type { EventListProps } from './event-list';
import type { TimerExtrasProps } from './timer-extras';

// The event cards, runs and feeds weigh about 4 KB gzipped and nothing shows them before a search has ended or
// Manage Timers is open: they load then, like linkify and the reply schemas (decision 009), keeping the page
// within its script budget.
const EventListChunk = lazy(() => import('./event-list').then((m) => ({ default: m.EventList })));
const TimerExtrasChunk = lazy(() => import('./timer-extras'));

/** EventList, loaded with the first events to show; nothing at all while there are none. */
export function LazyEventList(props: EventListProps) {
  if (props.events.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <EventListChunk {...props} />
    </Suspense>
  );
}

/** A timer's runs and feeds, loaded when Manage Timers first shows a timer. */
export function LazyTimerExtras(props: TimerExtrasProps) {
  return (
    <Suspense fallback={null}>
      <TimerExtrasChunk {...props} />
    </Suspense>
  );
}
