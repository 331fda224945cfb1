import { browserTimezone } from '../client/timezone';

/**
 * The Set Timer panel's title and zone line: the panel's own, and what shows in its place while it loads
 * (./lazy-set-timer.tsx), so its first lines stand where the panel's will and nothing moves when it arrives.
 */
export function SetTimerHeading({ titleId }: { titleId: string }) {
  return (
    <>
      <h3 id={titleId}>Set Timer</h3>
      <p className="field__hint">Repeats the question and website above at your local time ({browserTimezone().replace(/_/g, ' ')}).</p>
    </>
  );
}
