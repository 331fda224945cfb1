import type { FoundEvent } from '../contract/event';

/*
 * A series its source gives as one rule (an event with `rrule`, docs/decisions/events-as-data.md) is stored as its
 * occurrences, each with its own key (a timer remembers each), but shown as one card and exported as one calendar
 * entry with the rule. Pure and browser-safe: the page, the feeds and the messages collapse it the same way.
 */

/** The series an occurrence belongs to ('series:uid:…' without its '@<start>'), or null for a one-off. */
export function seriesIdentity(e: Pick<FoundEvent, 'key' | 'rrule'>): string | null {
  if (!e.rrule || !e.key.startsWith('series:')) return null;
  const at = e.key.lastIndexOf('@');
  return at > 0 ? e.key.slice(0, at) : null;
}

/**
 * `items` with each exported series as one item, at its first occurrence's place: its first occurrence not over
 * at `now` (the one a card names), else its last; or, with `now` null, its earliest (a calendar entry's start,
 * so that the occurrences a calendar already shows stay in it). Other items unchanged.
 */
export function oneItemPerSeries<T>(
  items: T[],
  eventOf: (item: T) => Pick<FoundEvent, 'key' | 'rrule' | 'starts_at' | 'ends_at'>,
  now: Date | null,
): T[] {
  const chosen = new Map<string, T>();
  for (const item of items) {
    const e = eventOf(item);
    const series = seriesIdentity(e);
    if (series === null) continue;
    const held = chosen.get(series);
    if (held === undefined || better(e, eventOf(held), now)) chosen.set(series, item);
  }
  const placed = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const series = seriesIdentity(eventOf(item));
    if (series === null) out.push(item);
    else if (!placed.has(series)) {
      placed.add(series);
      out.push(chosen.get(series)!);
    }
  }
  return out;
}

/** One card per exported series (oneItemPerSeries over events). */
export const oneCardPerSeries = <E extends Pick<FoundEvent, 'key' | 'rrule' | 'starts_at' | 'ends_at'>>(events: E[], now: Date): E[] =>
  oneItemPerSeries(events, (e) => e, now);

const startMs = (e: Pick<FoundEvent, 'starts_at'>) => (e.starts_at ? Date.parse(e.starts_at) : Number.NaN);
const isOver = (e: Pick<FoundEvent, 'starts_at' | 'ends_at'>, now: Date) => {
  const end = e.ends_at ? Date.parse(e.ends_at) : startMs(e);
  return end < now.getTime();
};

/** Whether `a` stands for its series better than `b`: the earliest without `now`; else one not over, the soonest, or the last that is over. */
function better(a: Pick<FoundEvent, 'starts_at' | 'ends_at'>, b: Pick<FoundEvent, 'starts_at' | 'ends_at'>, now: Date | null): boolean {
  if (now === null) return startMs(a) < startMs(b);
  const [aOver, bOver] = [isOver(a, now), isOver(b, now)];
  if (aOver !== bOver) return !aOver;
  return aOver ? startMs(a) > startMs(b) : startMs(a) < startMs(b);
}
