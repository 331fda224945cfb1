import type { ScheduleType, Weekday } from '../../core/contract/schedule-values';
import type { ListedTimer } from '../../core/contract/timers';
import type { TimerFilters } from '../../core/contract/timer-filters';
import { apiFetch, errorText, postJson } from './http';
import { readReply, replyJson, shapeOf } from './replies';
import { browserTimezone } from './timezone';

export type { ListedTimer };

/** What the Set Timer panel holds while the user types. */
export interface TimerDraft {
  scheduleType: ScheduleType;
  time: string;
  weekday: Weekday;
}

/** GET /api/timers; throws with the spec's 'Failed to fetch timers' on a non-ok reply. */
export async function fetchTimers(): Promise<ListedTimer[]> {
  const res = await apiFetch('/api/timers');
  if (!res.ok) throw new Error('Failed to fetch timers');
  return readReply(res, (s) => s.timersReplySchema);
}

/** POST /api/schedule with the browser's time zone; the new timer's id. Throws 'Backend error: ' plus the server text. */
export async function saveTimer(
  draft: TimerDraft,
  question: { ques: string; web: string },
  filters?: TimerFilters | null,
): Promise<number | null> {
  const res = await postJson('/api/schedule', { ...draft, ...question, timezone: browserTimezone(), ...(filters ? { filters } : {}) });
  if (!res.ok) throw new Error(`Backend error: ${await res.text()}`);
  const saved = (await res.json().catch(() => null)) as { id?: unknown } | null;
  return typeof saved?.id === 'number' ? saved.id : null;
}

export type DeleteOutcome = { ok: true } | { ok: false; gone: true } | { ok: false; gone: false; message: string };

/** POST /api/timer/delete. `gone`: the timer no longer exists (deleted in another tab, for one). */
export async function deleteTimer(timerId: number): Promise<DeleteOutcome> {
  try {
    const res = await postJson('/api/timer/delete', { timer_id: timerId });
    const { json, schemas } = await replyJson(res);
    const data = shapeOf(schemas.statusReplySchema, json);
    if (data?.status === 'success') return { ok: true };
    if (res.status === 404) return { ok: false, gone: true };
    return { ok: false, gone: false, message: `Failed to delete timer: ${data?.message ?? `the server answered ${res.status}`}` };
  } catch (err) {
    console.warn('Timer delete failed:', errorText(err));
    return { ok: false, gone: false, message: 'Error deleting timer' };
  }
}

export interface TimerSettingsPatch {
  /** What the timer asks and when (POST /api/schedule's fields): edited in place. */
  scheduleType?: ScheduleType;
  time?: string;
  weekday?: Weekday | null;
  ques?: string;
  web?: string;
  paused?: boolean;
  email?: boolean;
  webhook_url?: string | null;
  filters?: TimerFilters | null;
  /** Deliver only events checked on their page (docs/decisions/checked-events.md). */
  checked_only?: boolean;
}

/** `webhookSecret`: a new webhook address's signing secret, in this reply only (docs/decisions/delivery.md). */
export type UpdateOutcome = { ok: true; timer: ListedTimer; webhookSecret?: string } | { ok: false; gone: boolean; message: string };

/** PATCH /api/timers/:id; `message` is the server's sentence (a refused webhook address, for one). */
export async function updateTimerSettings(timerId: number, patch: TimerSettingsPatch): Promise<UpdateOutcome> {
  try {
    const res = await apiFetch(`/api/timers/${timerId}`, { method: 'PATCH', body: JSON.stringify(patch) });
    const { json, schemas } = await replyJson(res);
    const timer = res.ok ? shapeOf(schemas.listedTimerSchema, json) : null;
    const secret = (json as { webhook_secret?: unknown } | null)?.webhook_secret;
    if (timer) return typeof secret === 'string' ? { ok: true, timer, webhookSecret: secret } : { ok: true, timer };
    const error = shapeOf(schemas.errorReplySchema, json)?.error;
    return { ok: false, gone: res.status === 404, message: error ?? `The change was not saved (the server answered ${res.status}).` };
  } catch (err) {
    console.warn('Timer settings not saved:', errorText(err));
    return { ok: false, gone: false, message: 'The change was not saved: the server could not be reached. Please try again.' };
  }
}
