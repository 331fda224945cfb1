import type { FeedUrls } from '../../core/contract/event-replies';
import type { TimerPauseProps } from './timer-pause-button';
import { TimerFeeds } from './timer-feeds';
import { TimerRuns } from './timer-runs';

export interface TimerExtrasProps {
  timerId: number;
  /** Open the run history at once: the timer a link asked for. */
  showRuns?: boolean;
  /** With showRuns: the run the link named, opened with its answer (null: the latest). */
  showRun?: number | null;
  urls: FeedUrls;
  timeZone: string;
  uidDomain?: string;
  onFeedsRenewed: () => void;
  /** A run started or ended: the row's own summary should be read again. */
  onRunsChanged: () => void;
  /** Pause/Resume, shown beside Run now. */
  pause: Omit<TimerPauseProps, 'onMessage'>;
}

/** A timer's main actions and runs with their events, and its feeds, under its row in Manage Timers. */
export default function TimerExtras({
  timerId,
  showRuns,
  showRun,
  urls,
  timeZone,
  uidDomain,
  onFeedsRenewed,
  onRunsChanged,
  pause,
}: TimerExtrasProps) {
  return (
    <>
      <TimerRuns
        timerId={timerId}
        show={showRuns}
        showRun={showRun}
        timeZone={timeZone}
        uidDomain={uidDomain}
        onRunsChanged={onRunsChanged}
        pause={pause}
      />
      <TimerFeeds timerId={timerId} urls={urls} onRotated={onFeedsRenewed} />
    </>
  );
}
