import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../client/http';
import {
  deleteTimer,
  fetchTimers,
  type DeleteOutcome,
  type ListedTimer,
  type TimerSettingsPatch,
  type UpdateOutcome,
  updateTimerSettings,
} from '../client/timers';

const RUNNING_POLL_MS = 5_000;
// A run usually finishes within seconds of its fire.
const AFTER_FIRE_MS = 10_000;
// setTimeout's longest delay is about 24.8 days; a weekly timer is well inside it, but stay safe.
const MAX_WAIT_MS = 2 ** 31 - 1;

export interface TimerList {
  /** null until the first load has answered. */
  timers: ListedTimer[] | null;
  /** The spec's '❌ Error fetching timers: ...' when the last load the user waits for failed. */
  error: string | null;
  reload: () => Promise<void>;
  /** Reads the list again without replacing it by an error if that fails (nobody asked for it). */
  refresh: () => Promise<void>;
  remove: (timerId: number) => Promise<DeleteOutcome>;
  /** Pause/resume, email on/off, webhook address; the list shows the timer as the server replied. */
  update: (timerId: number, patch: TimerSettingsPatch) => Promise<UpdateOutcome>;
}

/**
 * The signed-in user's timers while Manage Timers is open: loaded on open, reloaded after a delete, shortly
 * after the next fire (so a run's result shows up), while a run is going, and when the tab is shown again.
 */
export function useTimerList(): TimerList {
  const [timers, setTimers] = useState<ListedTimer[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  // `quiet` is for reloads nobody asked for: a failure there keeps the list on screen as it is and waits for
  // the next try, instead of replacing it with an error.
  const load = useCallback(async (quiet: boolean) => {
    try {
      setTimers(await fetchTimers());
      setError(null);
    } catch (err) {
      if (!quiet) setError(`❌ Error fetching timers: ${errorText(err)}`);
    }
  }, []);

  useEffect(() => {
    void load(false);
  }, [load]);

  useEffect(() => {
    if (!timers?.length) return;
    const running = timers.some((t) => t.lastRun?.status === 'running');
    const soonest = Math.min(...timers.map((t) => Date.parse(t.nextRunAt)));
    const wait = running ? RUNNING_POLL_MS : Math.min(Math.max(soonest - Date.now() + AFTER_FIRE_MS, RUNNING_POLL_MS), MAX_WAIT_MS);
    const handle = setTimeout(() => void load(true), wait);
    return () => clearTimeout(handle);
  }, [timers, load]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load(true);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [load]);

  const remove = useCallback(
    async (timerId: number) => {
      const outcome = await deleteTimer(timerId);
      // Deleted here or already gone elsewhere: either way the list should no longer show it.
      if (outcome.ok || outcome.gone) {
        setTimers((list) => list?.filter((t) => t.id !== timerId) ?? null);
        await load(true);
      }
      return outcome;
    },
    [load],
  );

  const update = useCallback(
    async (timerId: number, patch: TimerSettingsPatch) => {
      const outcome = await updateTimerSettings(timerId, patch);
      if (outcome.ok) setTimers((list) => list?.map((t) => (t.id === timerId ? outcome.timer : t)) ?? null);
      else if (outcome.gone) await load(true);
      return outcome;
    },
    [load],
  );

  const reload = useCallback(() => load(false), [load]);
  const refresh = useCallback(() => load(true), [load]);
  return { timers, error, reload, refresh, remove, update };
}
