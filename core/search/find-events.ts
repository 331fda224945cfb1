import type { RunEvent } from '../../db/events';
import { finishSearchEvents, pendingEventsOf } from '../../db/searches';
import type { Logger } from '../logger';
import type { SearchEventsInput } from './events-job';
import { type AnsweredSearch, type EventsDeps, eventsOfAnsweredSearch } from './record-events';

/** The extraction call of one ask's search may take this long; past it the search keeps the website's events only. */
export const EXTRACTION_DEADLINE_MS = 120_000;

export interface FindEventsDeps extends EventsDeps {
  logger: Logger;
}

/**
 * How finding a search's events ended: all found, found in part, or nothing left to do (another execution had
 * ended them). `runEvents`: a timer run's events with whether each changed (what its delivery sends).
 * `unrecorded`: the final write failed; the events are still pending, and another attempt may end them.
 */
export interface FoundEvents {
  status: 'done' | 'failed' | 'already-ended';
  runEvents: RunEvent[];
  unrecorded?: unknown;
}

/**
 * The events of an answered search, found by its id (docs/decisions/ask.md), for an ask's job after its reply and for
 * a timer run after its answer alike: reads what the answer left beside the search, collects the events (the
 * website's facts and the model's extraction, unless the answer gave or named them), checks and stores them, then ends
 * the search's `events_status` with the extraction call's usage in the same write. A failed extraction keeps the
 * website's events and ends 'failed'.
 */
export async function findSearchEvents(
  deps: FindEventsDeps,
  searchId: number,
  options: { timerRun?: AnsweredSearch['timerRun']; signal?: AbortSignal } = {},
): Promise<FoundEvents> {
  const pending = await pendingEventsOf(deps.sql, searchId);
  if (!pending) return { status: 'already-ended', runEvents: [] };
  const input = pending.input as SearchEventsInput;
  const found = await eventsOfAnsweredSearch(deps, {
    searchId,
    userId: pending.userId,
    timerRun: options.timerRun,
    timezone: input.timezone,
    filters: pending.filters,
    prepared: input.prepared,
    result: input.result,
    signal: options.signal,
  });
  const status = found.failed ? 'failed' : 'done';
  try {
    const ended = await finishSearchEvents(deps.sql, searchId, { status, calls: found.extraction ? [found.extraction] : [] });
    if (!ended) return { status: 'already-ended', runEvents: found.runEvents };
  } catch (err) {
    return { status, runEvents: found.runEvents, unrecorded: err };
  }
  if (found.failed) deps.logger.warn({ searchId, events: found.events.length }, 'the events of a search were found in part');
  return { status, runEvents: found.runEvents };
}
