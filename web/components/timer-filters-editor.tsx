import { type FormEvent, useState } from 'react';
import type { DateWindow, TimerFilters } from '../../core/contract/timer-filters';
import { formatEventDays } from '../../core/time/event-date-format';
import { draftOf, type FilterDraft, filtersOf } from '../client/timer-filters';
import type { ListedTimer, TimerSettingsPatch, UpdateOutcome } from '../client/timers';
import { Alert } from './alert';
import { DateText } from './date-text';
import { TimerFilterFields } from './timer-filter-fields';

export interface TimerFiltersEditorProps {
  timer: ListedTimer;
  onUpdate: (timerId: number, patch: TimerSettingsPatch) => Promise<UpdateOutcome>;
}

/** A date window in words: "next 14 days", or its days as "Sun 20 Dec 2026 – Tue 5 Jan 2027". */
const windowText = (w: DateWindow) => ('next_days' in w ? `next ${w.next_days} days` : formatEventDays(w.from, w.to));

/**
 * The filters in a few words, for the summary line: "within 20 km of Berlin · in person · not: crypto", a
 * window of days as "Sun 20 Dec 2026 – Tue 5 Jan 2027".
 */
export function filtersSummary(f: TimerFilters | null | undefined): string {
  if (!f) return 'all events';
  return (
    [
      f.window ? windowText(f.window) : null,
      f.place ? `within ${f.place.radius_km} km of ${f.place.name}` : null,
      f.attendance === 'in_person' ? 'in person' : f.attendance === 'online' ? 'online' : null,
      f.exclude.length ? `not: ${f.exclude.join(', ')}` : null,
    ]
      .filter(Boolean)
      .join(' · ') || 'all events'
  );
}

/** The same words on the page, a window's days breaking only at their dash. */
function FiltersSummary({ filters }: { filters: TimerFilters | null | undefined }) {
  if (!filters?.window) return <>{filtersSummary(filters)}</>;
  const rest = filtersSummary({ ...filters, window: null });
  return (
    <>
      <DateText text={windowText(filters.window)} />
      {rest === 'all events' ? null : ` · ${rest}`}
    </>
  );
}

/** A timer's filters in Manage Timers: which events its runs keep, changed and saved here (PATCH). */
export function TimerFiltersEditor({ timer, onUpdate }: TimerFiltersEditorProps) {
  const [draft, setDraft] = useState<FilterDraft>(draftOf(timer.filters));
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const outcome = await onUpdate(timer.id, { filters: filtersOf(draft) });
    setBusy(false);
    if (outcome.ok) {
      setDraft(draftOf(outcome.timer.filters));
      setMessage({ tone: 'success', text: 'Filters saved: the next run keeps only matching events.' });
    } else if (!outcome.gone) setMessage({ tone: 'error', text: outcome.message });
  }

  return (
    <form className="timer-filters-editor" onSubmit={save} aria-busy={busy}>
      <TimerFilterFields
        value={draft}
        open={false}
        summary={
          <>
            Filters: <FiltersSummary filters={timer.filters} />
          </>
        }
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
      >
        <button type="submit" className="button button--secondary button--small" disabled={busy}>
          {busy ? 'Saving...' : 'Save filters'}
        </button>
      </TimerFilterFields>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </form>
  );
}
