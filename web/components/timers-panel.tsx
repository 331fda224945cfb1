import { useEffect, useId, useRef } from 'react';
import { useTimerList } from '../hooks/use-timer-list';
import { Alert } from './alert';
import { browserTimezone, pageHost } from '../client/timezone';
import { LazyTimerExtras } from './lazy-events';
import { LazyTimerDelivery } from './lazy-delivery';
import { TimerRow } from './timer-row';

/** The spec's Manage Timers panel ('Your Timers'): the list, a load error with Retry, and Back. */
export function TimersPanel({ onBack }: { onBack: () => void }) {
  const id = useId();
  const { timers, error, reload, remove, update } = useTimerList();
  const section = useRef<HTMLElement>(null);
  // After a delete the focused row is gone: focus moves to the next Delete button, or to Back.
  const refocusAt = useRef<number | null>(null);

  useEffect(() => {
    const index = refocusAt.current;
    if (index === null || !section.current || !timers) return;
    refocusAt.current = null;
    const deletes = section.current.querySelectorAll<HTMLButtonElement>('.timer-row__actions .button');
    const target = deletes[Math.min(index, deletes.length - 1)] ?? section.current.querySelector<HTMLButtonElement>('[data-back]');
    target?.focus();
  }, [timers]);

  async function removeAt(timerId: number) {
    const index = timers?.findIndex((t) => t.id === timerId) ?? 0;
    const focusWasHere = section.current?.contains(document.activeElement) || document.activeElement === document.body;
    // Set before the list changes: the effect above runs on the first render without this timer.
    refocusAt.current = focusWasHere ? index : null;
    const outcome = await remove(timerId);
    if (!outcome.ok && !outcome.gone) refocusAt.current = null;
    return outcome;
  }

  return (
    <section ref={section} className="subpanel timers" aria-labelledby={`${id}-title`} aria-busy={timers === null && !error}>
      <h3 id={`${id}-title`}>Your Timers</h3>
      {error ? (
        <Alert
          tone="error"
          actions={
            <button type="button" className="button button--secondary button--small" onClick={() => void reload()}>
              Retry
            </button>
          }
        >
          {error}
        </Alert>
      ) : timers === null ? (
        <p className="timers__loading">Loading timers…</p>
      ) : null}
      {timers?.length === 0 ? <p>No timers found.</p> : null}
      {timers?.length ? (
        <ul className="timer-list">
          {timers.map((t) => (
            <TimerRow key={t.id} timer={t} onDelete={removeAt}>
              <LazyTimerDelivery timer={t} onUpdate={update} />
              <LazyTimerExtras
                timerId={t.id}
                urls={{ ical_url: t.ical_url ?? null, atom_url: t.atom_url ?? null }}
                timeZone={browserTimezone()}
                uidDomain={pageHost()}
                onFeedsRenewed={() => void reload()}
              />
            </TimerRow>
          ))}
        </ul>
      ) : null}
      <div className="actions">
        <button type="button" className="button button--secondary" data-back onClick={onBack}>
          Back
        </button>
      </div>
    </section>
  );
}
