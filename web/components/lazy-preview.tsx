import { lazy, Suspense } from 'react';
import type { TimerPreviewProps } from './timer-preview';

// Not on the first paint and only in Manage Timers: loaded when it first shows a timer (./lazy-delivery.tsx).
const TimerPreviewChunk = lazy(() => import('./timer-preview').then((m) => ({ default: m.TimerPreview })));

/** A timer's "Preview and test", loaded when Manage Timers first shows a timer. */
export function LazyTimerPreview(props: TimerPreviewProps) {
  return (
    <Suspense fallback={null}>
      <TimerPreviewChunk {...props} />
    </Suspense>
  );
}
