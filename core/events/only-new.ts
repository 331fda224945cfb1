import type { Event } from '../contract/event';
import { normaliseCity, normaliseTitle } from './event-key';
import { sameStart } from './event-time';
import type { FoundEvent } from '../contract/event';

/** What a timer remembers of an event it has seen: its latest version and how often it changed. */
export interface SeenEvent {
  key: string;
  event: FoundEvent;
  sequence: number;
}

export interface ClassifiedEvent {
  event: Event;
  /** Moved, cancelled or reinstated since the timer last saw it. */
  changed: boolean;
  /** The version the timer should remember, and whether its feed entry must be re-sent (SEQUENCE + 1). */
  remember: { event: FoundEvent; sequence: number; bumped: boolean };
}

const sameName = (a: FoundEvent, b: FoundEvent) =>
  normaliseTitle(a.title) === normaliseTitle(b.title) && (!a.city || !b.city || normaliseCity(a.city) === normaliseCity(b.city));

// Fields whose change a subscribed calendar must see.
const FEED_FIELDS = ['title', 'starts_at', 'ends_at', 'all_day', 'venue', 'city', 'online', 'url', 'status'] as const;

/**
 * Marks each found event new, changed or neither against what the timer saw before. An event found under a
 * key it never saw, whose title (and city) matches a seen event that is still upcoming yet missing from this
 * run, is that event moved to another date (its key holds the old date), not a new one: it keeps the old key
 * so calendars update the entry they have. A past event of the same name (a monthly meetup) does not match.
 * An occurrence a series excludes or cancels that the timer never saw is left out (docs/decisions/events-as-data.md): a date that was
 * never announced is neither new nor in feeds; one seen before and then excluded is a change, cancelled.
 */
export function classifyEvents(all: FoundEvent[], seen: Map<string, SeenEvent>, now: Date): ClassifiedEvent[] {
  const found = all.filter((e) => !neverAnnounced(e, seen));
  const present = new Set(found.map((e) => e.key));
  const movable = [...seen.values()].filter((s) => !present.has(s.key) && isUpcoming(s.event, now));
  const taken = new Set<string>();
  return found.map((e) => {
    let before = seen.get(e.key);
    let event = e;
    if (!before) {
      const moved = movable.find((s) => !taken.has(s.key) && sameName(s.event, e) && !sameStart(s.event.starts_at, e.starts_at));
      if (moved) {
        taken.add(moved.key);
        before = moved;
        event = { ...e, key: moved.key };
      }
    }
    if (!before) return { event: { ...event, new: true }, changed: false, remember: { event, sequence: 0, bumped: false } };
    const startMoved = before.event.starts_at !== null && event.starts_at !== null && !sameStart(before.event.starts_at, event.starts_at);
    // Moved and cancelled are news; tentative is how the source describes the event, not a change to tell.
    const news = (s: FoundEvent['status']) => s === 'moved' || s === 'cancelled';
    const status: FoundEvent['status'] = news(event.status) ? event.status : startMoved ? 'moved' : event.status;
    const changed =
      startMoved || (news(status) && status !== before.event.status) || (before.event.status === 'cancelled' && status !== 'cancelled');
    // The feed keeps saying "moved" after the run that saw the move; only real differences re-send an entry.
    const keptStatus = status === 'scheduled' && before.event.status === 'moved' ? 'moved' : status;
    // The start it moved from: the one remembered when this run sees the move, else the one remembered with it.
    const movedFrom = startMoved ? before.event.starts_at : (before.event.moved_from ?? null);
    const kept = { ...event, status: keptStatus, moved_from: keptStatus === 'moved' ? movedFrom : null } as FoundEvent;
    const bumped = FEED_FIELDS.some((f) => !equalField(f, before!.event, kept));
    return {
      event: { ...event, status, moved_from: status === 'moved' ? movedFrom : null, new: false },
      changed,
      remember: { event: kept, sequence: before.sequence + (bumped ? 1 : 0), bumped },
    };
  });
}

/**
 * A cancelled occurrence of a series (an EXDATE, or an override that cancels it): an event only to someone who
 * saw it announced before, a timer (its memory) or a searcher (their earlier searches); to anyone else a date
 * that never existed (docs/decisions/events-as-data.md).
 */
export const cancelledOccurrence = (e: FoundEvent) => e.status === 'cancelled' && e.key.startsWith('series:');

/** A cancelled occurrence of a series under a key never seen. */
const neverAnnounced = (e: FoundEvent, seen: Map<string, SeenEvent>) => cancelledOccurrence(e) && !seen.has(e.key);

function equalField(f: (typeof FEED_FIELDS)[number], a: FoundEvent, b: FoundEvent): boolean {
  if (f === 'starts_at' || f === 'ends_at') return sameStart(a[f], b[f]);
  return a[f] === b[f];
}

function isUpcoming(e: FoundEvent, now: Date): boolean {
  if (!e.starts_at) return false;
  const start = e.all_day ? Date.parse(`${e.starts_at.slice(0, 10)}T23:59:59Z`) : Date.parse(e.starts_at);
  return start > now.getTime();
}
