import { type Event, eventOverAt } from '../contract/event';

/** A digest tells of events that have not long passed: one that ended more than 30 days ago is no news. */
export const DIGEST_PAST_DAYS = 30;

/**
 * The events worth a digest at `now`, and what was left out: `dropped`, events that ended more than 30 days
 * before (a calendar page that still lists last year's events); `past`, events new to the timer but already
 * over, which the page shows as past and never as new (docs/decisions/the-page.md), so a message does not announce them.
 * Changed events of the last 30 days stay (a cancelled talk of last week). Events without a date are kept:
 * nothing says they are over.
 */
export function digestWindow(events: Event[], now: Date): { kept: Event[]; dropped: number; past: number } {
  const nowMs = now.getTime();
  const cutoff = nowMs - DIGEST_PAST_DAYS * 86_400_000;
  let dropped = 0;
  let past = 0;
  const kept: Event[] = [];
  for (const e of events) {
    const over = eventOverAt(e);
    if (over !== null && over < cutoff) dropped++;
    else if (over !== null && e.new && over < nowMs) past++;
    else kept.push(e);
  }
  return { kept, dropped, past };
}
