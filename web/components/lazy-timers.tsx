import { lazy, Suspense } from 'react';
import type { TimersPanelProps } from './timers-panel';

// Manage Timers (the list, its rows and their polling) is not on the first paint and shows only when asked for:
// it loads then, like the runs and delivery controls it holds (./lazy-events.tsx, ./lazy-delivery.tsx),
// keeping the page within its script budget.
const TimersPanelChunk = lazy(() => import('./timers-panel').then((m) => ({ default: m.TimersPanel })));

/** The Your Timers panel, loaded when Manage Timers is first opened. */
export function LazyTimersPanel(props: TimersPanelProps) {
  return (
    <Suspense fallback={<p className="timers__loading">Loading timers…</p>}>
      <TimersPanelChunk {...props} />
    </Suspense>
  );
}
