import type { FoundEvent } from '../contract/event';
import type { ReadingLimits } from '../reading/pool';
import { readingPool } from '../reading/shared-pool';
import type { WebsitePage } from '../website/fetch';

/**
 * The one place a fetched source page becomes events: the same reading threads, limits and reader as a user's
 * website (core/reading), so a hostile cited page costs only its own reading. Calendars the page links are
 * not followed: the page itself must list the event. A reading past a limit throws (ReadingOverLimit), and the
 * page then confirms nothing. `reader`: whose search's page it is (see ReadingPool).
 */
export async function eventsOfSourcePage(
  page: WebsitePage,
  context: { searcherTimezone: string; now: Date },
  limits: ReadingLimits,
  reader: string,
): Promise<FoundEvent[]> {
  const pool = readingPool(limits);
  const reading = { searcherTimezone: context.searcherTimezone, now: context.now.getTime() };
  const first = await pool.run({ kind: 'page', page, context: reading }, limits.timeLimitMs, { reader });
  if (first.follow.length === 0) return first.events;
  // A page that links calendars gives its own events in the calendars step; none are fetched for a check.
  const own = await pool.run({ kind: 'calendars', facts: first.facts, calendars: [], context: reading }, limits.timeLimitMs, {
    reader,
  });
  return own.events;
}
