import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { TimerRunReply } from '../../core/contract/event-replies';
import { useBilling } from '../client/app-state';
import { refreshBilling } from '../client/billing';
import { runNowCost } from '../client/costs';
import { fetchTimerRuns, runTimerNow } from '../client/events';
import { RunList } from './run-list';
import { TimerPauseButton, type TimerPauseProps } from './timer-pause-button';

const POLL_MS = 2_000;

/**
 * A timer's main actions, Run now and Pause/Resume, with Show runs beside them, and its run history: the latest
 * run with "N new · M changed" and its cards, older runs one line each (./run-list.tsx).
 */
export function TimerRuns({
  timerId,
  show,
  showRun,
  timeZone,
  uidDomain,
  onRunsChanged,
  pause,
}: {
  timerId: number;
  show?: boolean;
  /** The run a link named, opened with its answer; null or absent: the latest. */
  showRun?: number | null;
  timeZone: string;
  uidDomain?: string;
  /** A run was started here or has ended: the timer's own summary ("Latest result") is out of date. */
  onRunsChanged?: () => void;
  /** The timer's pause state and how to change it; the outcome shows in this block's status line. */
  pause: Omit<TimerPauseProps, 'onMessage'>;
}) {
  const id = useId();
  const billing = useBilling();
  const [open, setOpen] = useState(false);
  const [runs, setRuns] = useState<TimerRunReply[] | null>(null);
  const [message, setMessage] = useState('');
  const [starting, setStarting] = useState(false);

  const load = useCallback(async () => {
    const list = await fetchTimerRuns(timerId);
    setRuns(list);
    return list;
  }, [timerId]);

  // While a run is going, look again every few seconds until it has ended.
  const running = runs?.some((r) => r.status === 'running') ?? false;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) {
      onRunsChanged?.();
      // The run took a search (or gave it back): the credits badge follows.
      void refreshBilling();
    }
    wasRunning.current = running;
  }, [running, onRunsChanged]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new list re-arms the poll while a run is still going
  useEffect(() => {
    if (!running) return;
    const handle = setTimeout(() => void load().catch(() => {}), POLL_MS);
    return () => clearTimeout(handle);
  }, [running, runs, load]);

  async function runNow() {
    setStarting(true);
    setMessage('');
    try {
      await runTimerNow(timerId);
      // The button says "Running…" until the run has ended and shows up in the list.
      setOpen(true);
      const list = await load();
      onRunsChanged?.();
      // A run that ended before the list was read never shows as running here, so the badge follows now.
      if (!list.some((r) => r.status === 'running')) void refreshBilling();
    } catch (err) {
      setMessage((err as Error).message);
    } finally {
      setStarting(false);
    }
  }

  async function toggle(next: boolean) {
    setOpen(next);
    if (next && runs === null) await load().catch((err: Error) => setMessage(`Could not load the runs: ${err.message}`));
  }

  // The timer a link asked for opens with its runs, as if "Show runs" had been pressed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new request to show opens the runs again
  useEffect(() => {
    if (show) void toggle(true);
  }, [show]);

  return (
    <div className="timer-runs">
      <div className="timer-runs__actions">
        <button
          type="button"
          className="button button--small"
          disabled={starting || running}
          aria-describedby={`${id}-cost`}
          onClick={() => void runNow()}
        >
          {running ? 'Running…' : 'Run now'}
        </button>
        <TimerPauseButton {...pause} onMessage={setMessage} />
        <button type="button" className="button button--secondary button--small" aria-expanded={open} onClick={() => void toggle(!open)}>
          {open ? 'Hide runs' : 'Show runs'}
        </button>
      </div>
      {/* What Run now spends, said before it is pressed. */}
      <p className="timer-runs__cost" id={`${id}-cost`}>
        {runNowCost(billing)}
      </p>
      <p className="timer-runs__message" role="status">
        {message}
      </p>
      {open && runs !== null ? (
        <RunList
          runs={runs}
          timerId={timerId}
          timeZone={timeZone}
          uidDomain={uidDomain}
          answerOpen={show}
          linkedRun={show ? showRun : null}
        />
      ) : null}
    </div>
  );
}
