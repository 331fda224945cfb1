import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { formatClock, formatMoment } from '../client/format-time';
import type { DeleteOutcome, ListedTimer, TimerSettingsPatch, UpdateOutcome } from '../client/timers';
import { Alert } from './alert';
import { AnswerText } from './answer-text';
import { TimerEditForm } from './timer-edit-form';

const STATUS_LABEL: Record<string, string> = {
  succeeded: 'Answered',
  failed: 'Failed',
  skipped: 'Skipped',
  running: 'Running',
};

export interface TimerRowProps {
  timer: ListedTimer;
  onDelete: (timerId: number) => Promise<DeleteOutcome>;
  /** Saves an edit of the timer in place (its question, website, schedule); without it there is no Edit. */
  onUpdate?: (timerId: number, patch: TimerSettingsPatch) => Promise<UpdateOutcome>;
  /**
   * More about this timer, shown in the row's details area under its latest result: the place for per-timer
   * controls (Run now and Pause first, then runs with their events, feeds, delivery settings). Delete comes
   * after all of them, the row's last control.
   */
  children?: ReactNode;
}

/** "Every day at 09:00" / "Every Friday at 6:30 PM", in the user's locale. */
export function scheduleLabel(timer: Pick<ListedTimer, 'scheduleType' | 'weekday' | 'time'>): string {
  return `${timer.scheduleType === 'weekly' ? `Every ${timer.weekday}` : 'Every day'} at ${formatClock(timer.time)}`;
}

/**
 * One timer: what it asks and when, when it runs next (or why it does not: paused), its latest result, further
 * details, and last Delete with a confirmation step (Escape keeps the timer).
 */
export function TimerRow({ timer, onDelete, onUpdate, children }: TimerRowProps) {
  const id = useId();
  const [step, setStep] = useState<'idle' | 'confirm' | 'deleting'>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const del = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);

  // Focus follows the step: into the question when it appears, back to Delete when the timer stays.
  useEffect(() => {
    if (step === 'confirm') keep.current?.focus();
    else if (step === 'idle' && asked.current) del.current?.focus();
    asked.current = step !== 'idle';
  }, [step]);

  function onConfirmKey(e: KeyboardEvent) {
    if (e.key === 'Escape' && step === 'confirm') {
      e.stopPropagation();
      setStep('idle');
    }
  }

  // Closing the form hands focus back to Edit, where the person opened it: after every render until Edit takes
  // it, since a saved timer's row renders again as the list refreshes (a disabled or replaced button cannot).
  const focusEdit = useRef(false);
  useEffect(() => {
    const button = editButton.current;
    if (!focusEdit.current || !button) return;
    button.focus();
    if (document.activeElement === button) focusEdit.current = false;
  });
  function editDone(message: string | null) {
    focusEdit.current = true;
    setEditing(false);
    setSaved(message);
  }

  async function confirmDelete() {
    setStep('deleting');
    setFailure(null);
    const outcome = await onDelete(timer.id);
    // A deleted (or already gone) timer leaves the list; this row unmounts.
    if (!outcome.ok && !outcome.gone) {
      setFailure(outcome.message);
      setStep('idle');
    }
  }

  return (
    // Focusable from script only: a link to this timer (see TimersPanel) lands here.
    <li className="timer-row" data-timer-id={timer.id} tabIndex={-1} aria-labelledby={`${id}-when ${id}-question`}>
      <div className="timer-row__main">
        <div className="timer-row__head">
          <strong className="timer-row__when" id={`${id}-when`}>
            {scheduleLabel(timer)}
          </strong>
          {step === 'idle' && onUpdate && !editing ? (
            <button
              ref={editButton}
              type="button"
              className="button button--secondary button--small"
              aria-describedby={`${id}-when ${id}-question`}
              onClick={() => {
                setSaved(null);
                setEditing(true);
              }}
            >
              Edit
            </button>
          ) : null}
        </div>
        <span className="timer-row__question" id={`${id}-question`}>
          {timer.ques}
        </span>
        {timer.web ? <span className="timer-row__meta timer-row__web">{timer.web}</span> : null}
        {timer.paused ? (
          <p className="timer-row__paused">
            <strong>Paused.</strong> {timer.paused_reason ?? 'You paused this timer; it does not run until you resume it.'}
          </p>
        ) : (
          <span className="timer-row__meta">
            Next run: <time dateTime={timer.nextRunAt}>{formatMoment(timer.nextRunAt, timer.timezone)}</time>
          </span>
        )}
      </div>
      {editing && onUpdate ? <TimerEditForm timer={timer} onUpdate={onUpdate} onDone={editDone} /> : null}
      {saved ? <Alert tone="success">{saved}</Alert> : null}
      <div className="timer-row__details">
        {timer.lastRun ? (
          <details className="timer-row__result">
            <summary>
              Latest result: {STATUS_LABEL[timer.lastRun.status] ?? timer.lastRun.status},{' '}
              <time dateTime={timer.lastRun.at}>{formatMoment(timer.lastRun.at)}</time>
            </summary>
            <p className="timer-row__answer">
              {timer.lastRun.answer === null ? (
                'No answer was stored for this run.'
              ) : (
                <AnswerText text={timer.lastRun.answer} corrections={timer.lastRun.answer_corrections} />
              )}
            </p>
          </details>
        ) : (
          <p className="timer-row__meta">No runs yet.</p>
        )}
        {children}
      </div>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="timer-row__actions">
        {step === 'idle' ? (
          <button
            ref={del}
            data-delete
            type="button"
            className="button button--danger button--small"
            aria-describedby={`${id}-when ${id}-question`}
            onClick={() => setStep('confirm')}
          >
            Delete
          </button>
        ) : (
          // Keep comes first, where Delete was: a double click on Delete lands on Keep, not on Yes, delete.
          <fieldset className="timer-row__confirm" disabled={step === 'deleting'} onKeyDown={onConfirmKey}>
            <legend>Delete this timer?</legend>
            <button ref={keep} type="button" className="button button--secondary button--small" onClick={() => setStep('idle')}>
              Keep
            </button>
            <button type="button" className="button button--danger button--small" onClick={() => void confirmDelete()}>
              {step === 'deleting' ? 'Deleting...' : 'Yes, delete'}
            </button>
          </fieldset>
        )}
      </div>
    </li>
  );
}
