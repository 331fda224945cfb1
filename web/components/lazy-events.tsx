import { lazy, Suspense } from 'react';
import type { TimerExtrasProps } from './timer-extras';

export { LazyEventList } from './lazy-event-list';

// Nothing shows the event cards, runs and feeds before a search has ended or
// Manage Timers is open: they load then, like linkify and the reply schemas (docs/decisions/the-page.md), keeping the page
// within its script budget.
const TimerExtrasChunk = lazy(() => import('./timer-extras'));

/** A timer's runs and feeds, loaded when Manage Timers first shows a timer. */
export function LazyTimerExtras(props: TimerExtrasProps) {
  return (
    <Suspense fallback={null}>
      <TimerExtrasChunk {...props} />
    </Suspense>
  );
}
