import { apiFetch, errorText, postJson } from './http';
import { browserTimezone } from './timezone';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** GET /api/timers item: the spec's fields plus the next fire and the latest run. */
export interface ListedTimer {
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

export interface TimerDraft {
  scheduleType: 'daily' | 'weekly';
  time: string;
  weekday: string;
}

/** GET /api/timers; throws with the spec's 'Failed to fetch timers' on a non-ok reply. */
export async function fetchTimers(): Promise<ListedTimer[]> {
  const res = await apiFetch('/api/timers');
  if (!res.ok) throw new Error('Failed to fetch timers');
  return (await res.json()) as ListedTimer[];
}

/** POST /api/schedule with the browser's time zone; throws 'Backend error: ' plus the server text. */
export async function saveTimer(draft: TimerDraft, question: { ques: string; web: string }): Promise<void> {
  const res = await postJson('/api/schedule', { ...draft, ...question, timezone: browserTimezone() });
  if (!res.ok) throw new Error(`Backend error: ${await res.text()}`);
}

export type DeleteOutcome = { ok: true } | { ok: false; gone: true } | { ok: false; gone: false; message: string };

/** POST /api/timer/delete. `gone`: the timer no longer exists (deleted in another tab, for one). */
export async function deleteTimer(timerId: number): Promise<DeleteOutcome> {
  try {
    const res = await postJson('/api/timer/delete', { timer_id: timerId });
    const data = (await res.json().catch(() => ({}))) as { status?: string; message?: string };
    if (data.status === 'success') return { ok: true };
    if (res.status === 404) return { ok: false, gone: true };
    return { ok: false, gone: false, message: `Failed to delete timer: ${data.message ?? `the server answered ${res.status}`}` };
  } catch (err) {
    console.warn('Timer delete failed:', errorText(err));
    return { ok: false, gone: false, message: 'Error deleting timer' };
  }
}
