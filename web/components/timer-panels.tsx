import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { apiFetch, postJson } from '../client/http';

/**
 * The Set Timer and Manage Timers panels (spec section 2). EventSearch owns which panel is open; these
 * components own their requests. Messages for the Response area go out through callbacks.
 */
export interface SetTimerPanelProps {
  /** The question and website currently typed in the search form; the timer saves them. */
  ques: string;
  web: string;
  /** Cancel: close the panel. */
  onClose: () => void;
  /** Save finished (success or failure): close the panel and show this text in the Response area. */
  onResult: (message: string) => void;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** The browser's IANA time zone name: timers fire at the user's local wall-clock time. */
function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function SetTimerPanel({ ques, web, onClose, onResult }: SetTimerPanelProps) {
  const id = useId();
  const [scheduleType, setScheduleType] = useState<'daily' | 'weekly'>('daily');
  const [time, setTime] = useState('09:00');
  const [weekday, setWeekday] = useState<string>('Monday');
  const [saving, setSaving] = useState(false);
  // A ref, not state: a double click lands before React re-renders the disabled button.
  const inFlight = useRef(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setSaving(true);
    try {
      const res = await postJson('/api/schedule', { scheduleType, time, weekday, ques, web, timezone: browserTimezone() });
      if (!res.ok) throw new Error(`Backend error: ${await res.text()}`);
      onResult(`✅ Timer saved: ${scheduleType} at ${time}${scheduleType === 'weekly' ? ` on ${weekday}` : ''}`);
    } catch (err) {
      onResult(`❌ Error saving timer: ${errorText(err)}`);
    } finally {
      inFlight.current = false;
      setSaving(false);
    }
  }

  return (
    <section className="panel timer-form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Set Timer</h3>
      <p className="field__hint">Repeats the question and website above at your local time ({browserTimezoneLabel()}).</p>
      <form onSubmit={save} aria-busy={saving}>
        <div className="timer-form__fields">
          <div className="field">
            <label htmlFor={`${id}-type`}>Schedule Type</label>
            <select id={`${id}-type`} value={scheduleType} onChange={(e) => setScheduleType(e.target.value as 'daily' | 'weekly')}>
              <option value="daily">Every Day</option>
              <option value="weekly">Every Week</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-time`}>Time</label>
            <input id={`${id}-time`} type="time" value={time} onChange={(e) => setTime(e.target.value)} />
          </div>
          {scheduleType === 'weekly' ? (
            <div className="field">
              <label htmlFor={`${id}-weekday`}>Day of Week</label>
              <select id={`${id}-weekday`} value={weekday} onChange={(e) => setWeekday(e.target.value)}>
                {WEEKDAYS.map((day) => (
                  <option key={day} value={day}>
                    {day}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
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

// Rendered only in the browser (the panel opens on click), so the zone never differs from the server's.
function browserTimezoneLabel(): string {
  return browserTimezone().replace(/_/g, ' ');
}

export interface TimersPanelProps {
  /** Back: hide the list. */
  onBack: () => void;
  /** A fetch failure to show in the Response area ('❌ Error fetching timers: ...'). */
  onError: (message: string) => void;
}

/** GET /api/timers item: the spec's fields plus the next fire and the latest run. */
interface ListedTimer {
  id: number;
  scheduleType: 'daily' | 'weekly';
  time: string;
  weekday: string | null;
  ques: string;
  web: string;
  timezone: string;
  nextRunAt: string;
  lastRun: { at: string; status: string; answer: string | null } | null;
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

const STATUS_LABEL: Record<string, string> = {
  succeeded: 'Answered',
  failed: 'Failed',
  skipped: 'Skipped',
  running: 'Running',
};

const RUNNING_POLL_MS = 5_000;
// A run usually finishes within seconds of its fire.
const AFTER_FIRE_MS = 10_000;
// setTimeout's longest delay is about 24.8 days; a weekly timer is well inside it, but stay safe.
const MAX_WAIT_MS = 2 ** 31 - 1;

export function TimersPanel({ onBack, onError }: TimersPanelProps) {
  const id = useId();
  const [timers, setTimers] = useState<ListedTimer[] | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const section = useRef<HTMLElement>(null);
  // After a delete the focused button is gone: focus moves to the next Delete button, or to Back.
  const refocusAt = useRef<number | null>(null);

  useEffect(() => {
    const index = refocusAt.current;
    if (index === null || !section.current) return;
    refocusAt.current = null;
    const deletes = section.current.querySelectorAll<HTMLButtonElement>('.timer-item .button');
    const target = deletes[Math.min(index, deletes.length - 1)] ?? section.current.querySelector<HTMLButtonElement>('[data-back]');
    target?.focus();
  }, [timers]);

  // `quiet` is for reloads nobody asked for (after a fire, the tab shown again): a failure there leaves the
  // list on screen as it is and waits for the next try instead of replacing the Response text.
  const load = useCallback(
    async (quiet = false) => {
      try {
        const res = await apiFetch('/api/timers');
        if (!res.ok) throw new Error('Failed to fetch timers');
        setTimers((await res.json()) as ListedTimer[]);
      } catch (err) {
        if (!quiet) onError(`❌ Error fetching timers: ${errorText(err)}`);
      }
    },
    [onError],
  );

  useEffect(() => {
    void load();
    // Load once when the panel opens; later loads follow deletes, fires and the tab coming back into view.
  }, []);

  // The worker's result shows up while the panel stays open.
  const refresh = useCallback(() => load(true), [load]);

  useEffect(() => {
    if (!timers?.length) return;
    // Look again shortly after the next fire, and every few seconds while a run is still going.
    const running = timers.some((t) => t.lastRun?.status === 'running');
    const soonest = Math.min(...timers.map((t) => Date.parse(t.nextRunAt)));
    const wait = running ? RUNNING_POLL_MS : Math.min(Math.max(soonest - Date.now() + AFTER_FIRE_MS, RUNNING_POLL_MS), MAX_WAIT_MS);
    const handle = setTimeout(() => void refresh(), wait);
    return () => clearTimeout(handle);
  }, [timers, refresh]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [refresh]);

  async function remove(timerId: number) {
    if (deleting !== null) return;
    setDeleting(timerId);
    try {
      const res = await postJson('/api/timer/delete', { timer_id: timerId });
      const data = (await res.json().catch(() => ({}))) as { status?: string; message?: string };
      if (data.status === 'success') {
        const focusWasHere = section.current?.contains(document.activeElement) || document.activeElement === document.body;
        if (focusWasHere) refocusAt.current = timers?.findIndex((t) => t.id === timerId) ?? 0;
        await load();
      } else alert(`Failed to delete timer: ${data.message ?? `the server answered ${res.status}`}`);
    } catch {
      alert('Error deleting timer');
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section ref={section} className="panel timers" aria-labelledby={`${id}-title`} aria-busy={timers === null}>
      <h3 id={`${id}-title`}>Your Timers</h3>
      {timers === null ? (
        <p className="timers__loading">Loading timers…</p>
      ) : timers.length === 0 ? (
        <p>No timers found.</p>
      ) : (
        <ul className="timer-list">
          {timers.map((t) => (
            <li key={t.id} className="timer-item">
              <div className="timer-item__head">
                <strong id={`${id}-timer-${t.id}`}>
                  {t.scheduleType === 'weekly' ? `Every ${t.weekday}` : 'Every day'} at {t.time}
                </strong>
                <button
                  type="button"
                  className="button button--danger button--small"
                  aria-describedby={`${id}-timer-${t.id} ${id}-question-${t.id}`}
                  disabled={deleting === t.id}
                  onClick={() => void remove(t.id)}
                >
                  Delete
                </button>
              </div>
              <div className="timer-item__question" id={`${id}-question-${t.id}`}>
                {t.ques}
              </div>
              <div className="timer-item__meta">
                {t.web ? <span className="timer-item__web">{t.web}</span> : null}
                <span>
                  {t.timezone.replace(/_/g, ' ')} · Next run: <time dateTime={t.nextRunAt}>{when(t.nextRunAt)}</time>
                </span>
              </div>
              {t.lastRun ? (
                <details className="timer-item__result">
                  <summary>
                    Latest result: {STATUS_LABEL[t.lastRun.status] ?? t.lastRun.status},{' '}
                    <time dateTime={t.lastRun.at}>{when(t.lastRun.at)}</time>
                  </summary>
                  <pre>{t.lastRun.answer ?? 'No answer was stored for this run.'}</pre>
                </details>
              ) : (
                <div className="timer-item__meta">No runs yet.</div>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="actions">
        <button type="button" className="button button--secondary" data-back onClick={onBack}>
          Back
        </button>
      </div>
    </section>
  );
}
