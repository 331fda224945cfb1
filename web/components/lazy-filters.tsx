import { lazy, Suspense, useEffect, useState } from 'react';
import type { TimerFilterFieldsProps } from './timer-filter-fields';

// The filter fields are not on the first paint and stay closed until asked for: they load after the page, like the
// event cards and the reply schemas (docs/decisions/the-page.md), keeping it within its budget. Describe it comes with the Set
// Timer panel (./lazy-set-timer.tsx).
const FieldsChunk = lazy(() => import('./timer-filter-fields').then((m) => ({ default: m.TimerFilterFields })));

/**
 * TimerFilterFields, loaded after the page; until then, its closed summary line. The server and the hydrating
 * client both render that line (a lazy component cannot render on the server), and the fields follow.
 */
export function LazyFilterFields(props: TimerFilterFieldsProps) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const closed = (
    <details className="timer-filters">
      <summary>{props.summary ?? 'Which events to keep (optional)'}</summary>
    </details>
  );
  if (!mounted) return closed;
  return (
    <Suspense fallback={closed}>
      <FieldsChunk {...props} />
    </Suspense>
  );
}
