import { lazy, Suspense } from 'react';
import type { EventListProps } from './event-list';

// The event cards load with the first events to show (docs/decisions/the-page.md; see ./lazy-events.tsx). In a file of their
// own so that what shows events under a run (./hidden-events.tsx) does not import the runs' own chunk.
const EventListChunk = lazy(() => import('./event-list').then((m) => ({ default: m.EventList })));

/** EventList, loaded with the first events to show; nothing at all while there are none. */
export function LazyEventList(props: EventListProps) {
  if (props.events.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <EventListChunk {...props} />
    </Suspense>
  );
}
