import { lazy, Suspense } from 'react';
import type { TimerFiltersEditorProps } from './timer-filters-editor';

// Loaded with Manage Timers' other per-timer controls (./lazy-delivery.tsx), keeping the page within its budget.
const EditorChunk = lazy(() => import('./timer-filters-editor').then((m) => ({ default: m.TimerFiltersEditor })));

/** A timer's filters, editable, loaded when Manage Timers first shows a timer. */
export function LazyTimerFiltersEditor(props: TimerFiltersEditorProps) {
  return (
    <Suspense fallback={null}>
      <EditorChunk {...props} />
    </Suspense>
  );
}
