import { lazy, Suspense } from 'react';
import type { TimerDeliveryProps } from './timer-delivery';

// Email and webhook controls are not on the first paint and show only in Manage Timers: they load when
// it first shows a timer, like the runs and feeds (./lazy-events.tsx), keeping the page within its budget.
const TimerDeliveryChunk = lazy(() => import('./timer-delivery').then((m) => ({ default: m.TimerDelivery })));

/** A timer's delivery settings, loaded when Manage Timers first shows a timer. */
export function LazyTimerDelivery(props: TimerDeliveryProps) {
  return (
    <Suspense fallback={null}>
      <TimerDeliveryChunk {...props} />
    </Suspense>
  );
}
