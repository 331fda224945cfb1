import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorText } from '../client/http';
import { saveTimer, type TimerDraft } from '../client/timers';
import { Alert } from './alert';
import type { DescribeReply } from '../../core/contract/describe';
import { draftOf, EMPTY_FILTER_DRAFT, type FilterDraft, filtersOf } from '../client/timer-filters';
import { DescribeTimer } from './describe-timer';
import { LazyFilterFields } from './lazy-filters';
import { ScheduleFields, timerSavedMessage } from './schedule-fields';
import { SetTimerHeading } from './set-timer-heading';

export interface SetTimerPanelProps {
  /** The question and website currently typed in the search form; the timer saves them. */
  ques: string;
  web: string;
  /** The search form's filters: a new timer starts with them. */
  filters?: FilterDraft;
  /** Cancel: close the panel. */
  onClose: () => void;
  /** Saved: close the panel and show this confirmation beside the timer buttons. */
  onSaved: (message: string) => void;
  /** A described timer's question and website, put into the search form's fields above. */
  onQuestion?: (ques: string, web: string) => void;
}

/** The spec's Set Timer panel. A failed save keeps the panel open with what was typed and says why. */
export function SetTimerPanel({ ques, web, filters: searchFilters, onClose, onSaved, onQuestion }: SetTimerPanelProps) {
  const id = useId();
  const [draft, setDraft] = useState<TimerDraft>({ scheduleType: 'daily', time: '09:00', weekday: 'Monday' });
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // A ref, not state: a double click lands before React re-renders the disabled button.
  const inFlight = useRef(false);
  const first = useRef<HTMLSelectElement>(null);
  const timeField = useRef<HTMLInputElement>(null);
  const describeField = useRef<HTMLInputElement>(null);
  const edit = (patch: Partial<TimerDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const [filters, setFilters] = useState<FilterDraft>(searchFilters ?? EMPTY_FILTER_DRAFT);
  const [filtersOpen, setFiltersOpen] = useState(searchFilters ? filtersOf(searchFilters) !== null : false);

  // A described timer fills the ordinary form from empty (nothing of an earlier sentence or of the form is
  // kept: a time or website the sentence does not say stays empty); the person checks it, from its first field.
  function described({ timer }: DescribeReply) {
    setDraft({ scheduleType: timer.scheduleType, time: timer.time ?? '', weekday: timer.weekday ?? 'Monday' });
    setFilters(draftOf(timer.filters));
    setFiltersOpen(filtersOf(draftOf(timer.filters)) !== null);
    onQuestion?.(timer.ques, timer.web);
    first.current?.focus();
  }

  // Opening the panel moves focus to its first field, "Describe it"; Cancel, Save and Escape hand it back to Set
  // Timer (EventSearch).
  useEffect(() => describeField.current?.focus(), []);

  function onKey(event: KeyboardEvent) {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      onClose();
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current) return;
    // A time field left empty (or half filled, which the browser reports as empty) is said in the field's terms,
    // whichever clock the browser shows.
    if (!draft.time) {
      setFailure('❌ Error saving timer: Please choose a time for the timer to run.');
      timeField.current?.focus();
      return;
    }
    inFlight.current = true;
    setSaving(true);
    setFailure(null);
    try {
      await saveTimer(draft, { ques, web }, filtersOf(filters));
      onSaved(timerSavedMessage(draft));
    } catch (err) {
      setFailure(`❌ Error saving timer: ${errorText(err)}`);
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  }

  return (
    <section className="subpanel timer-form" aria-labelledby={`${id}-title`} onKeyDown={onKey}>
      <SetTimerHeading titleId={`${id}-title`} />
      <DescribeTimer onDescribed={described} field={describeField} />
      <form onSubmit={save} aria-busy={saving}>
        <ScheduleFields id={id} draft={draft} edit={edit} first={first} time={timeField} />
        <LazyFilterFields value={filters} open={filtersOpen} onChange={(patch) => setFilters((f) => ({ ...f, ...patch }))} />
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <div className="actions">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving...' : 'Save Timer'}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
