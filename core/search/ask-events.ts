import { finishSearchEvents } from '../../db/searches';
import type { Logger } from '../logger';
import type { SearchEventsJob } from './events-job';
import { type EventsDeps, eventsOfAnsweredSearch } from './record-events';

/** The extraction call of one search may take this long; past it the search keeps the website's events only. */
export const EXTRACTION_DEADLINE_MS = 120_000;

export interface AskEventsDeps extends EventsDeps {
  logger: Logger;
}

/** How finding an answered ask's events ended: all found, found in part, or another execution had ended them. */
export type AskEventsOutcome = 'done' | 'failed' | 'already-ended';

/**
 * An answered ask's events, found after its reply has ended (docs/decisions/ask.md), whatever queue delivers the job:
 * collects them (the website's facts and the model's extraction, unless the answer names only the website's),
 * checks and stores them, then ends the search's `events_status` with the extraction call's usage in the same
 * write. A failed extraction keeps the website's events and ends 'failed'. Only a failed final write is thrown:
 * the search's events are still pending, and another attempt may end them.
 */
export async function findAskEvents(deps: AskEventsDeps, s: SearchEventsJob): Promise<AskEventsOutcome> {
  const found = await eventsOfAnsweredSearch(deps, {
    searchId: s.searchId,
    userId: s.userId,
    timezone: s.timezone,
    filters: s.filters,
    prepared: s.prepared,
    result: s.result,
    signal: AbortSignal.timeout(EXTRACTION_DEADLINE_MS),
  });
  const status = found.failed ? 'failed' : 'done';
  const ended = await finishSearchEvents(deps.sql, s.searchId, { status, calls: found.extraction ? [found.extraction] : [] });
  if (!ended) return 'already-ended';
  if (found.failed) deps.logger.warn({ searchId: s.searchId, events: found.events.length }, 'the events of a search were found in part');
  return status;
}
