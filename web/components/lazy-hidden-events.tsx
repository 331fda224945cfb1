import { lazy, Suspense } from 'react';
import type { HiddenEventsProps } from './hidden-events';

// Only a filtered answer has hidden events: their line and list load with the first ones, not with the page.
const HiddenEventsChunk = lazy(() => import('./hidden-events').then((m) => ({ default: m.HiddenEvents })));

/** HiddenEvents, loaded with the first hidden events; nothing at all while there are none. */
export function LazyHiddenEvents(props: HiddenEventsProps) {
  if (props.hidden.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <HiddenEventsChunk {...props} />
    </Suspense>
  );
}
