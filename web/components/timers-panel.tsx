import { useEffect, useId, useRef, useState } from 'react';
import { clearTimerLink, linkedRunOf, useTimerLink } from '../client/timer-link';
import { useTimerList } from '../hooks/use-timer-list';
import { Alert } from './alert';
import { browserTimezone, pageHost } from '../client/timezone';
import { LazyTimerExtras } from './lazy-events';
import { LazyTimerDelivery } from './lazy-delivery';
import { LazyTimerPreview } from './lazy-preview';
import { LazyTimerFiltersEditor } from './lazy-timer-filters';
import { TimerRow } from './timer-row';

export interface TimersPanelProps {
  onBack: () => void;
}

/** The spec's Manage Timers panel ('Your Timers'): the list, a load error with Retry, and Back. */
export function TimersPanel({ onBack }: TimersPanelProps) {
  const id = useId();
  const { timers, error, reload, refresh, remove, update } = useTimerList();
  const section = useRef<HTMLElement>(null);
  // After a delete the focused row is gone: focus moves to the next Delete button, or to Back.
  const refocusAt = useRef<number | null>(null);
  const linked = useTimerLink();
  // The linked timer, shown with its runs (at the linked run, when the link named one); `false` when the link
  // named a timer this list does not have.
  const [shown, setShown] = useState<{ timer: number; run: number | null } | false | null>(null);

  // Opening the panel moves focus to its heading, so keyboard users go on from there; Back hands it back.
  useEffect(() => section.current?.querySelector<HTMLElement>('h3')?.focus(), []);

  // A link to a timer: once the list is here, bring that row into view and focus it, or say it is gone.
  useEffect(() => {
    if (linked === null || !timers || !section.current) return;
    const run = linkedRunOf();
    clearTimerLink();
    const row = section.current.querySelector<HTMLElement>(`[data-timer-id="${linked}"]`);
    setShown(row ? { timer: linked, run } : false);
    const target = row ?? section.current.querySelector<HTMLElement>('h3');
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [timers, linked]);

  useEffect(() => {
    const index = refocusAt.current;
    if (index === null || !section.current || !timers) return;
    refocusAt.current = null;
    const deletes = section.current.querySelectorAll<HTMLButtonElement>('.timer-row__actions [data-delete]');
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
      <h3 id={`${id}-title`} tabIndex={-1}>
        Your Timers
      </h3>
      {shown === false ? <p>That timer no longer exists.</p> : null}
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
            <TimerRow key={t.id} timer={t} onDelete={removeAt} onUpdate={update}>
              <LazyTimerExtras
                timerId={t.id}
                showRuns={shown !== false && t.id === shown?.timer}
                showRun={shown !== false && t.id === shown?.timer ? shown.run : null}
                urls={{ ical_url: t.ical_url ?? null, atom_url: t.atom_url ?? null }}
                timeZone={browserTimezone()}
                uidDomain={pageHost()}
                onFeedsRenewed={() => void reload()}
                onRunsChanged={() => void refresh()}
                pause={{ paused: t.paused, onChange: (paused) => update(t.id, { paused }) }}
              />
              <LazyTimerFiltersEditor timer={t} onUpdate={update} />
              <LazyTimerDelivery timer={t} onUpdate={update} onChannelsChanged={() => void refresh()} />
              <LazyTimerPreview timerId={t.id} />
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
