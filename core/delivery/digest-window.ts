import type { Event } from '../contract/event';

/** A digest tells of events that have not long passed: one that ended more than 30 days ago is no news. */
export const DIGEST_PAST_DAYS = 30;

/**
 * The events worth a digest at `now`, and how many were left out for having ended more than 30 days before
 * (a calendar page that still lists last year's events). Events without a date are kept: nothing says they
 * are over. Timed events end at their end (else their start); all-day ones at the end of their last day.
 */
export function digestWindow(events: Event[], now: Date): { kept: Event[]; dropped: number } {
  const cutoff = now.getTime() - DIGEST_PAST_DAYS * 86_400_000;
  const kept = events.filter((e) => {
    const last = e.ends_at ?? e.starts_at;
    if (!last) return true;
    const endMs = e.all_day ? Date.parse(`${last.slice(0, 10)}T23:59:59Z`) + 14 * 3_600_000 : Date.parse(last);
    return Number.isNaN(endMs) || endMs >= cutoff;
  });
  return { kept, dropped: events.length - kept.length };
}
