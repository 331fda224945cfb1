import type { Event } from '../../core/contract/event';
import type { TimerRunReply } from '../../core/contract/event-replies';
import { isPast } from './event-date';

/** What a run found, split as the page shows it: new (still to come), changed, past, and unchanged. */
export interface RunCounts {
  /** New to the timer and still to come, then moved or cancelled since last seen, then new but already over. */
  shown: Event[];
  fresh: number;
  changed: number;
  unchanged: number;
}

/** A run's events sorted for the page: only what is news is listed; events seen before as they were are counted. */
export function runCounts(run: Pick<TimerRunReply, 'events' | 'changed_keys'>, now: number): RunCounts {
  const changedKeys = new Set(run.changed_keys);
  const fresh: Event[] = [];
  const changed: Event[] = [];
  const past: Event[] = [];
  let unchanged = 0;
  for (const e of run.events) {
    if (e.new && isPast(e, now)) past.push(e);
    else if (e.new) fresh.push(e);
    else if (changedKeys.has(e.key)) changed.push(e);
    else unchanged++;
  }
  return { shown: [...fresh, ...changed, ...past], fresh: fresh.length, changed: changed.length, unchanged };
}

/** "3 new · 1 changed", "2 changed", "1 new", or "nothing new": a changes-only run is not "0 new". */
export function runCountsText({ fresh, changed }: Pick<RunCounts, 'fresh' | 'changed'>): string {
  const parts = [fresh > 0 ? `${fresh} new` : null, changed > 0 ? `${changed} changed` : null].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'nothing new';
}
