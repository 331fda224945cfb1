import type { FoundEvent } from '../contract/event';

/**
 * The most events one search keeps (shown and hidden together): far above what an answer names (a few dozen),
 * while a calendar read whole can give thousands of occurrences, which every read of the search would carry.
 */
export const STORED_EVENTS_PER_SEARCH = 500;

export interface KeptEvents {
  shown: FoundEvent[];
  hidden: FoundEvent[];
  /** How many were found beyond the bound and are not kept. */
  leftOut: number;
}

/**
 * The events a search keeps when it found more than STORED_EVENTS_PER_SEARCH: those the filters kept before
 * those they hid; among each, the events the answer itself gave (checked against a page, or not checked at all)
 * before a website's own, then the nearest in time (upcoming soonest first, then the latest past). Each list keeps
 * the order it was found in, so a search under the bound is kept as it is.
 */
export function keptEvents(shown: FoundEvent[], hidden: FoundEvent[], now: Date, most = STORED_EVENTS_PER_SEARCH): KeptEvents {
  const total = shown.length + hidden.length;
  if (total <= most) return { shown, hidden, leftOut: 0 };
  const keptShown = nearest(shown, now, most);
  const keptHidden = nearest(hidden, now, most - keptShown.length);
  return { shown: keptShown, hidden: keptHidden, leftOut: total - keptShown.length - keptHidden.length };
}

function nearest(events: FoundEvent[], now: Date, most: number): FoundEvent[] {
  if (events.length <= most) return events;
  if (most <= 0) return [];
  const at = now.getTime();
  const rank = events.map((e, i) => {
    const fromWebsite = e.verification?.status === 'source' ? 1 : 0;
    const start = e.starts_at ? Date.parse(e.starts_at) : Number.NaN;
    const end = e.ends_at ? Date.parse(e.ends_at) : start;
    // Upcoming (or under way) events by how soon they start, then past ones by how recently they ended; no date last.
    const distance = Number.isNaN(start) ? Number.POSITIVE_INFINITY : end >= at ? Math.max(0, start - at) : 1e15 + (at - end);
    return { i, fromWebsite, distance };
  });
  rank.sort((a, b) => a.fromWebsite - b.fromWebsite || a.distance - b.distance || a.i - b.i);
  const keep = new Set(rank.slice(0, most).map((r) => r.i));
  return events.filter((_, i) => keep.has(i));
}
