import { lazy, Suspense, useId, useState } from 'react';
import type { SetTimerPanelProps } from './set-timer-panel';
import { SetTimerHeading } from './set-timer-heading';

type SetTimerModule = typeof import('./set-timer-panel');

// The Set Timer panel (its form and save) is not on the first paint and shows only when asked for: it loads
// after the page, like the filter fields (./lazy-filters.tsx), keeping the page within its script budget, and is
// there by the time Set Timer is pressed.
let loaded: SetTimerModule | null = null;
let loading: Promise<SetTimerModule> | null = null;

/** Loads the panel once; a failed load is tried again by the next call. */
export function loadSetTimerPanel(): Promise<SetTimerModule> {
  loading ??= import('./set-timer-panel').then(
    (module) => (loaded = module),
    (err: unknown) => {
      loading = null;
      throw err;
    },
  );
  return loading;
}

const SetTimerPanelChunk = lazy(() => loadSetTimerPanel().then((m) => ({ default: m.SetTimerPanel })));

/** SetTimerPanel; until it has loaded (Set Timer pressed very early), its title and zone line in its frame. */
export function LazySetTimerPanel(props: SetTimerPanelProps) {
  const id = useId();
  // Chosen once per opening: a lazy component suspends on its first render even when its module is there, and
  // moving from one path to the other later would mount the panel anew and lose what was typed.
  const [ready] = useState(() => loaded);
  if (ready) return <ready.SetTimerPanel {...props} />;
  return (
    <Suspense
      fallback={
        <section className="subpanel timer-form" aria-labelledby={`${id}-title`} aria-busy="true">
          <SetTimerHeading titleId={`${id}-title`} />
        </section>
      }
    >
      <SetTimerPanelChunk {...props} />
    </Suspense>
  );
}
