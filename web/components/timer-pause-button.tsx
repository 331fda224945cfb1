import { useState } from 'react';
import type { UpdateOutcome } from '../client/timers';

export interface TimerPauseProps {
  paused: boolean;
  /** PATCH the timer's `paused`; the list shows the timer as the server replied. */
  onChange: (paused: boolean) => Promise<UpdateOutcome>;
  /** What happened, for the row's status line. */
  onMessage: (text: string) => void;
}

/** Pause or Resume, one of a timer's main actions beside Run now; Resume is the prominent one while paused. */
export function TimerPauseButton({ paused, onChange, onMessage }: TimerPauseProps) {
  const [busy, setBusy] = useState(false);

  async function toggle() {
    setBusy(true);
    onMessage('');
    const outcome = await onChange(!paused);
    setBusy(false);
    if (outcome.ok) onMessage(paused ? 'Timer resumed.' : 'Timer paused: it will not run until you resume it.');
    else if (!outcome.gone) onMessage(outcome.message);
  }

  return (
    <button
      type="button"
      className={`button button--small${paused ? '' : ' button--secondary'}`}
      disabled={busy}
      onClick={() => void toggle()}
    >
      {paused ? 'Resume' : 'Pause timer'}
    </button>
  );
}
