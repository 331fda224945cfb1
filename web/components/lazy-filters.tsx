import { lazy, Suspense, useEffect, useState } from 'react';
import type { DescribeTimerProps } from './describe-timer';
import type { TimerFilterFieldsProps } from './timer-filter-fields';

// The filter fields and Describe it weigh about 3 KB gzipped and stay closed or unused until asked for: they
// load after the page, like the event cards and the reply schemas (decision 009), keeping it within its budget.
const FieldsChunk = lazy(() => import('./timer-filter-fields').then((m) => ({ default: m.TimerFilterFields })));
const DescribeChunk = lazy(() => import('./describe-timer').then((m) => ({ default: m.DescribeTimer })));

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

/** DescribeTimer, loaded when Set Timer opens. */
export function LazyDescribeTimer(props: DescribeTimerProps) {
  return (
    <Suspense fallback={null}>
      <DescribeChunk {...props} />
    </Suspense>
  );
}
