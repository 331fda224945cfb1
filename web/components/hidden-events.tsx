import { useEffect, useId, useState } from 'react';
import type { Event } from '../../core/contract/event';
import { LazyEventList } from './lazy-event-list';

export interface HiddenEventsProps {
  /** The events the filters left out. */
  hidden: Event[];
  /** The answer's text: the model is asked to respect the filters, but may still name an event they remove. */
  answer: string;
  timeZone: string;
  uidDomain?: string;
  /** One line per event without a heading, as a run's own events are listed. */
  compact?: boolean;
  /**
   * Where the answer is, as the sentence names it: 'above' (the Response area over these events), or 'run'
   * (a timer run's answer, folded in the run's line above).
   */
  answerPlace?: 'above' | 'run';
}

const events = (n: number) => `${n} ${n === 1 ? 'event' : 'events'}`;

/** How many hidden events the answer names by their title (its own words are what the events were read from). */
export function namedInAnswer(hidden: Event[], answer: string): number {
  const text = answer.toLocaleLowerCase();
  return hidden.filter((e) => e.title.trim().length > 0 && text.includes(e.title.trim().toLocaleLowerCase())).length;
}

/**
 * ' The answer above still names it.' / '… all of them.' / '… 2 of them.', a run's answer named where it opens;
 * empty when it names none.
 */
function namedText(named: number, hidden: number, place: 'above' | 'run'): string {
  if (named === 0) return '';
  const which = hidden === 1 ? 'it' : named === hidden ? 'all of them' : `${named} of them`;
  return place === 'run'
    ? ` The run's answer still names ${which}: open the run's line above to read it.`
    : ` The answer above still names ${which}.`;
}

/**
 * Under a filtered answer's events: "3 events hidden by your filters", a button that shows them, and, when the
 * answer itself names some of them, a sentence saying so (so the answer and its events do not seem to disagree).
 */
export function HiddenEvents({ hidden, answer, timeZone, uidDomain, compact, answerPlace = 'above' }: HiddenEventsProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  // A new answer starts closed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new set of hidden events closes the list
  useEffect(() => setOpen(false), [hidden]);
  if (hidden.length === 0) return null;
  const named = namedInAnswer(hidden, answer);
  return (
    <div className="hidden-events">
      <p className="hidden-events__line">
        <span>
          {events(hidden.length)} hidden by your filters.
          {namedText(named, hidden.length, answerPlace)}
        </span>
        <button
          type="button"
          className="button button--secondary button--small"
          aria-expanded={open}
          aria-controls={`${id}-list`}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide them' : 'Show them'}
        </button>
      </p>
      <div id={`${id}-list`} hidden={!open}>
        {open ? (
          <LazyEventList events={hidden} timeZone={timeZone} title="Hidden by your filters" uidDomain={uidDomain} bare={compact} />
        ) : null}
      </div>
    </div>
  );
}
