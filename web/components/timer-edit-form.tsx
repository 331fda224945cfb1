import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ListedTimer, TimerDraft, TimerSettingsPatch, UpdateOutcome } from '../client/timers';
import { Alert } from './alert';
import { ScheduleFields, timerSavedMessage } from './schedule-fields';

export interface TimerEditFormProps {
  timer: ListedTimer;
  onUpdate: (timerId: number, patch: TimerSettingsPatch) => Promise<UpdateOutcome>;
  /** Saved (with the confirmation to show) or cancelled (null): close the form. */
  onDone: (message: string | null) => void;
}

/**
 * A timer's Set Timer fields and its question and website, filled with what it has, saved in place (PATCH):
 * the timer keeps its runs, feeds and calendar subscribers. Its time zone stays the one it was made in. A
 * failed save keeps what was typed and says why; Escape cancels.
 */
export function TimerEditForm({ timer, onUpdate, onDone }: TimerEditFormProps) {
  const id = useId();
  const [draft, setDraft] = useState<TimerDraft>({
    scheduleType: timer.scheduleType,
    time: timer.time,
    weekday: timer.weekday ?? 'Monday',
  });
  const [ques, setQues] = useState(timer.ques);
  const [web, setWeb] = useState(timer.web);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const first = useRef<HTMLSelectElement>(null);
  const edit = (patch: Partial<TimerDraft>) => setDraft((d) => ({ ...d, ...patch }));

  useEffect(() => first.current?.focus(), []);

  function onKey(event: KeyboardEvent) {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.preventDefault();
      onDone(null);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setFailure(null);
    const outcome = await onUpdate(timer.id, {
      scheduleType: draft.scheduleType,
      time: draft.time,
      weekday: draft.scheduleType === 'weekly' ? draft.weekday : null,
      ques,
      web,
    });
    setSaving(false);
    if (outcome.ok) {
      onDone(timerSavedMessage(draft));
    } else if (!outcome.gone) setFailure(`❌ Error saving timer: ${outcome.message}`);
  }

  return (
    <form className="timer-edit" onSubmit={save} onKeyDown={onKey} aria-busy={saving} aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className="timer-edit__title">
        Edit timer
      </h4>
      <ScheduleFields id={id} draft={draft} edit={edit} first={first} timeRequired />
      <div className="field">
        <label htmlFor={`${id}-ques`}>Your Question</label>
        <input id={`${id}-ques`} type="text" value={ques} onChange={(e) => setQues(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-web`}>Website URL</label>
        <input id={`${id}-web`} type="text" inputMode="url" value={web} onChange={(e) => setWeb(e.target.value)} />
      </div>
      <p className="field__hint">Times are in {timer.timezone}. Runs, feeds and calendar subscriptions stay as they are.</p>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="actions">
        <button type="submit" className="button button--small" disabled={saving}>
          {saving ? 'Saving...' : 'Save changes'}
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
